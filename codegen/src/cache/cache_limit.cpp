#include "cache/cache_limit.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cache/cache_files.hpp"
#include "cache/cache_lock.hpp"
#include "support/debug_log.hpp"
#include "tcpu/environment.hpp"
#include "tcpu/frontend_cache.hpp"

namespace tcpu::codegen {
namespace {

// A writer creates a front-end directory and then writes into it within seconds; an empty one
// older than this is left over from an earlier prune.
constexpr std::time_t kEmptyDirectoryAgeSeconds = 10 * 60;
// How long an abandoned temporary (its writer gone) is left before a write into the cache removes
// it: a writer in another PID namespace looks gone from here, and no write is still going after
// this long without changing its file.
constexpr std::time_t kAbandonedTemporaryAgeSeconds = 10 * 60;
constexpr std::chrono::seconds kLockWait{5};
// A front-end library with no seal beside it this long after it was written was left by a writer
// killed before sealing it (sealing follows the write at once); a younger one may be sealed now.
constexpr std::time_t kUnsealedLibraryAgeSeconds = 60;

bool isAbandonedUnsealedLibrary(const CacheFile& file, std::time_t now, std::time_t minimumAge) {
  return file.kind == CacheFile::Kind::FrontEnd && now - file.modified >= minimumAge &&
         FrontEndCache::isUnsealedLibrary(file.path);
}

// What pruning removes as one: a file, or a Python kernel's .json and .so.
struct Item {
  std::vector<std::filesystem::path> files; // in the order they are removed
  uint64_t bytes = 0;
  int64_t lastUsedNs = 0;
};

// tcpu's files grouped into items, oldest use first. The front end's reader looks for the .json
// first and then opens the .so: the .json goes first, so that no reader finds a .json whose .so
// is gone (it would only be a miss, but a needless one).
std::vector<Item> itemsByLastUse(const std::vector<CacheFile>& files) {
  std::map<std::filesystem::path, Item> kernels; // keyed by <key dir>/<variant>
  std::vector<Item> items;
  for (const CacheFile& file : files) {
    const bool variant = file.kind == CacheFile::Kind::FrontEnd &&
                         (file.path.extension() == ".so" || file.path.extension() == ".json");
    Item single;
    Item& item = variant ? kernels[file.path.parent_path() / file.path.stem()] : single;
    if (file.path.extension() == ".json")
      item.files.insert(item.files.begin(), file.path);
    else
      item.files.push_back(file.path);
    item.bytes += file.size;
    item.lastUsedNs = std::max(item.lastUsedNs, file.lastUsedNs);
    if (!variant) items.push_back(std::move(single));
  }
  for (auto& [name, item] : kernels)
    items.push_back(std::move(item));
  // Ties (one second's resolution on some file systems) go by name, so that every process
  // prunes in the same order.
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.lastUsedNs != b.lastUsedNs ? a.lastUsedNs < b.lastUsedNs : a.files < b.files;
  });
  return items;
}

bool removeFile(const std::filesystem::path& path) {
  // ENOENT: another process removed it first (clear, or a prune of an older tcpu).
  return ::unlink(path.c_str()) == 0 || errno == ENOENT;
}

} // namespace

Expected<uint64_t> cacheSizeLimitFromEnvironment() {
  const char* value = std::getenv("TCPU_CACHE_MAX_SIZE");
  if (!value || !*value) return kDefaultCacheMaxBytes;
  return parseByteSize(value, "TCPU_CACHE_MAX_SIZE");
}

void markCacheFileUsed(const std::filesystem::path& file) {
  const timespec times[2] = {{0, UTIME_NOW}, {0, UTIME_OMIT}}; // access now, modification kept
  if (::utimensat(AT_FDCWD, file.c_str(), times, 0) != 0)
    debugLog(concat("cache: cannot mark ", file.string(), " used: ", std::strerror(errno)));
}

Expected<PruneReport> pruneCache(const std::filesystem::path& directory, uint64_t targetBytes,
                                 uint64_t thresholdBytes) {
  PruneReport report;
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error)) return report;
  CacheLock lock(directory / "prune.lock");
  if (!lock.opened())
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot open the cache's lock '", (directory / "prune.lock").string(),
                         "': ", std::strerror(errno)));
  // A prune takes milliseconds: a holder for longer is stopped or stuck, and compiles must not
  // wait on it.
  if (!lock.acquire(kLockWait)) {
    report.busy = true;
    return report;
  }
  Expected<std::vector<CacheFile>> files = listCacheFiles(directory);
  if (!files) return files.status();
  for (const CacheFile& file : *files)
    report.bytesBefore += file.size;
  // Temporaries of writers that are gone go whatever the size: nothing will ever rename them;
  // so do libraries whose writer was killed before sealing them (nothing will seal them).
  std::vector<CacheFile> kept;
  const std::time_t now = std::time(nullptr);
  for (const CacheFile& file : *files) {
    if ((isStaleTemporary(file) ||
         isAbandonedUnsealedLibrary(file, now, kUnsealedLibraryAgeSeconds)) &&
        removeFile(file.path)) {
      report.bytesRemoved += file.size;
      ++report.filesRemoved;
    } else if (file.kind != CacheFile::Kind::Temporary) {
      kept.push_back(file);
    }
  }
  uint64_t bytes = report.bytesBefore - report.bytesRemoved;
  report.bytesAfter = bytes;
  if (report.bytesBefore <= thresholdBytes) return report;
  for (const Item& item : itemsByLastUse(kept)) {
    if (bytes <= targetBytes) break;
    for (const std::filesystem::path& path : item.files) {
      if (!removeFile(path))
        return Status(TCPU_ERROR_OPERATING_SYSTEM,
                      concat("cannot remove '", path.string(), "': ", std::strerror(errno)));
      ++report.filesRemoved;
    }
    bytes -= item.bytes;
    report.bytesRemoved += item.bytes;
  }
  report.bytesAfter = bytes;
  removeEmptyFrontEndDirectories(directory, kEmptyDirectoryAgeSeconds);
  return report;
}

void trimCache(const std::filesystem::path& directory, uint64_t maxBytes) {
  Expected<std::vector<CacheFile>> files = listCacheFiles(directory);
  if (!files) {
    debugLog(concat("cache: ", files.status().message()));
    return;
  }
  uint64_t bytes = 0;
  const std::time_t now = std::time(nullptr);
  for (const CacheFile& file : *files)
    if ((isStaleTemporary(file) ||
         isAbandonedUnsealedLibrary(file, now, kAbandonedTemporaryAgeSeconds)) &&
        now - file.modified >= kAbandonedTemporaryAgeSeconds && removeFile(file.path))
      debugLog(concat("cache: removed ", file.path.string(), ", abandoned by its writer"));
    else
      bytes += file.size;
  if (maxBytes == 0) return;
  if (bytes <= maxBytes) return;
  Expected<PruneReport> pruned = pruneCache(directory, maxBytes / 10 * 9, maxBytes);
  if (!pruned)
    debugLog(concat("cache: pruning failed: ", pruned.status().message()));
  else if (pruned->busy)
    debugLog("cache: over its limit, and another process holds the prune lock");
  else if (pruned->filesRemoved > 0)
    debugLog(concat("cache: over its limit (", pruned->bytesBefore, " > ", maxBytes,
                    " bytes): removed ", pruned->filesRemoved, " files, ", pruned->bytesRemoved,
                    " bytes"));
}

} // namespace tcpu::codegen
