// The cache key of a module compiled from C++ kernel source, made without compiling, so that a
// hit skips clang as well as LLVM: the source text and where it lies, a digest of tcpu's headers,
// clang's arguments and header search path, codegen's options, the target and the versions.
// The other files clang reads (system headers, headers next to the source) are checked at load
// against the stamps the entry keeps (CompiledModule::inputs).
#ifndef TCPU_CODEGEN_SOURCE_CACHE_KEY_HPP
#define TCPU_CODEGEN_SOURCE_CACHE_KEY_HPP

#include <string>
#include <string_view>

#include "support/compile_options.hpp"
#include "target/target.hpp"

namespace tcpu::codegen {

Expected<std::string> sourceCacheKey(std::string_view source, const std::string& name,
                                     const CompileOptions& options,
                                     const TargetDescription& target);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_SOURCE_CACHE_KEY_HPP
