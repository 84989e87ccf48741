// The CPU backend's memory: 64-byte aligned host memory with known extents (optionally ending at
// a guard page), and host ranges registered so that bounds-checked kernels know their extents
// too.
#include <cstring>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "state/runtime_state.hpp"

namespace tcpu::detail {
namespace {

void* toPointer(tcpuDeviceptr address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}

// Checks the arguments, then runs `copy` now (null stream) or queues the work
// `queued()` makes (called only once the checks passed).
template <class Copy, class MakeQueued>
Status transfer(tcpuStream stream, std::initializer_list<Status> checks, Copy copy,
                MakeQueued queued) {
  for (const Status& check : checks)
    if (!check.ok()) return check;
  RuntimeState& state = runtime();
  if (!stream) {
    state.streams.waitForBlocking();
    copy();
    return {};
  }
  std::shared_ptr<Stream> queue = state.streams.find(stream);
  if (!queue)
    return Status(TCPU_ERROR_INVALID_HANDLE,
                  concat("hStream=", static_cast<const void*>(stream), " is not a live stream"));
  queue->enqueue([work = queued()] {
    work();
    return Status();
  });
  return {};
}

// Null-stream-only operations queue nothing.
template <class Copy>
Status transfer(std::initializer_list<Status> checks, Copy copy) {
  return transfer(nullptr, checks, copy, [copy] { return copy; });
}

Status hostPointer(const void* pointer, const char* what, size_t bytes) {
  if (!pointer && bytes > 0) return Status(TCPU_ERROR_INVALID_VALUE, concat(what, " is NULL"));
  return {};
}

} // namespace

Expected<tcpuDeviceptr> CpuBackend::memAlloc(size_t bytes, unsigned int flags) {
  const bool guarded = (flags & TCPU_MEMALLOC_GUARD) != 0 || runtime().settings.guardAllocations();
  Expected<uintptr_t> address = runtime().memory.allocate(bytes, guarded);
  if (!address) return address.status();
  return static_cast<tcpuDeviceptr>(*address);
}

Status CpuBackend::memFree(tcpuDeviceptr pointer) {
  runtime().streams.waitForAll();
  return runtime().memory.release(pointer);
}

Status CpuBackend::memcpyHtoD(tcpuDeviceptr dst, const void* src, size_t bytes, tcpuStream stream) {
  return transfer(
      stream,
      {hostPointer(src, "srcHost", bytes), runtime().memory.checkRange(dst, bytes, "dstDevice")},
      // memmove: "device" memory is host memory and may overlap the source.
      [=] { std::memmove(toPointer(dst), src, bytes); },
      [=] { // staged now: the caller may reuse src once this returns
        const auto* first = static_cast<const std::byte*>(src);
        return [dst, staged = std::vector<std::byte>(first, first + bytes)] {
          std::memmove(toPointer(dst), staged.data(), staged.size());
        };
      });
}

Status CpuBackend::memcpyDtoH(void* dst, tcpuDeviceptr src, size_t bytes, tcpuStream stream) {
  return transfer(
      stream,
      {hostPointer(dst, "dstHost", bytes), runtime().memory.checkRange(src, bytes, "srcDevice")},
      [=] { std::memmove(dst, toPointer(src), bytes); },
      [=] { return [=] { std::memmove(dst, toPointer(src), bytes); }; });
}

Status CpuBackend::memcpyDtoD(tcpuDeviceptr dst, tcpuDeviceptr src, size_t bytes) {
  return transfer({runtime().memory.checkRange(dst, bytes, "dstDevice"),
                   runtime().memory.checkRange(src, bytes, "srcDevice")},
                  [=] { std::memmove(toPointer(dst), toPointer(src), bytes); });
}

Status CpuBackend::memsetD8(tcpuDeviceptr dst, unsigned char value, size_t count) {
  return transfer({runtime().memory.checkRange(dst, count, "dstDevice")},
                  [=] { std::memset(toPointer(dst), value, count); });
}

Status CpuBackend::memsetD32(tcpuDeviceptr dst, unsigned int value, size_t count) {
  if (dst % 4 != 0)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("dstDevice=0x", std::hex, dst, " is not 4-byte aligned"));
  if (count > SIZE_MAX / 4)
    return Status(TCPU_ERROR_INVALID_VALUE, concat("n=", count, " overflows the byte count"));
  return transfer({runtime().memory.checkRange(dst, count * 4, "dstDevice")}, [=] {
    auto* words = static_cast<uint32_t*>(toPointer(dst));
    for (size_t i = 0; i < count; ++i)
      words[i] = value;
  });
}

Status CpuBackend::hostRegister(void* pointer, size_t bytes, unsigned int /*flags*/) {
  return runtime().memory.registerHost(reinterpret_cast<uintptr_t>(pointer), bytes);
}

Status CpuBackend::hostUnregister(void* pointer) {
  return runtime().memory.unregisterHost(reinterpret_cast<uintptr_t>(pointer));
}

} // namespace tcpu::detail
