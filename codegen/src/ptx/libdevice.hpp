// Math on NVIDIA GPUs: CUDA's libdevice (libdevice.10.bc, a bitcode library of
// __nv_* functions), which the NVPTX code generator needs for every math
// function it has no instruction for. The GPU counterpart of math_library.hpp.
#ifndef TCPU_CODEGEN_LIBDEVICE_HPP
#define TCPU_CODEGEN_LIBDEVICE_HPP

#include <string>

#include <llvm/IR/Module.h>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

// libdevice.10.bc: $TCPU_LIBDEVICE, else under $CUDA_PATH, $CUDA_HOME or /usr/local/cuda
// (nvvm/libdevice/). TCPU_ERROR_FILE_NOT_FOUND naming the places looked in.
Expected<std::string> findLibdevice();

// Calls to the math functions tcpu knows (math_library.hpp's table: LLVM intrinsics, libm
// names, already-__nv_ names), scalar or vector, become calls to libdevice's __nv_ functions.
// Returns whether any was made.
bool lowerMathToLibdevice(llvm::Module& module);

// Links the libdevice functions `module` calls from the file at `path`, internal to the module,
// with the denormal mode libdevice's __nvvm_reflect reads ("nvvm-reflect-ftz": 0, IEEE).
Status linkLibdevice(llvm::Module& module, const std::string& path);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_LIBDEVICE_HPP
