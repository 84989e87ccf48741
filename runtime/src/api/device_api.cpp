// tcpuDevice* and launch-settings entry points.
#include <omp.h>

#include <cstring>

#include "cpu/host_cpu.hpp"
#include "state/error.hpp"
#include "state/runtime_state.hpp"

using namespace tcpu;
using namespace tcpu::detail;

namespace {

Status checkDevice(tcpuDevice dev) {
  if (dev != 0)
    return Status(TCPU_ERROR_INVALID_DEVICE, concat("dev=", dev, " (the host CPU is device 0)"));
  return {};
}

// Copies `text` into a caller buffer of `len` bytes, truncating as CUDA does.
tcpuResult copyOut(const char* api, const char* what, char* buffer, int len, tcpuDevice dev,
                   const std::string& text) {
  if (!buffer) return fail(TCPU_ERROR_INVALID_VALUE, api, ": ", what, " is NULL");
  if (len <= 0) return fail(TCPU_ERROR_INVALID_VALUE, api, ": len=", len, " must be positive");
  if (Status valid = checkDevice(dev); !valid.ok())
    return fail(valid.code(), api, ": ", valid.message());
  const size_t count = std::min(text.size(), static_cast<size_t>(len - 1));
  std::memcpy(buffer, text.data(), count);
  buffer[count] = '\0';
  return TCPU_SUCCESS;
}

} // namespace

extern "C" {

tcpuResult tcpuDeviceGetCount(int* count) {
  return initializedApi("tcpuDeviceGetCount", [&] {
    if (!count) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuDeviceGetCount: count is NULL");
    *count = 1;
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuDeviceGet(tcpuDevice* device, int ordinal) {
  return initializedApi("tcpuDeviceGet", [&] {
    if (!device) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuDeviceGet: device is NULL");
    if (Status valid = checkDevice(ordinal); !valid.ok())
      return fail(valid.code(), "tcpuDeviceGet: ordinal: ", valid.message());
    *device = 0;
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuDeviceGetName(char* name, int len, tcpuDevice dev) {
  return initializedApi("tcpuDeviceGetName", [&] {
    return copyOut("tcpuDeviceGetName", "name", name, len, dev, hostCpuName());
  });
}

tcpuResult tcpuDeviceGetFeatures(char* features, int len, tcpuDevice dev) {
  return initializedApi("tcpuDeviceGetFeatures", [&] {
    return copyOut("tcpuDeviceGetFeatures", "features", features, len, dev, hostCpuFeatures());
  });
}

tcpuResult tcpuDeviceGetAttribute(int* value, tcpuDeviceAttribute attrib, tcpuDevice dev) {
  return initializedApi("tcpuDeviceGetAttribute", [&] {
    if (!value) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuDeviceGetAttribute: value is NULL");
    if (Status valid = checkDevice(dev); !valid.ok())
      return fail(valid.code(), "tcpuDeviceGetAttribute: ", valid.message());
    switch (attrib) {
    case TCPU_DEVICE_ATTRIBUTE_NUM_CORES:
      *value = omp_get_num_procs();
      return TCPU_SUCCESS;
    case TCPU_DEVICE_ATTRIBUTE_NUM_THREADS:
      *value = runtime().settings.numThreads();
      return TCPU_SUCCESS;
    case TCPU_DEVICE_ATTRIBUTE_VECTOR_BITS:
      *value = hostVectorBits();
      return TCPU_SUCCESS;
    case TCPU_DEVICE_ATTRIBUTE_MAX_SCRATCH_BYTES:
      *value = static_cast<int>(TCPU_MAX_SCRATCH_BYTES);
      return TCPU_SUCCESS;
    case TCPU_DEVICE_ATTRIBUTE_MAX_ENUM:
      break;
    }
    return fail(TCPU_ERROR_INVALID_VALUE,
                "tcpuDeviceGetAttribute: attrib=", static_cast<int>(attrib),
                " is not a tcpuDeviceAttribute");
  });
}

tcpuResult tcpuSetNumThreads(int numThreads) {
  return initializedApi("tcpuSetNumThreads", [&] {
    if (numThreads < 0 || numThreads > 4096)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuSetNumThreads: numThreads=", numThreads,
                  " (expected 1..4096, or 0 for the default)");
    runtime().settings.setNumThreads(numThreads);
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuGetNumThreads(int* numThreads) {
  return initializedApi("tcpuGetNumThreads", [&] {
    if (!numThreads) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuGetNumThreads: numThreads is NULL");
    *numThreads = runtime().settings.numThreads();
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuSetSchedule(tcpuSchedule schedule, unsigned int chunk) {
  return initializedApi("tcpuSetSchedule", [&] {
    switch (schedule) {
    case TCPU_SCHEDULE_STATIC:
    case TCPU_SCHEDULE_DYNAMIC:
    case TCPU_SCHEDULE_GUIDED:
      runtime().settings.setSchedule(schedule, chunk);
      return TCPU_SUCCESS;
    case TCPU_SCHEDULE_DEFAULT:
      runtime().settings.restoreDefaultSchedule();
      return TCPU_SUCCESS;
    case TCPU_SCHEDULE_MAX_ENUM:
      break;
    }
    return fail(TCPU_ERROR_INVALID_VALUE, "tcpuSetSchedule: schedule=", static_cast<int>(schedule),
                " is not a tcpuSchedule (static 0, dynamic 1, guided 2, default 3)");
  });
}

tcpuResult tcpuGetSchedule(tcpuSchedule* schedule, unsigned int* chunk) {
  return initializedApi("tcpuGetSchedule", [&] {
    if (!schedule || !chunk)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuGetSchedule: ", !schedule ? "schedule" : "chunk",
                  " is NULL");
    const LaunchSettings settings = runtime().settings.launchSettings();
    *schedule = settings.schedule;
    *chunk = settings.chunk;
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuSetLaunchHooks(tcpuLaunchHook enter, tcpuLaunchHook exit, void* userData) {
  return initializedApi("tcpuSetLaunchHooks", [&] {
    runtime().settings.setHooks({enter, exit, userData});
    return TCPU_SUCCESS;
  });
}

} // extern "C"
