// The files the Python front end keeps in tcpu's compile cache, owned here so that one
// definition of their layout serves the writer, the reader, `tcpu cache ls/clear/prune` and
// pruning (python/README.md, "The disk cache of compiled kernels"):
//   <cache>/python/<entry>/<variant>.so    a kernel compiled into a shared object
//   <cache>/python/<entry>/<variant>.json  the seal of the library (its entry, variant, size and
//                                          checksum) around what launching it needs and what
//                                          decides whether it is still current (the front end's)
//   <cache>/python/host-<id>.txt           LLVM's name for the host CPU
//   <cache>/python/compile-<xx>.lock       held while an entry is compiled (EntryCompileLock)
//   <cache>/autotune/<name>.json           the autotuner's timings (cache_results=True)
// An entry is named by the front end's key (64 hex digits: a SHA-256), a variant by what it read
// (16 hex digits), a host by the front end's process key (32 hex digits); the front end computes
// these names, this code makes every path of them. Every file is written whole under a temporary
// name and renamed into place. Nothing is trusted that was not checked: a cache directory someone
// else owns or may write to is refused (distrust), and a library is read whole and checked
// against its seal (readLibrary) before it is loaded, so that a truncated file, or a whole
// variant of another kernel moved under this one's name, is a miss and not a crash. No LLVM
// (library tcpu_cache_files): a process whose kernels are all cached reads them through this
// without loading LLVM.
#ifndef TCPU_FRONTEND_CACHE_HPP
#define TCPU_FRONTEND_CACHE_HPP

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

class FrontEndCache {
public:
  // The front end's part of the cache in `cacheDirectory`: <cacheDirectory>/python.
  explicit FrontEndCache(const std::filesystem::path& cacheDirectory);
  // Of the cache the environment names (tcpu/cache_directory.hpp); nullopt when there is none or
  // TCPU_CACHE_DISABLE is on; an error when TCPU_CACHE_DISABLE is not a boolean.
  static Expected<std::optional<FrontEndCache>> fromEnvironment();
  // The cache's variables checked: TCPU_CACHE_DISABLE and TCPU_CACHE_MAX_SIZE
  // (TCPU_ERROR_INVALID_VALUE naming the bad one and its value).
  static Status checkEnvironment();

  // <cache>/python
  const std::filesystem::path& directory() const { return directory_; }

  static bool isEntryName(std::string_view name);   // 64 lowercase hex digits
  static bool isVariantName(std::string_view name); // 16
  static bool isHostName(std::string_view name);    // 32
  // Whether `fileName` names one of the front end's files: "<variant>.so" or "<variant>.json"
  // (in an entry's directory), "host-<id>.txt" (in directory()).
  static bool isFileName(std::string_view fileName);

  // The files of a variant. TCPU_ERROR_INVALID_VALUE for a name that is not an entry's or a
  // variant's.
  Expected<std::filesystem::path> libraryPath(std::string_view entry,
                                              std::string_view variant) const;
  Expected<std::filesystem::path> metadataPath(std::string_view entry,
                                               std::string_view variant) const;

  // Why this cache may not be used, or nullopt when it may: the cache directory, python/ in it
  // and the entries' directories (those that exist) must be this user's and writable by nobody
  // else, as codegen's own cache requires of its directory (shared objects from it run inside
  // this process).
  std::optional<std::string> distrust() const;

  struct Variant {
    std::string name;
    std::string metadata; // what the front end stored (the .json's "metadata")
  };
  // The variants of `entry` whose metadata could be read and is sealed for this entry and
  // variant, by name; none when the entry does not exist (or `entry` is not an entry's name). A
  // variant may still lack its library: one pruned between the two reads.
  std::vector<Variant> variants(std::string_view entry) const;
  // The bytes of a variant's library, checked against its seal: this user's file, of the size
  // and checksum the metadata records for this entry and variant. TCPU_ERROR_INVALID_IMAGE naming
  // what is wrong (a damaged or foreign file: the caller compiles it again);
  // TCPU_ERROR_FILE_NOT_FOUND when it is missing.
  Expected<std::string> readLibrary(std::string_view entry, std::string_view variant) const;
  // For `tcpu cache ls`: what is wrong with `file`, a front-end file of an entry (a .json or a
  // .so in python/<entry>/), or nullopt when it is whole and sealed for where it is.
  static std::optional<std::string> damage(const std::filesystem::path& file);
  // Whether `file` is a variant's library with no metadata beside it: its writer was stopped
  // (killed) between writing the library and sealing it, and nothing will seal it now, so
  // pruning removes it as it removes a dead writer's temporaries.
  static bool isUnsealedLibrary(const std::filesystem::path& file);
  // Marks a variant used now (its metadata's access time, which pruning reads), for a load.
  void markUsed(std::string_view entry, std::string_view variant) const;

