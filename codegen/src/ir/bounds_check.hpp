// Bounds checking (TCPU_JIT_CHECK_BOUNDS), the CPU analog of compute-sanitizer's
// memcheck. It instruments the optimized entry trampolines, so the code it
// checks is the vectorized code that runs and the checks cost a compare per
// vector access rather than per element:
// - each pointer an access derives from (pointer_origins.hpp) has its buffer
//   looked up once, where the pointer is read (tcpuKernelFindBuffer);
// - each load, store, atomic, masked load/store, gather/scatter, memcpy and
//   memset through it is guarded by an inline range check of the bytes it
//   touches (for masked operations, only the active lanes);
// - an access that fails its check is skipped (a load gives zeros) and
//   reported (tcpuKernelReportAccess) with its first out-of-bounds element,
//   which the runtime turns into the launch's TCPU_ERROR_ILLEGAL_ADDRESS.
// Checked trampolines announce each program (tcpuKernelEnterProgram) so that
// reports name it. Pointers into memory the runtime does not know (plain
// malloc) are unknown to the lookup and pass every check.
#ifndef TCPU_CODEGEN_BOUNDS_CHECK_HPP
#define TCPU_CODEGEN_BOUNDS_CHECK_HPP

#include <vector>

#include <llvm/IR/Module.h>

#include "ir/kernels.hpp"

namespace tcpu::codegen {

// The runtime call a checked trampoline makes as each program (x, y, z) starts.
llvm::FunctionCallee programAnnouncement(llvm::Module& module);

// Instruments the accesses of the kernels' entries. Accesses whose address derives from no
// kernel parameter (the stack, scratch) are left alone.
void instrumentBoundsChecks(llvm::Module& module, const std::vector<KernelInfo>& kernels);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_BOUNDS_CHECK_HPP
