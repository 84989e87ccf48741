// tcpu/tl.h precompiled for the in-process compiler, kept in the compile cache: parsing tl.h is
// most of a tl kernel's compile. Keyed by the content of tcpu's headers, the clang arguments
// (options that change the language: FP contraction, fast math) and header search path, and the
// versions; written atomically. clang itself checks, when it loads one, that no file it was
// built from (system headers included) changed size or time since: if one did, the header is
// rebuilt.
#ifndef TCPU_CODEGEN_PRECOMPILED_HEADER_HPP
#define TCPU_CODEGEN_PRECOMPILED_HEADER_HPP

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "cache/object_cache.hpp"
#include "support/compile_options.hpp"

namespace tcpu::codegen {

// Whether `source` begins, after whitespace and comments, with #include "tcpu/tl.h" (or
// <tcpu/tl.h>): then compiling it with tl.h precompiled is compiling the same text.
bool startsWithTlInclude(std::string_view source);

// The precompiled tl.h for compiles with `options`, built into `cache` if it is not there (or if
// `rebuild`: clang refused the one there). nullopt, reported at debug level, when there can be
// none (no tl.h, an unusable cache directory, a failed build): the compile goes without.
std::optional<std::filesystem::path> precompiledTl(const ObjectCache& cache,
                                                   const CompileOptions& options, bool rebuild);

// What is wrong with the precompiled header at `path`, or nullopt when it is whole as far as
// its structure tells: clang's magic number, then top-level blocks that each end inside the
// file (a truncated, zeroed or overwritten file fails this). Damage inside a block is found by
// clang when it reads the header: compileSource then compiles without it and rebuilds it.
std::optional<std::string> precompiledHeaderDamage(const std::filesystem::path& path);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_PRECOMPILED_HEADER_HPP
