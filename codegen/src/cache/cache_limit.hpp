// The compile cache's size limit: TCPU_CACHE_MAX_SIZE, what counts as a use of a file, and
// pruning the least recently used of tcpu's files (cache_files.hpp) while other processes read
// and write the cache.
//
// Why pruning is safe beside readers and writers: every file of the cache is written whole under
// a temporary name and renamed into place, and never changed after; pruning only unlinks. A
// reader that has a file open reads all of it (an unlinked file lives until closed or unmapped);
// one that comes after finds nothing and compiles (a miss). Temporaries of writes in progress are
// never removed. One prune runs at a time (an flock on "prune.lock" in the cache), so that two
// processes over the limit do not both remove down to the target from the same list.
#ifndef TCPU_CODEGEN_CACHE_LIMIT_HPP
#define TCPU_CODEGEN_CACHE_LIMIT_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

inline constexpr uint64_t kDefaultCacheMaxBytes = uint64_t{1} << 30; // 1 GiB

// TCPU_CACHE_MAX_SIZE as a number of bytes ("2G", "512MiB", "0" for no limit), or
// kDefaultCacheMaxBytes when it is unset or empty; an error naming the variable and its value
// when it is not a size (tcpu/environment.hpp's parseByteSize).
Expected<uint64_t> cacheSizeLimitFromEnvironment();

// Marks a cache file used now (its access time; its modification time stays what it was), so
// that pruning keeps it longer. Explicit, because mounts with noatime or relatime would not
// record a read.
void markCacheFileUsed(const std::filesystem::path& file);

struct PruneReport {
  uint64_t bytesBefore = 0; // tcpu's files in the cache before pruning
  uint64_t bytesAfter = 0;
  uint64_t bytesRemoved = 0;
  std::size_t filesRemoved = 0;
  bool busy = false; // another process was pruning: nothing was done
};

// Removes stale temporaries (cache_files.hpp); then, when tcpu's files in `directory` take more
// than `thresholdBytes`, the least recently used of them until they take at most `targetBytes`. A
// Python front-end kernel (its .so and its .json) goes as one. The sizes are taken under the lock,
// after waiting up to a few seconds for another process's prune to end (then `busy`, and nothing
// done). An error when the directory cannot be read or a file cannot be removed.
Expected<PruneReport> pruneCache(const std::filesystem::path& directory, uint64_t targetBytes,
                                 uint64_t thresholdBytes);

// What each write into the cache calls: removes temporaries abandoned by their writers ten
// minutes ago or more (a process killed mid-write leaves them); then, when tcpu's files in
// `directory` take more than `maxBytes` (0: no limit), prunes them to 90% of it, so that the next
// few writes do not each prune again. Because sizes are taken under the lock, the last of several
// concurrent writers leaves the cache under its limit. Failures are reported at debug level only
// (the cache then stays over its limit until the next write).
void trimCache(const std::filesystem::path& directory, uint64_t maxBytes);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_CACHE_LIMIT_HPP
