// Kernel source (C++ against the grid ABI, or in the tl language) to LLVM
// bitcode with clang's libraries, in process: the NVRTC of tcpu. The bitcode
// then goes through the IR pipeline like any other module.
#ifndef TCPU_CODEGEN_SOURCE_COMPILER_HPP
#define TCPU_CODEGEN_SOURCE_COMPILER_HPP

#include <string>
#include <string_view>

#include "compile_options.hpp"

namespace tcpu::codegen {

// Compiles `source` (named `name` in messages; includes resolve next to it
// when it is a real path). Compile errors are TCPU_ERROR_INVALID_SOURCE with
// clang's diagnostics (file:line:column).
Expected<std::string> compileSourceToBitcode(std::string_view source, const std::string& name,
                                             const CompileOptions& options);

// Whether a path names C++ kernel source (.cpp, .cc, .cxx).
bool isKernelSourcePath(const std::string& path);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_SOURCE_COMPILER_HPP
