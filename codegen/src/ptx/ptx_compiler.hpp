// Kernels for NVIDIA GPUs: LLVM IR in the grid ABI, the same bitcode the CPU compiles (tl and
// C++ kernels as tcpu_add_kernels builds them, or IR of any producer), to PTX: each kernel a
// CUDA kernel of its own name taking the launch's parameters, one program per CUDA block run
// by one thread, math through libdevice, the runtime's services through CUDA's.
#ifndef TCPU_CODEGEN_PTX_COMPILER_HPP
#define TCPU_CODEGEN_PTX_COMPILER_HPP

#include <span>
#include <string>
#include <vector>

#include "ir/kernels.hpp"
#include "support/compile_options.hpp"

namespace tcpu::codegen {

struct PtxRequest {
  std::span<const std::byte> bytes; // .ll text or .bc bitcode
  std::string name;                 // for messages
  std::string arch = "sm_90";       // the GPU architecture: sm_70 and later
  CompileOptions options;           // kernel name, signature, FMA contraction
  std::string libdevice;            // libdevice.10.bc; empty: findLibdevice()
};

struct PtxModule {
  std::vector<KernelInfo> kernels; // entrySymbol: the CUDA kernel's name
  std::string ptx;
};

Expected<PtxModule> compileToPtx(const PtxRequest& request);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_PTX_COMPILER_HPP
