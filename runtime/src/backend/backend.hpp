// A backend: what a context does with the API's calls once the arguments every backend shares
// are checked. The CPU (cpu/) and an NVIDIA GPU (cuda/) implement it; api/ calls through it and
// never asks which one it has. The choice is made once: a context holds its backend, a module
// the backend it was loaded on, and a launch goes to its function's module's backend with one
// indirect call.
//
// Failures are Status values whose message the API entry point prefixes with its own name
// ("tcpuMemFree: " + message), so a backend's messages read as the detail of that call.
#ifndef TCPU_SRC_BACKEND_BACKEND_HPP
#define TCPU_SRC_BACKEND_BACKEND_HPP

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "state/objects.hpp"
#include "tcpu/module_loader.hpp"
#include "tcpu/tcpu.h"

namespace tcpu::detail {

class Backend {
public:
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  virtual ~Backend() = default;

  virtual tcpuBackend kind() const = 0;
  // tcpuCtxGetName's text: "CPU (<model>)", "CUDA device 0 (NVIDIA H100 ..., sm_90, ...)".
  virtual std::string description() const = 0;
  // The context as messages name it: "the CPU context", or the GPU's description.
  virtual std::string nameInMessages() const = 0;
  // Whether the backend is the process's own (the CPU's runtime state) rather than the
  // context's: destroying such a context unloads and frees nothing.
  virtual bool sharedByProcess() const = 0;
  // Releases what the context holds; its modules were unloaded first.
  virtual Status destroy() = 0;
  // tcpuCtxSynchronize: all work of the context finished.
  virtual Status synchronize() = 0;

  // Modules. checkImage refuses, before any loader runs, an image that is plainly another
  // backend's code; its message follows the image's name ("'k.ptx' is GPU code ...").
  virtual Status checkImage(std::span<const std::byte> bytes) const = 0;
  virtual Expected<std::unique_ptr<LoadedModule>> loadModule(const ModuleSource& source) = 0;
  // tcpuModuleLoadKernels: kernels linked into the program.
  virtual Expected<std::unique_ptr<LoadedModule>>
  loadLinkedKernels(std::span<const tcpuKernelDesc* const> kernels) = 0;
  // Whether a kernel's descriptor is one this backend's launches can read.
  virtual Status checkKernel(const tcpuKernelDesc& desc, const std::string& name,
                             const Module& module) const = 0;
  // `function`'s module was loaded on this backend's kind of context; work queued on a stream
  // keeps the function (and so its module's code) alive. The other arguments are
  // tcpuLaunchKernel's, one by one: a struct of them built in memory made the CPU launch read
  // its 32-bit fields back with 64-bit loads that store forwarding cannot serve (about 5 ns a
  // launch).
  virtual Status launch(const std::shared_ptr<Function>& function, unsigned gridDimX,
                        unsigned gridDimY, unsigned gridDimZ, unsigned blockDimX,
                        unsigned blockDimY, unsigned blockDimZ, unsigned sharedMemBytes,
                        tcpuStream stream, void** kernelParams, void** extra) = 0;

  // Memory. `flags` of memAlloc are known TCPU_MEMALLOC_* bits, those of hostRegister known
  // TCPU_MEMHOSTREGISTER_* bits.
  virtual Expected<tcpuDeviceptr> memAlloc(size_t bytes, unsigned int flags) = 0;
  virtual Status memFree(tcpuDeviceptr pointer) = 0; // never 0
  virtual Status memcpyHtoD(tcpuDeviceptr dst, const void* src, size_t bytes,
                            tcpuStream stream) = 0;
  virtual Status memcpyDtoH(void* dst, tcpuDeviceptr src, size_t bytes, tcpuStream stream) = 0;
  virtual Status memcpyDtoD(tcpuDeviceptr dst, tcpuDeviceptr src, size_t bytes) = 0;
  virtual Status memsetD8(tcpuDeviceptr dst, unsigned char value, size_t count) = 0;
  virtual Status memsetD32(tcpuDeviceptr dst, unsigned int value, size_t count) = 0;
  virtual Status hostRegister(void* pointer, size_t bytes, unsigned int flags) = 0;
  virtual Status hostUnregister(void* pointer) = 0;

  // Streams and events; `flags` are known bits.
  virtual Expected<tcpuStream> streamCreate(unsigned int flags) = 0;
  virtual Status streamDestroy(tcpuStream stream) = 0;
  virtual Status streamSynchronize(tcpuStream stream) = 0;
  // TCPU_ERROR_NOT_READY while work is queued.
  virtual Status streamQuery(tcpuStream stream) = 0;
  virtual Status streamWaitEvent(tcpuStream stream, tcpuEvent event) = 0;
  virtual Expected<tcpuEvent> eventCreate(unsigned int flags) = 0;
  virtual Status eventRecord(tcpuEvent event, tcpuStream stream) = 0;
  virtual Status eventQuery(tcpuEvent event) = 0;
  virtual Status eventSynchronize(tcpuEvent event) = 0;
  virtual Status eventElapsedTime(float* milliseconds, tcpuEvent start, tcpuEvent end) = 0;
  virtual Status eventDestroy(tcpuEvent event) = 0;
};

} // namespace tcpu::detail

#endif // TCPU_SRC_BACKEND_BACKEND_HPP
