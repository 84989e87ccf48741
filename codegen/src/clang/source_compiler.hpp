// Kernel source (C++ against the grid ABI, or in the tl language) to LLVM
// bitcode with clang's libraries, in process: the NVRTC of tcpu. The bitcode
// then goes through the IR pipeline like any other module.
#ifndef TCPU_CODEGEN_SOURCE_COMPILER_HPP
#define TCPU_CODEGEN_SOURCE_COMPILER_HPP

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cache/object_cache.hpp"
#include "support/compile_options.hpp"
#include "support/file_stamps.hpp"

namespace tcpu::codegen {

struct SourceBitcode {
  std::string bitcode;
  // The files clang read besides the source and tcpu's own headers (kernel_headers.hpp): system
  // headers, headers next to the source. Empty when one of them changed while the compile ran,
  // which is then no basis for reuse.
  std::vector<FileStamp> inputs;
  bool inputsKnown = false; // false: the compile cannot be checked, so it is not to be reused
};

// Compiles `source` (named `name` in messages; includes resolve next to it
// when it is a real path). Compile errors are TCPU_ERROR_INVALID_SOURCE with
// clang's diagnostics (file:line:column). With `pchCache`, a source that begins by including
// tcpu/tl.h is compiled with tl.h precompiled, kept in that cache (precompiled_header.hpp).
Expected<SourceBitcode> compileSource(std::string_view source, const std::string& name,
                                      const CompileOptions& options, const ObjectCache* pchCache);
// The same, for callers that only need the bitcode.
Expected<std::string> compileSourceToBitcode(std::string_view source, const std::string& name,
                                             const CompileOptions& options);

// Whether a path names C++ kernel source (.cpp, .cc, .cxx).
bool isKernelSourcePath(const std::string& path);

// Whether bytes loaded from memory (no path) are C++ kernel source: text whose first token is a
// preprocessor directive or a comment ("#include", "//", "/*"). LLVM IR text cannot start so
// (its comments start with ';'), nor can bitcode or a shared object.
bool isKernelSourceText(std::span<const std::byte> bytes);

// The name clang gives source loaded from memory, in diagnostics and device_assert reports. It
// lies in a directory that does not exist, so the source's quoted includes cannot resolve
// against the working directory and find only tcpu's headers (and the system's).
inline constexpr const char* kMemorySourceName = "/<tcpu>/kernel.cpp";

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_SOURCE_COMPILER_HPP
