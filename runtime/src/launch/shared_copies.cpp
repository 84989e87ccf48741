// tcpuKernelSharedCopy and tcpuKernelSharedCopyFilled: the copies of read-only blocks that the
// programs of one launch share (shared_copies.hpp).
#include "launch/shared_copies.hpp"

#include <cstdlib>
#include <functional>
#include <new>

#include "launch/kernel_services.hpp"
#include "tcpu/kernel_abi.h"

namespace tcpu::detail {
namespace {

// Each copy's state word sits in the cache line before its rows, so that filled() needs no
// lookup: 0 while its first finder fills it, 1 once it holds the rows.
constexpr size_t kHeaderBytes = 64;

std::atomic<uint32_t>& stateOf(void* copy) {
  return *reinterpret_cast<std::atomic<uint32_t>*>(static_cast<unsigned char*>(copy) -
                                                   kHeaderBytes);
}

} // namespace

size_t SharedCopies::KeyHash::operator()(const Key& key) const {
  const auto mix = [](size_t seed, size_t value) {
    return seed ^ (value + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2));
  };
  size_t hash = std::hash<const void*>()(key.source);
  hash = mix(hash, static_cast<size_t>(key.rowStride));
  return mix(hash, (size_t{key.rows} << 32) | key.rowBytes);
}

void SharedCopies::FreeDeleter::operator()(void* p) const {
  std::free(p);
}

void* SharedCopies::find(const void* source, int64_t rowStride, uint32_t rows, uint32_t rowBytes,
                         uint32_t* fill) {
  const Key key{source, rowStride, rows, rowBytes};
  const uint64_t bytes = (uint64_t{rows} * rowBytes + 63) / 64 * 64;
  std::lock_guard lock(mutex_);
  if (auto found = copies_.find(key); found != copies_.end()) {
    void* copy = found->second.get() + kHeaderBytes;
    if (stateOf(copy).load(std::memory_order_acquire) == 0) return nullptr; // being filled
    *fill = 0;
    return copy;
  }
  if (bytes_ + bytes > kCapacityBytes) return nullptr;
  Buffer buffer(static_cast<unsigned char*>(std::aligned_alloc(64, kHeaderBytes + bytes)));
  if (!buffer) return nullptr;
  void* copy = buffer.get() + kHeaderBytes;
  new (buffer.get()) std::atomic<uint32_t>(0);
  copies_.emplace(key, std::move(buffer));
  bytes_ += bytes;
  *fill = 1;
  return copy;
}

void SharedCopies::filled(void* copy) {
  stateOf(copy).store(1, std::memory_order_release);
}

} // namespace tcpu::detail

extern "C" TCPU_API void* tcpuKernelSharedCopy(const void* source, int64_t rowStride, uint32_t rows,
                                               uint32_t rowBytes, uint32_t* fill) {
  const tcpu::detail::LaunchContext* launch = tcpu::detail::currentLaunch();
  if (!launch || !launch->sharedCopies || !fill || rows == 0 || rowBytes == 0) return nullptr;
  return launch->sharedCopies->find(source, rowStride, rows, rowBytes, fill);
}

extern "C" TCPU_API void tcpuKernelSharedCopyFilled(void* copy) {
  if (copy) tcpu::detail::SharedCopies::filled(copy);
}
