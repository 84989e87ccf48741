#include "memory/memory_map.hpp"

#include <cstdlib>
#include <mutex>

#include "memory/guarded_allocation.hpp"

namespace tcpu::detail {
namespace {

// The first buffer ending after `address`: as buffers never overlap, the only one that can hold
// it, and the first one a range starting there can overlap. `Buffers` is the map, const or not.
template <class Buffers>
auto firstEndingAfter(Buffers& buffers, uintptr_t address) {
  auto it = buffers.upper_bound(address);
  if (it != buffers.begin() && std::prev(it)->first + std::prev(it)->second.size > address) --it;
  return it;
}

} // namespace

Expected<uintptr_t> MemoryMap::allocate(size_t bytes, bool guarded) {
  if (bytes == 0) return Status(TCPU_ERROR_INVALID_VALUE, "bytesize is 0");
  if (bytes > SIZE_MAX - (kAllocationAlignment - 1))
    return Status(TCPU_ERROR_OUT_OF_MEMORY, concat("bytesize=", bytes, " is too large"));
  uintptr_t address = 0;
  if (guarded) {
    Expected<uintptr_t> mapped = allocateGuarded(bytes, kAllocationAlignment);
    if (!mapped) return mapped.status();
    address = *mapped;
  } else {
    void* memory = std::aligned_alloc(kAllocationAlignment, (bytes + kAllocationAlignment - 1) &
                                                                ~(kAllocationAlignment - 1));
    if (!memory)
      return Status(TCPU_ERROR_OUT_OF_MEMORY, concat("cannot allocate bytesize=", bytes, " bytes"));
    address = reinterpret_cast<uintptr_t>(memory);
  }
  std::unique_lock lock(mutex_);
  // Registered ranges the new memory overlaps were freed without being unregistered: the
  // memory is the allocation's now.
  auto it = firstEndingAfter(buffers_, address);
  while (it != buffers_.end() && it->first < address + bytes)
    it = it->second.registered ? buffers_.erase(it) : std::next(it);
  buffers_.insert_or_assign(address, Entry{bytes, false, guarded});
  return address;
}

Status MemoryMap::release(uintptr_t address) {
  Entry entry{};
  {
    std::unique_lock lock(mutex_);
    auto it = buffers_.find(address);
    if (it == buffers_.end() || it->second.registered)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("dptr=0x", std::hex, address,
                           " is not the start of a live tcpuMemAlloc allocation"));
    entry = it->second;
    buffers_.erase(it);
  }
  if (entry.guarded)
    releaseGuarded(address, entry.size, kAllocationAlignment);
  else
    std::free(reinterpret_cast<void*>(address));
  return {};
}

std::map<uintptr_t, MemoryMap::Entry>::const_iterator MemoryMap::holding(uintptr_t address) const {
  auto it = firstEndingAfter(buffers_, address);
  return it != buffers_.end() && it->first <= address ? it : buffers_.end();
}

Status MemoryMap::checkRange(uintptr_t address, size_t bytes, const char* what) const {
  std::shared_lock lock(mutex_);
  auto it = holding(address);
  if (it != buffers_.end() && !it->second.registered) {
    const uintptr_t start = it->first;
    const size_t size = it->second.size;
    if (bytes <= size - (address - start)) return {};
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat(what, "=0x", std::hex, address, std::dec, " + ", bytes,
                         " bytes runs past the end of its allocation (", size, " bytes at 0x",
                         std::hex, start, ")"));
  }
  return Status(TCPU_ERROR_INVALID_VALUE,
                concat(what, "=0x", std::hex, address, " is not inside a tcpuMemAlloc allocation"));
}

Status MemoryMap::registerHost(uintptr_t address, size_t bytes) {
  if (address == 0) return Status(TCPU_ERROR_INVALID_VALUE, "p is NULL");
  if (bytes == 0) return Status(TCPU_ERROR_INVALID_VALUE, "bytesize is 0");
  if (bytes > UINTPTR_MAX - address)
    return Status(TCPU_ERROR_INVALID_VALUE, concat("p=0x", std::hex, address, std::dec, " + ",
                                                   bytes, " bytes wraps around the address space"));
  std::unique_lock lock(mutex_);
  auto it = firstEndingAfter(buffers_, address);
  if (it != buffers_.end() && it->first < address + bytes)
    return Status(TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                  concat("p=0x", std::hex, address, std::dec, " + ", bytes, " bytes overlaps the ",
                         it->second.registered ? "registered range" : "allocation", " of ",
                         it->second.size, " bytes at 0x", std::hex, it->first));
  buffers_.emplace(address, Entry{bytes, true, false});
  return {};
}

Status MemoryMap::unregisterHost(uintptr_t address) {
  std::unique_lock lock(mutex_);
  auto it = buffers_.find(address);
  if (it == buffers_.end() || !it->second.registered)
    return Status(TCPU_ERROR_HOST_MEMORY_NOT_REGISTERED,
                  concat("p=0x", std::hex, address,
                         " is not the start of a range registered with tcpuMemHostRegister"));
  buffers_.erase(it);
  return {};
}

std::optional<Extent> MemoryMap::find(uintptr_t address) const {
  std::shared_lock lock(mutex_);
  auto it = holding(address);
  if (it == buffers_.end()) return std::nullopt;
  return Extent{it->first, it->second.size, it->second.registered};
}

} // namespace tcpu::detail