  // Stores a variant: creates the entry's directory (private), calls `writeLibrary` with the
  // library's path (it writes the shared object there atomically: tcpuCodegenWriteSharedObject;
  // an error it returns is returned, and nothing more is written), writes the metadata sealing
  // the library as written, last, so that a reader that finds it finds the whole variant, then
  // keeps the cache under its size limit
  // (TCPU_CACHE_MAX_SIZE). TCPU_ERROR_OPERATING_SYSTEM when a directory or the metadata cannot be
  // written; TCPU_ERROR_INVALID_VALUE for a bad name or a bad TCPU_CACHE_MAX_SIZE.
  Status store(std::string_view entry, std::string_view variant,
               const std::function<Status(const std::filesystem::path& library)>& writeLibrary,
               std::string_view metadata) const;

  // The text kept for host `name` (host-<name>.txt); nullopt when there is none.
  std::optional<std::string> readHost(std::string_view name) const;
  // Keeps `text` for host `name`, atomically. TCPU_ERROR_OPERATING_SYSTEM when it cannot be
  // written.
  Status storeHost(std::string_view name, std::string_view text) const;

private:
  // damage(file); with `library`, the bytes of a whole library are moved there.
  static std::optional<std::string> checkVariantFile(const std::filesystem::path& file,
                                                     std::string* library);

  std::filesystem::path directory_;
};

class CacheLock;

// The lock a compile of an entry holds, so that processes and threads that miss the same
// specialization at once (pytest-xdist's workers, each lowering the same test's kernel) compile
// it once: the others wait for it, then find the first one's variant. An flock: a holder that
// dies (killed mid-compile) releases it, and the waiter compiles instead. One of 256 files,
// python/compile-<xx>.lock by the entry's first two hex digits, so that their number stays
// bounded and none needs removing (which would race with a waiter's open); two entries that share
// one wait for each other's compiles, rarely.
class EntryCompileLock {
public:
  // Opens the lock file of `entry`, creating python/ (private) and the file if need be; does not
  // lock it yet. Not opened() for a name that is not an entry's or a file that cannot be made:
  // the caller compiles without it, as it would with no lock (stores are atomic).
  EntryCompileLock(const FrontEndCache& cache, std::string_view entry);
  EntryCompileLock(const EntryCompileLock&) = delete;
  EntryCompileLock& operator=(const EntryCompileLock&) = delete;
  ~EntryCompileLock(); // releases the lock
  bool opened() const;
  // Waits up to `wait` for the lock; false when another holder keeps it longer (the caller may
  // try again, or give up on a holder that is stopped or stuck) or it cannot be taken at all.
  bool acquire(std::chrono::milliseconds wait);
  // Lets the next waiter in before this object goes (no longer opened()).
  void release();

private:
  std::unique_ptr<CacheLock> lock_;
};

// The autotuner's results: <cache>/autotune/<name>.json.
class AutotuneResults {
public:
  explicit AutotuneResults(const std::filesystem::path& cacheDirectory);
  // Of the directory the environment names, TCPU_CACHE_DISABLE aside: results are kept only when
  // a script asks for it (cache_results=True, TRITON_CACHE_AUTOTUNING=1), which that switch of
  // the compile cache does not overrule. nullopt when no directory is named.
  static std::optional<AutotuneResults> fromEnvironment();

  // A name the front end may give results: 1 to 200 characters, no '/', no NUL, not starting
  // with '.'.
  static bool isName(std::string_view name);
  // TCPU_ERROR_INVALID_VALUE for a bad name.
  Expected<std::filesystem::path> path(std::string_view name) const;
  // Writes the results of `name` atomically, creating the directory (private) if need be.
  // TCPU_ERROR_OPERATING_SYSTEM when that fails.
  Status store(std::string_view name, std::string_view text) const;

private:
  std::filesystem::path directory_;
};

} // namespace tcpu::codegen

#endif // TCPU_FRONTEND_CACHE_HPP
