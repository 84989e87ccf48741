// The allocations made by tcpuMemAlloc, so that frees and copies can be
// checked against real extents.
#ifndef TCPU_SRC_MEMORY_MAP_HPP
#define TCPU_SRC_MEMORY_MAP_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "tcpu/status.hpp"

namespace tcpu::detail {

class MemoryMap {
public:
  Expected<uintptr_t> allocate(size_t bytes);
  // Frees an allocation made by allocate(); `address` must be its start.
  Status release(uintptr_t address);
  // OK when [address, address + bytes) lies inside one allocation. `what` names the argument.
  Status checkRange(uintptr_t address, size_t bytes, const char* what) const;

private:
  mutable std::mutex mutex_;
  std::map<uintptr_t, size_t> allocations_; // start -> size
};

} // namespace tcpu::detail

#endif // TCPU_SRC_MEMORY_MAP_HPP
