#include "cuda/cuda_driver.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace tcpu::detail::cuda {
namespace {

struct LoadedDriver {
  const DriverApi* api = nullptr;
  Status failure;
};

tcpuResult translate(CUresult result);

Status describe(const DriverApi* api, CUresult result, const char* call) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api) {
    api->getErrorName(result, &name);
    api->getErrorString(result, &text);
  }
  return Status(translate(result), concat(call, ": ", name ? name : "CUDA error", " (", result,
                                          text ? concat(": ", text) : std::string(), ")"));
}

template <class Function>
bool resolve(void* library, const char* symbol, Function& function, std::string& missing) {
  function = reinterpret_cast<Function>(dlsym(library, symbol));
  if (!function) missing += concat(missing.empty() ? "" : ", ", symbol);
  return function != nullptr;
}

LoadedDriver loadDriver() {
  const char* configured = std::getenv("TCPU_CUDA_DRIVER");
  const std::string path = configured && *configured ? configured : "libcuda.so.1";
  // Never unloaded: CUDA's own threads and atexit handlers live in it.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* reason = dlerror();
    return {nullptr,
            Status(TCPU_ERROR_NO_DEVICE,
                   concat("no CUDA driver: dlopen(\"", path, "\") failed (", reason ? reason : "?",
                          "); the CUDA backend needs an NVIDIA driver (libcuda.so.1)"))};
  }
  static DriverApi api{};
  std::string missing;
  resolve(library, "cuInit", api.init, missing);
  resolve(library, "cuDriverGetVersion", api.driverGetVersion, missing);
  resolve(library, "cuGetErrorName", api.getErrorName, missing);
  resolve(library, "cuGetErrorString", api.getErrorString, missing);
  resolve(library, "cuDeviceGetCount", api.deviceGetCount, missing);
  resolve(library, "cuDeviceGet", api.deviceGet, missing);
  resolve(library, "cuDeviceGetName", api.deviceGetName, missing);
  resolve(library, "cuDeviceGetAttribute", api.deviceGetAttribute, missing);
  resolve(library, "cuDevicePrimaryCtxRetain", api.primaryCtxRetain, missing);
  resolve(library, "cuDevicePrimaryCtxRelease_v2", api.primaryCtxRelease, missing);
  resolve(library, "cuCtxSetCurrent", api.ctxSetCurrent, missing);
  resolve(library, "cuCtxSynchronize", api.ctxSynchronize, missing);
  resolve(library, "cuModuleLoadData", api.moduleLoadData, missing);
  resolve(library, "cuModuleUnload", api.moduleUnload, missing);
  resolve(library, "cuModuleGetFunction", api.moduleGetFunction, missing);
  resolve(library, "cuLaunchKernel", api.launchKernel, missing);
  resolve(library, "cuMemAlloc_v2", api.memAlloc, missing);
  resolve(library, "cuMemFree_v2", api.memFree, missing);
  resolve(library, "cuMemcpyHtoD_v2", api.memcpyHtoD, missing);
  resolve(library, "cuMemcpyDtoH_v2", api.memcpyDtoH, missing);
  resolve(library, "cuMemcpyDtoD_v2", api.memcpyDtoD, missing);
  resolve(library, "cuMemcpyHtoDAsync_v2", api.memcpyHtoDAsync, missing);
  resolve(library, "cuMemcpyDtoHAsync_v2", api.memcpyDtoHAsync, missing);
  resolve(library, "cuMemsetD8_v2", api.memsetD8, missing);
  resolve(library, "cuMemsetD32_v2", api.memsetD32, missing);
  resolve(library, "cuMemHostRegister_v2", api.memHostRegister, missing);
  resolve(library, "cuMemHostUnregister", api.memHostUnregister, missing);
  resolve(library, "cuPointerGetAttribute", api.pointerGetAttribute, missing);
  resolve(library, "cuStreamCreate", api.streamCreate, missing);
  resolve(library, "cuStreamDestroy_v2", api.streamDestroy, missing);
  resolve(library, "cuStreamSynchronize", api.streamSynchronize, missing);
  resolve(library, "cuStreamQuery", api.streamQuery, missing);
  resolve(library, "cuStreamWaitEvent", api.streamWaitEvent, missing);
  resolve(library, "cuEventCreate", api.eventCreate, missing);
  resolve(library, "cuEventDestroy_v2", api.eventDestroy, missing);
  resolve(library, "cuEventRecord", api.eventRecord, missing);
  resolve(library, "cuEventQuery", api.eventQuery, missing);
  resolve(library, "cuEventSynchronize", api.eventSynchronize, missing);
  resolve(library, "cuEventElapsedTime", api.eventElapsedTime, missing);
  if (!missing.empty())
    return {nullptr, Status(TCPU_ERROR_NO_DEVICE,
                            concat("the CUDA driver '", path, "' is too old: it lacks ", missing,
                                   " (tcpu needs CUDA 11 or later)"))};
  if (const CUresult result = api.init(0); result != kSuccess) {
    return {nullptr, Status(TCPU_ERROR_NO_DEVICE, describe(&api, result, "cuInit").message())};
  }
  return {&api, Status()};
}

// The answer of loadDriver, computed once by the first caller (the driver cannot appear later in
// a process); never destroyed, as the library stays loaded.
const LoadedDriver& loadedDriver() {
  static const LoadedDriver* const loaded = new LoadedDriver(loadDriver());
  return *loaded;
}

tcpuResult translate(CUresult result) {
  switch (result) {
  case 1:   // INVALID_VALUE
  case 2:   // OUT_OF_MEMORY
  case 3:   // NOT_INITIALIZED
  case 100: // NO_DEVICE
  case 101: // INVALID_DEVICE
  case 200: // INVALID_IMAGE
  case 201: // INVALID_CONTEXT
  case 300: // INVALID_SOURCE
  case 301: // FILE_NOT_FOUND
  case 304: // OPERATING_SYSTEM
  case 400: // INVALID_HANDLE
  case 500: // NOT_FOUND
  case 600: // NOT_READY
  case 700: // ILLEGAL_ADDRESS
  case 710: // ASSERT
  case 712: // HOST_MEMORY_ALREADY_REGISTERED
  case 713: // HOST_MEMORY_NOT_REGISTERED
  case 719: // LAUNCH_FAILED
  case 800: // NOT_PERMITTED
  case 801: // NOT_SUPPORTED
    return static_cast<tcpuResult>(result);
  case 35: // INSUFFICIENT_DRIVER: the driver is older than the runtime it was asked for
    return TCPU_ERROR_NO_DEVICE;
  case 209: // NO_BINARY_FOR_GPU
  case 218: // INVALID_PTX
  case 221: // JIT_COMPILER_NOT_FOUND
  case 222: // UNSUPPORTED_PTX_VERSION
    return TCPU_ERROR_INVALID_IMAGE;
  default:
    return TCPU_ERROR_UNKNOWN;
  }
}

} // namespace

Expected<const DriverApi*> driver() {
  const LoadedDriver& loaded = loadedDriver();
  if (!loaded.api) return loaded.failure;
  return loaded.api;
}

Status check(CUresult result, const char* call) {
  if (result == kSuccess) return {};
  return describe(loadedDriver().api, result, call);
}

} // namespace tcpu::detail::cuda
