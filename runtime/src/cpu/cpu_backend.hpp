// The CPU backend: the host's cores, and the process-wide runtime state (state/runtime_state.hpp)
// as its one context. Modules come from the loader registry, a launch runs its grid on
// launch/'s grid runner, memory is host memory that memory/ keeps the extents of, and streams
// and events are state/'s.
#ifndef TCPU_SRC_CPU_CPU_BACKEND_HPP
#define TCPU_SRC_CPU_CPU_BACKEND_HPP

#include <memory>

#include "backend/backend.hpp"

namespace tcpu::detail {

class CpuBackend final : public Backend {
public:
  tcpuBackend kind() const override { return TCPU_BACKEND_CPU; }
  std::string description() const override;
  std::string nameInMessages() const override { return "the CPU context"; }
  bool sharedByProcess() const override { return true; }
  Status destroy() override { return {}; }
  Status synchronize() override;

  Status checkImage(std::span<const std::byte> bytes) const override;
  Expected<std::unique_ptr<LoadedModule>> loadModule(const ModuleSource& source) override;
  Expected<std::unique_ptr<LoadedModule>>
  loadLinkedKernels(std::span<const tcpuKernelDesc* const> kernels) override;
  Status checkKernel(const tcpuKernelDesc& desc, const std::string& name,
                     const Module& module) const override;
  Status launch(const std::shared_ptr<Function>& function, unsigned gridDimX, unsigned gridDimY,
                unsigned gridDimZ, unsigned blockDimX, unsigned blockDimY, unsigned blockDimZ,
                unsigned sharedMemBytes, tcpuStream stream, void** kernelParams,
                void** extra) override; // cpu_launch.cpp

  // cpu_memory.cpp
  Expected<tcpuDeviceptr> memAlloc(size_t bytes, unsigned int flags) override;
  Status memFree(tcpuDeviceptr pointer) override;
  Status memcpyHtoD(tcpuDeviceptr dst, const void* src, size_t bytes, tcpuStream stream) override;
  Status memcpyDtoH(void* dst, tcpuDeviceptr src, size_t bytes, tcpuStream stream) override;
  Status memcpyDtoD(tcpuDeviceptr dst, tcpuDeviceptr src, size_t bytes) override;
  Status memsetD8(tcpuDeviceptr dst, unsigned char value, size_t count) override;
  Status memsetD32(tcpuDeviceptr dst, unsigned int value, size_t count) override;
  Status hostRegister(void* pointer, size_t bytes, unsigned int flags) override;
  Status hostUnregister(void* pointer) override;

  // cpu_streams.cpp
  Expected<tcpuStream> streamCreate(unsigned int flags) override;
  Status streamDestroy(tcpuStream stream) override;
  Status streamSynchronize(tcpuStream stream) override;
  Status streamQuery(tcpuStream stream) override;
  Status streamWaitEvent(tcpuStream stream, tcpuEvent event) override;
  Expected<tcpuEvent> eventCreate(unsigned int flags) override;
  Status eventRecord(tcpuEvent event, tcpuStream stream) override;
  Status eventQuery(tcpuEvent event) override;
  Status eventSynchronize(tcpuEvent event) override;
  Status eventElapsedTime(float* milliseconds, tcpuEvent start, tcpuEvent end) override;
  Status eventDestroy(tcpuEvent event) override;
};

// The one CPU backend, created on first use and never destroyed (as the runtime state it uses:
// streams may still run work while static destructors run at exit). Inline: every launch on the
// CPU context asks for it.
inline const std::shared_ptr<Backend>& cpuBackend() {
  static const auto* const backend = new std::shared_ptr<Backend>(std::make_shared<CpuBackend>());
  return *backend;
}

} // namespace tcpu::detail

#endif // TCPU_SRC_CPU_CPU_BACKEND_HPP
