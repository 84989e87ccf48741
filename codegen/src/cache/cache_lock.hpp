// An exclusive lock on a file of the cache (an flock), between processes and between threads
// of one process (each lock opens the file anew): one prune at a time, one build of a
// precompiled header at a time, one compile of a front-end entry at a time.
#ifndef TCPU_CODEGEN_CACHE_LOCK_HPP
#define TCPU_CODEGEN_CACHE_LOCK_HPP

#include <chrono>
#include <filesystem>

namespace tcpu::codegen {

class CacheLock {
public:
  // Opens (creating) `file`; does not lock it yet.
  explicit CacheLock(const std::filesystem::path& file);
  CacheLock(const CacheLock&) = delete;
  CacheLock& operator=(const CacheLock&) = delete;
  ~CacheLock(); // closing the file releases the lock
  bool opened() const { return fd_ >= 0; }
  // false when another holder keeps it longer than `wait` (stopped or stuck: the caller goes
  // on without it) or the lock cannot be taken at all.
  bool acquire(std::chrono::milliseconds wait);

private:
  int fd_;
};

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_CACHE_LOCK_HPP
