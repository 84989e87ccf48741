// The CUDA driver API, loaded at run time: tcpu builds and runs on machines without CUDA, so
// nothing links libcuda; the CUDA backend finds libcuda.so.1 with dlopen on first use and
// resolves the entry points it calls. The few CUDA types used are declared here, as the
// driver's ABI defines them, so that no CUDA header is needed to build.
#ifndef TCPU_SRC_CUDA_DRIVER_HPP
#define TCPU_SRC_CUDA_DRIVER_HPP

#include <cstddef>
#include <cstdint>
#include <string>

#include "tcpu/status.hpp"

namespace tcpu::detail::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;

constexpr CUresult kSuccess = 0;
constexpr int kAttributeComputeCapabilityMajor = 75;
constexpr int kAttributeComputeCapabilityMinor = 76;
constexpr int kPointerAttributeContext = 1;

// Entry points, by the versioned names the driver exports (cuMemAlloc is cuMemAlloc_v2).
struct DriverApi {
  CUresult (*init)(unsigned int);
  CUresult (*driverGetVersion)(int*);
  CUresult (*getErrorName)(CUresult, const char**);
  CUresult (*getErrorString)(CUresult, const char**);
  CUresult (*deviceGetCount)(int*);
  CUresult (*deviceGet)(CUdevice*, int);
  CUresult (*deviceGetName)(char*, int, CUdevice);
  CUresult (*deviceGetAttribute)(int*, int, CUdevice);
  CUresult (*primaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*primaryCtxRelease)(CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*ctxSynchronize)();
  CUresult (*moduleLoadData)(CUmodule*, const void*);
  CUresult (*moduleUnload)(CUmodule);
  CUresult (*moduleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, CUstream, void**, void**);
  CUresult (*memAlloc)(CUdeviceptr*, size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*memcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*memcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*memcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*memcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream);
  CUresult (*memcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream);
  CUresult (*memsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*memsetD32)(CUdeviceptr, unsigned int, size_t);
  CUresult (*memHostRegister)(void*, size_t, unsigned int);
  CUresult (*memHostUnregister)(void*);
  CUresult (*pointerGetAttribute)(void*, int, CUdeviceptr);
  CUresult (*streamCreate)(CUstream*, unsigned int);
  CUresult (*streamDestroy)(CUstream);
  CUresult (*streamSynchronize)(CUstream);
  CUresult (*streamQuery)(CUstream);
  CUresult (*streamWaitEvent)(CUstream, CUevent, unsigned int);
  CUresult (*eventCreate)(CUevent*, unsigned int);
  CUresult (*eventDestroy)(CUevent);
  CUresult (*eventRecord)(CUevent, CUstream);
  CUresult (*eventQuery)(CUevent);
  CUresult (*eventSynchronize)(CUevent);
  CUresult (*eventElapsedTime)(float*, CUevent, CUevent);
};

// The driver, loaded and initialized (cuInit) once per process. The library is
// TCPU_CUDA_DRIVER when set (tests point it at a missing file), else libcuda.so.1. No driver, a
// driver without an entry point tcpu needs (older than CUDA 11), or a failing cuInit is
// TCPU_ERROR_NO_DEVICE saying which; the answer is kept for the life of the process.
Expected<const DriverApi*> driver();

// A CUDA result as a Status: `call` failed with CUDA's name and description, e.g.
// "cuModuleLoadData: CUDA_ERROR_INVALID_PTX (218: a PTX JIT compilation failed)". CUDA's codes
// that tcpu shares keep their value; image errors become TCPU_ERROR_INVALID_IMAGE, the rest
// TCPU_ERROR_UNKNOWN (CUDA's name is in the message).
Status check(CUresult result, const char* call);

} // namespace tcpu::detail::cuda

#endif // TCPU_SRC_CUDA_DRIVER_HPP
