// Finding the grid-ABI kernels of an LLVM module, specializing them with a
// Triton signature, and giving each the uniform entry trampoline the runtime
// calls (tcpuKernelEntry), in IR, so that the program loop is optimized
// together with the kernel body.
#ifndef TCPU_CODEGEN_KERNELS_HPP
#define TCPU_CODEGEN_KERNELS_HPP

#include <string>
#include <vector>

#include <llvm/IR/Module.h>

#include "support/compile_options.hpp"
#include "tcpu/kernel_abi.h"

namespace tcpu::codegen {

struct KernelInfo {
  std::string name;                  // the kernel function
  std::string entrySymbol;           // its entry: the trampoline, or the CUDA kernel
  std::vector<tcpuParamDesc> params; // the parameters a launch passes (name pointers unset)
  std::vector<std::string> paramNames;
  // Source names of all parameters before the six program values, including those the
  // signature binds at compile time; "" where the producer gave none.
  std::vector<std::string> declaredNames;
  uint32_t flags = 0; // tcpuKernelDesc.flags (ir/kernel_flags.hpp)
};

// The tcpuDataType of a value of IR type `ir`; `declared` (the signature's type, or
// TCPU_TYPE_UNKNOWN) tells unsigned integers from signed ones.
tcpuDataType dataTypeOf(const llvm::Type* ir, tcpuDataType declared);

// What a kernel's entry is: the runtime's trampoline (tcpuKernelEntry) on the CPU, or a CUDA
// kernel of the kernel's name taking the launch's parameters (NVPTX).
enum class EntryKind { CpuTrampoline, CudaKernel };

// Applies the signature (if any), adds the entries, and internalizes all other
// functions so that only the entries remain visible.
Expected<std::vector<KernelInfo>> prepareKernels(llvm::Module& module,
                                                 const CompileOptions& options,
                                                 EntryKind kind = EntryKind::CpuTrampoline);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_KERNELS_HPP
