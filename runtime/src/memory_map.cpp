#include "memory_map.hpp"

#include <cstdlib>

namespace tcpu::detail {

Expected<uintptr_t> MemoryMap::allocate(size_t bytes) {
  if (bytes == 0) return Status(TCPU_ERROR_INVALID_VALUE, "bytesize is 0");
  if (bytes > SIZE_MAX - 63)
    return Status(TCPU_ERROR_OUT_OF_MEMORY, concat("bytesize=", bytes, " is too large"));
  void* memory = std::aligned_alloc(64, (bytes + 63) & ~size_t{63});
  if (!memory)
    return Status(TCPU_ERROR_OUT_OF_MEMORY, concat("cannot allocate bytesize=", bytes, " bytes"));
  const auto address = reinterpret_cast<uintptr_t>(memory);
  std::lock_guard lock(mutex_);
  allocations_.emplace(address, bytes);
  return address;
}

Status MemoryMap::release(uintptr_t address) {
  {
    std::lock_guard lock(mutex_);
    auto it = allocations_.find(address);
    if (it == allocations_.end())
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("dptr=0x", std::hex, address,
                           " is not the start of a live tcpuMemAlloc allocation"));
    allocations_.erase(it);
  }
  std::free(reinterpret_cast<void*>(address));
  return {};
}

Status MemoryMap::checkRange(uintptr_t address, size_t bytes, const char* what) const {
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(address);
  if (it != allocations_.begin()) {
    --it;
    const uintptr_t start = it->first;
    const size_t size = it->second;
    if (address - start < size) {
      if (bytes <= size - (address - start)) return {};
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat(what, "=0x", std::hex, address, std::dec, " + ", bytes,
                           " bytes runs past the end of its allocation (", size, " bytes at 0x",
                           std::hex, start, ")"));
    }
  }
  return Status(TCPU_ERROR_INVALID_VALUE,
                concat(what, "=0x", std::hex, address, " is not inside a tcpuMemAlloc allocation"));
}

} // namespace tcpu::detail
