// The buffers whose extents the runtime knows: allocations made by
// tcpuMemAlloc (so that frees and copies can be checked against them) and
// host ranges registered with tcpuMemHostRegister (so that bounds-checked
// kernels can check accesses against them too).
#ifndef TCPU_SRC_MEMORY_MAP_HPP
#define TCPU_SRC_MEMORY_MAP_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>

#include "tcpu/status.hpp"

namespace tcpu::detail {

struct Extent {
  uintptr_t start;
  size_t size;
  bool registered; // a tcpuMemHostRegister range, not an allocation
};

// What tcpuMemAlloc promises: every allocation starts on a 64-byte boundary.
constexpr size_t kAllocationAlignment = 64;

class MemoryMap {
public:
  // `guarded`: end the allocation at a guard page (guarded_allocation.hpp); else aligned_alloc.
  Expected<uintptr_t> allocate(size_t bytes, bool guarded);
  // Frees an allocation made by allocate(); `address` must be its start.
  Status release(uintptr_t address);
  // OK when [address, address + bytes) lies inside one allocation. `what` names the argument.
  Status checkRange(uintptr_t address, size_t bytes, const char* what) const;

  // Adds a host range; it must not overlap a known buffer.
  Status registerHost(uintptr_t address, size_t bytes);
  // Removes the registered range starting at `address`.
  Status unregisterHost(uintptr_t address);
  // The allocation or registered range holding `address`, if any.
  std::optional<Extent> find(uintptr_t address) const;

private:
  struct Entry {
    size_t size;
    bool registered;
    bool guarded; // an allocation of allocateGuarded, to be unmapped
  };
  // The entry holding `address`, or end(). Needs the lock held.
  std::map<uintptr_t, Entry>::const_iterator holding(uintptr_t address) const;

  mutable std::shared_mutex mutex_;    // shared by lookups, which checked kernels make at once
  std::map<uintptr_t, Entry> buffers_; // start -> extent
};

} // namespace tcpu::detail

#endif // TCPU_SRC_MEMORY_MAP_HPP
