// Where tcpu's compile cache is, as every part of tcpu that keeps files in it reads the
// environment: codegen's compiled modules and precompiled headers, the Python front end's kernels
// and the autotuner's results (tcpu/frontend_cache.hpp). No LLVM: the Python front end's
// runtime-only module resolves it too (library tcpu_cache_files).
#ifndef TCPU_CACHE_DIRECTORY_HPP
#define TCPU_CACHE_DIRECTORY_HPP

#include <filesystem>
#include <optional>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

// TCPU_CACHE_DIR, else $XDG_CACHE_HOME/tcpu, else $HOME/.cache/tcpu (empty values count as
// unset), whatever TCPU_CACHE_DISABLE says; nullopt when none of them is set.
std::optional<std::filesystem::path> namedCacheDirectory();

// namedCacheDirectory(), or nullopt when TCPU_CACHE_DISABLE is on; an error when
// TCPU_CACHE_DISABLE is not a boolean.
Expected<std::optional<std::filesystem::path>> cacheDirectoryFromEnvironment();

} // namespace tcpu::codegen

#endif // TCPU_CACHE_DIRECTORY_HPP
