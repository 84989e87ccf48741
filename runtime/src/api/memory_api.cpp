// tcpuMem* entry points: 64-byte aligned host memory with known extents (optionally ending at a
// guard page), and host ranges registered so that bounds-checked kernels know their extents too.
#include <cstring>
#include <vector>

#include "api/context.hpp"
#include "state/error.hpp"
#include "state/runtime_state.hpp"

using namespace tcpu;
using namespace tcpu::detail;

namespace {

void* toPointer(tcpuDeviceptr address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}

// Checks the arguments, then runs `copy` now (null stream) or queues the work
// `queued()` makes (called only once the checks passed).
template <class Copy, class MakeQueued>
tcpuResult transfer(const char* api, tcpuStream stream, std::initializer_list<Status> checks,
                    Copy copy, MakeQueued queued) {
  for (const Status& check : checks)
    if (!check.ok()) return fail(check.code(), api, ": ", check.message());
  RuntimeState& state = runtime();
  if (!stream) {
    state.streams.waitForBlocking();
    copy();
    return TCPU_SUCCESS;
  }
  std::shared_ptr<Stream> queue = state.streams.find(stream);
  if (!queue)
    return fail(TCPU_ERROR_INVALID_HANDLE, api, ": hStream=", static_cast<const void*>(stream),
                " is not a live stream");
  queue->enqueue([work = queued()] {
    work();
    return Status();
  });
  return TCPU_SUCCESS;
}

// Null-stream-only operations queue nothing.
template <class Copy>
tcpuResult transfer(const char* api, std::initializer_list<Status> checks, Copy copy) {
  return transfer(api, nullptr, checks, copy, [copy] { return copy; });
}

Status hostPointer(const void* pointer, const char* what, size_t bytes) {
  if (!pointer && bytes > 0) return Status(TCPU_ERROR_INVALID_VALUE, concat(what, " is NULL"));
  return {};
}

// tcpuMemAlloc and tcpuMemAllocEx, errors named after `api`.
tcpuResult allocate(const char* api, tcpuDeviceptr* dptr, size_t bytesize, unsigned int flags) {
  return initializedApi(api, [&] {
    if (!dptr) return fail(TCPU_ERROR_INVALID_VALUE, api, ": dptr is NULL");
    if ((flags & ~unsigned{TCPU_MEMALLOC_GUARD}) != 0)
      return fail(TCPU_ERROR_INVALID_VALUE, api, ": flags=0x", std::hex, flags,
                  " has bits other than TCPU_MEMALLOC_GUARD");
    if (std::shared_ptr<CudaContext> cuda = currentCuda()) {
      Expected<tcpuDeviceptr> allocated = cuda->memAlloc(bytesize);
      if (!allocated) return reportAs(api, allocated.status());
      *dptr = *allocated;
      return TCPU_SUCCESS;
    }
    const bool guarded =
        (flags & TCPU_MEMALLOC_GUARD) != 0 || runtime().settings.guardAllocations();
    Expected<uintptr_t> address = runtime().memory.allocate(bytesize, guarded);
    if (!address) return fail(address.status().code(), api, ": ", address.status().message());
    *dptr = *address;
    return TCPU_SUCCESS;
  });
}

} // namespace

extern "C" {

tcpuResult tcpuMemAlloc(tcpuDeviceptr* dptr, size_t bytesize) {
  return allocate("tcpuMemAlloc", dptr, bytesize, TCPU_MEMALLOC_DEFAULT);
}

tcpuResult tcpuMemAllocEx(tcpuDeviceptr* dptr, size_t bytesize, unsigned int flags) {
  return allocate("tcpuMemAllocEx", dptr, bytesize, flags);
}

tcpuResult tcpuMemFree(tcpuDeviceptr dptr) {
  return initializedApi("tcpuMemFree", [&] {
    if (dptr == 0) return TCPU_SUCCESS; // as free(NULL)
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuMemFree", cuda->memFree(dptr));
    runtime().streams.waitForAll();
    Status released = runtime().memory.release(dptr);
    return released.ok() ? TCPU_SUCCESS
                         : fail(released.code(), "tcpuMemFree: ", released.message());
  });
}

tcpuResult tcpuMemcpyHtoD(tcpuDeviceptr dstDevice, const void* srcHost, size_t byteCount) {
  return tcpuMemcpyHtoDAsync(dstDevice, srcHost, byteCount, nullptr);
}

tcpuResult tcpuMemcpyDtoH(void* dstHost, tcpuDeviceptr srcDevice, size_t byteCount) {
  return tcpuMemcpyDtoHAsync(dstHost, srcDevice, byteCount, nullptr);
}

tcpuResult tcpuMemcpyHtoDAsync(tcpuDeviceptr dstDevice, const void* srcHost, size_t byteCount,
                               tcpuStream hStream) {
  return initializedApi("tcpuMemcpyHtoD", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuMemcpyHtoD", cuda->memcpyHtoD(dstDevice, srcHost, byteCount, hStream));
    return transfer(
        "tcpuMemcpyHtoD", hStream,
        {hostPointer(srcHost, "srcHost", byteCount),
         runtime().memory.checkRange(dstDevice, byteCount, "dstDevice")},
        // memmove: "device" memory is host memory and may overlap the source.
        [=] { std::memmove(toPointer(dstDevice), srcHost, byteCount); },
        [=] { // staged now: the caller may reuse srcHost once this returns
          const auto* bytes = static_cast<const std::byte*>(srcHost);
          return [dstDevice, staged = std::vector<std::byte>(bytes, bytes + byteCount)] {
            std::memmove(toPointer(dstDevice), staged.data(), staged.size());
          };
        });
  });
}

