// tcpuMem* entry points: the flags checked here, the memory the current context's backend's
// (cpu/cpu_memory.cpp on the CPU).
#include "api/context.hpp"
#include "state/error.hpp"

using namespace tcpu;
using namespace tcpu::detail;

namespace {

// tcpuMemAlloc and tcpuMemAllocEx, errors named after `api`.
tcpuResult allocate(const char* api, tcpuDeviceptr* dptr, size_t bytesize, unsigned int flags) {
  return initializedApi(api, [&] {
    if (!dptr) return fail(TCPU_ERROR_INVALID_VALUE, api, ": dptr is NULL");
    if ((flags & ~unsigned{TCPU_MEMALLOC_GUARD}) != 0)
      return fail(TCPU_ERROR_INVALID_VALUE, api, ": flags=0x", std::hex, flags,
                  " has bits other than TCPU_MEMALLOC_GUARD");
    Expected<tcpuDeviceptr> allocated = currentBackend()->memAlloc(bytesize, flags);
    if (!allocated) return reportAs(api, allocated.status());
    *dptr = *allocated;
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
    return reportAs("tcpuMemFree", currentBackend()->memFree(dptr));
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
    return reportAs("tcpuMemcpyHtoD",
                    currentBackend()->memcpyHtoD(dstDevice, srcHost, byteCount, hStream));
  });
}

tcpuResult tcpuMemcpyDtoHAsync(void* dstHost, tcpuDeviceptr srcDevice, size_t byteCount,
                               tcpuStream hStream) {
  return initializedApi("tcpuMemcpyDtoH", [&] {
    return reportAs("tcpuMemcpyDtoH",
                    currentBackend()->memcpyDtoH(dstHost, srcDevice, byteCount, hStream));
  });
}

tcpuResult tcpuMemcpyDtoD(tcpuDeviceptr dstDevice, tcpuDeviceptr srcDevice, size_t byteCount) {
  return initializedApi("tcpuMemcpyDtoD", [&] {
    return reportAs("tcpuMemcpyDtoD",
                    currentBackend()->memcpyDtoD(dstDevice, srcDevice, byteCount));
  });
}

tcpuResult tcpuMemsetD8(tcpuDeviceptr dstDevice, unsigned char uc, size_t n) {
  return initializedApi("tcpuMemsetD8", [&] {
    return reportAs("tcpuMemsetD8", currentBackend()->memsetD8(dstDevice, uc, n));
  });
}

tcpuResult tcpuMemsetD32(tcpuDeviceptr dstDevice, unsigned int ui, size_t n) {
  return initializedApi("tcpuMemsetD32", [&] {
    return reportAs("tcpuMemsetD32", currentBackend()->memsetD32(dstDevice, ui, n));
  });
}

tcpuResult tcpuMemHostRegister(void* p, size_t bytesize, unsigned int flags) {
  return initializedApi("tcpuMemHostRegister", [&] {
    constexpr unsigned kKnownFlags = TCPU_MEMHOSTREGISTER_PORTABLE | TCPU_MEMHOSTREGISTER_DEVICEMAP;
    if ((flags & ~kKnownFlags) != 0)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuMemHostRegister: flags=0x", std::hex, flags,
                  " has bits other than TCPU_MEMHOSTREGISTER_PORTABLE and _DEVICEMAP");
    return reportAs("tcpuMemHostRegister", currentBackend()->hostRegister(p, bytesize, flags));
  });
}

tcpuResult tcpuMemHostUnregister(void* p) {
  return initializedApi("tcpuMemHostUnregister", [&] {
    return reportAs("tcpuMemHostUnregister", currentBackend()->hostUnregister(p));
  });
}

} // extern "C"
