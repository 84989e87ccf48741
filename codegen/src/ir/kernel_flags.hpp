// What the runtime learns about a kernel from its IR, as tcpuKernelDesc.flags: whether its
// programs wait for each other (TCPU_KERNEL_PROGRAMS_WAIT: a loop that exits on shared state, as
// a spin lock), which makes the runtime deal its programs in launch order (docs/c-api.md).
#ifndef TCPU_CODEGEN_IR_KERNEL_FLAGS_HPP
#define TCPU_CODEGEN_IR_KERNEL_FLAGS_HPP

#include <cstdint>

#include <llvm/IR/Function.h>

namespace tcpu::codegen {

// TCPU_KERNEL_* bits for `kernel`, from its body and every function it calls that the module
// defines.
uint32_t kernelFlags(const llvm::Function& kernel);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_IR_KERNEL_FLAGS_HPP
