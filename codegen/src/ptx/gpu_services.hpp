// What a kernel compiled for the CPU calls beyond its own code, made to work
// on an NVIDIA GPU: the runtime's kernel services (kernel_abi.h) become
// CUDA's device-side ones, and host-only hints are dropped. This is what lets
// one bitcode file, as tcpu_add_kernels builds it, run on both backends.
#ifndef TCPU_CODEGEN_GPU_SERVICES_HPP
#define TCPU_CODEGEN_GPU_SERVICES_HPP

#include <llvm/IR/Module.h>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

// tcpuKernelAssertFail gets a definition calling CUDA's __assertfail (the launch then fails
// with CUDA's assert error); calls of x86's spin-wait hint (pause) go. A kernel that prints
// (tcpuKernelPrint) is refused.
Status provideGpuServices(llvm::Module& module);

// After optimization (tl's code for AVX512-BF16 and AMX, behind target constants that are 0 on a
// GPU, is gone by then): a kernel that still uses an x86 intrinsic is refused, naming it.
Status refuseHostIntrinsics(const llvm::Module& module);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_GPU_SERVICES_HPP