tcpuResult tcpuMemcpyDtoHAsync(void* dstHost, tcpuDeviceptr srcDevice, size_t byteCount,
                               tcpuStream hStream) {
  return initializedApi("tcpuMemcpyDtoH", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuMemcpyDtoH", cuda->memcpyDtoH(dstHost, srcDevice, byteCount, hStream));
    return transfer(
        "tcpuMemcpyDtoH", hStream,
        {hostPointer(dstHost, "dstHost", byteCount),
         runtime().memory.checkRange(srcDevice, byteCount, "srcDevice")},
        [=] { std::memmove(dstHost, toPointer(srcDevice), byteCount); },
        [=] { return [=] { std::memmove(dstHost, toPointer(srcDevice), byteCount); }; });
  });
}

tcpuResult tcpuMemcpyDtoD(tcpuDeviceptr dstDevice, tcpuDeviceptr srcDevice, size_t byteCount) {
  return initializedApi("tcpuMemcpyDtoD", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuMemcpyDtoD", cuda->memcpyDtoD(dstDevice, srcDevice, byteCount));
    return transfer("tcpuMemcpyDtoD",
                    {runtime().memory.checkRange(dstDevice, byteCount, "dstDevice"),
                     runtime().memory.checkRange(srcDevice, byteCount, "srcDevice")},
                    [=] { std::memmove(toPointer(dstDevice), toPointer(srcDevice), byteCount); });
  });
}

tcpuResult tcpuMemsetD8(tcpuDeviceptr dstDevice, unsigned char uc, size_t n) {
  return initializedApi("tcpuMemsetD8", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuMemsetD8", cuda->memsetD8(dstDevice, uc, n));
    return transfer("tcpuMemsetD8", {runtime().memory.checkRange(dstDevice, n, "dstDevice")},
                    [=] { std::memset(toPointer(dstDevice), uc, n); });
  });
}

tcpuResult tcpuMemsetD32(tcpuDeviceptr dstDevice, unsigned int ui, size_t n) {
  return initializedApi("tcpuMemsetD32", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuMemsetD32", cuda->memsetD32(dstDevice, ui, n));
    if (dstDevice % 4 != 0)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuMemsetD32: dstDevice=0x", std::hex, dstDevice,
                  " is not 4-byte aligned");
    if (n > SIZE_MAX / 4)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuMemsetD32: n=", n, " overflows the byte count");
    return transfer("tcpuMemsetD32", {runtime().memory.checkRange(dstDevice, n * 4, "dstDevice")},
                    [=] {
                      auto* words = static_cast<uint32_t*>(toPointer(dstDevice));
                      for (size_t i = 0; i < n; ++i)
                        words[i] = ui;
                    });
  });
}

tcpuResult tcpuMemHostRegister(void* p, size_t bytesize, unsigned int flags) {
  return initializedApi("tcpuMemHostRegister", [&] {
    constexpr unsigned kKnownFlags = TCPU_MEMHOSTREGISTER_PORTABLE | TCPU_MEMHOSTREGISTER_DEVICEMAP;
    if ((flags & ~kKnownFlags) != 0)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuMemHostRegister: flags=0x", std::hex, flags,
                  " has bits other than TCPU_MEMHOSTREGISTER_PORTABLE and _DEVICEMAP");
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuMemHostRegister", cuda->hostRegister(p, bytesize, flags));
    Status registered = runtime().memory.registerHost(reinterpret_cast<uintptr_t>(p), bytesize);
    return registered.ok() ? TCPU_SUCCESS
                           : fail(registered.code(), "tcpuMemHostRegister: ", registered.message());
  });
}

tcpuResult tcpuMemHostUnregister(void* p) {
  return initializedApi("tcpuMemHostUnregister", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuMemHostUnregister", cuda->hostUnregister(p));
    Status removed = runtime().memory.unregisterHost(reinterpret_cast<uintptr_t>(p));
    return removed.ok() ? TCPU_SUCCESS
                        : fail(removed.code(), "tcpuMemHostUnregister: ", removed.message());
  });
}

} // extern "C"
