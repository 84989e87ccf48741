// The files tcpu's compile cache keeps: codegen's entries "<64 hex key>.tcpuobj"
// (object_cache.hpp) and precompiled headers "<key>.tcpupch", the Python front end's files
// (tcpu/frontend_cache.hpp), and the temporaries of writes in progress (temporary_files.hpp). Only
// these are listed, counted or removed; anything else in the directory is someone else's.
#ifndef TCPU_CODEGEN_CACHE_FILES_HPP
#define TCPU_CODEGEN_CACHE_FILES_HPP

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

struct CacheFile {
  // Entry: a compiled module (.tcpuobj); PrecompiledHeader: tl.h precompiled for clang
  // (.tcpupch, rebuilt when missing); FrontEnd: a file of the Python front end's cache
  // (python/<key>/<variant>.so and .json, python/host-<id>.txt: tcpu/frontend_cache.hpp);
  // Temporary: a write in progress or abandoned.
  enum class Kind { Entry, PrecompiledHeader, FrontEnd, Temporary };
  Kind kind = Kind::Entry;
  std::filesystem::path path;
  uint64_t size = 0;
  std::time_t modified = 0;
  // When it was last used, in ns since the epoch: the later of its modification (written) and
  // its access time (a load marks it: markCacheFileUsed in cache_limit.hpp).
  int64_t lastUsedNs = 0;
  long long writerPid = 0; // temporaries: the process that writes it
};

// tcpu's files in `directory` and in the front end's python/ below it, sorted by path; none when
// it does not exist. Symbolic links are never tcpu's. TCPU_ERROR_OPERATING_SYSTEM when the
// directory cannot be read.
Expected<std::vector<CacheFile>> listCacheFiles(const std::filesystem::path& directory);

// A temporary whose writer is gone (its process has exited) or that is over an hour old: no
// write takes that long, so it will never be renamed into place.
bool isStaleTemporary(const CacheFile& file);

// Removes the front end's directories under `directory` that are empty and were last changed
// at least `minimumAgeSeconds` ago. A writer creates its directory and then writes into it: an
// age of a few minutes keeps a concurrent prune from removing a directory between the two.
void removeEmptyFrontEndDirectories(const std::filesystem::path& directory,
                                    std::time_t minimumAgeSeconds = 0);

// Where the cache is: --dir when given, else the environment's directory. nullopt with
// `why` set when there is none (TCPU_CACHE_DISABLE on, no variable names one, or a bad value).
std::optional<std::filesystem::path> cacheDirectory(const std::optional<std::string>& override,
                                                    std::string& why);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_CACHE_FILES_HPP
