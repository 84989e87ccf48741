// Whether the programs of a kernel may share copies of the blocks they read
// (TCPU_KERNEL_SHARES_READS, kernel_abi.h: tl's dot reads each large block of B through one copy
// per launch), decided on the kernel's optimized entry.
#ifndef TCPU_CODEGEN_IR_SHARED_READS_HPP
#define TCPU_CODEGEN_IR_SHARED_READS_HPP

#include <vector>

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include "ir/kernels.hpp"

namespace tcpu::codegen {

// True where `entry` (a trampoline whose outermost loops run one program per iteration, after
// optimization and before cancel checks and SLEEF calls are added) reads shared copies, has no
// atomic operation, and writes no memory other programs could read on a path from the start of
// a program to one of its reads of a shared copy.
bool sharesReads(const llvm::Function& entry);

// Adds TCPU_KERNEL_SHARES_READS to the flags of each kernel of the optimized `module` whose
// entry shares reads: in `kernels`, and in any descriptor the module defines for it (an AOT
// launcher's, linked in before optimization).
void flagSharedReads(llvm::Module& module, std::vector<KernelInfo>& kernels);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_IR_SHARED_READS_HPP
