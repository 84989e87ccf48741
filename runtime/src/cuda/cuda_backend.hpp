// The CUDA backend: a tcpu context on an NVIDIA GPU. The API calls made while such a context is
// current come here through the Backend interface (backend/backend.hpp) and map onto the CUDA
// driver (cuda_driver.hpp): modules are PTX or cubins, a launch is cuLaunchKernel with one CUDA
// block per program, memory is cuMemAlloc'd, streams and events are CUDA's. The context is the
// device's primary context (retained, so that tcpu shares the GPU with PyTorch or CuPy in the
// same process); everything tcpu created in it is released when the tcpu context is destroyed.
#ifndef TCPU_SRC_CUDA_BACKEND_HPP
#define TCPU_SRC_CUDA_BACKEND_HPP

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "backend/backend.hpp"
#include "cuda/cuda_driver.hpp"
#include "state/handle_table.hpp"

namespace tcpu::detail {

struct CudaStream {
  cuda::CUstream stream = nullptr;
};

struct CudaEvent {
  cuda::CUevent event = nullptr;
  std::atomic<bool> recorded{false};
};

class CudaContext final : public Backend, public std::enable_shared_from_this<CudaContext> {
public:
  // Retains device `ordinal`'s primary context. TCPU_ERROR_NO_DEVICE without a driver or GPU,
  // TCPU_ERROR_INVALID_DEVICE for an ordinal the driver does not have.
  static Expected<std::shared_ptr<CudaContext>> create(int ordinal);
  ~CudaContext() override;

  tcpuBackend kind() const override { return TCPU_BACKEND_CUDA; }
  // "CUDA device 0 (NVIDIA H100 80GB HBM3, sm_90)"
  std::string description() const override { return description_; }
  std::string nameInMessages() const override { return description_; }
  bool sharedByProcess() const override { return false; }
  // Destroys the streams and events, frees the memory, and releases the primary context; the
  // caller has unloaded the modules. Later calls on this context fail with
  // TCPU_ERROR_INVALID_CONTEXT.
  Status destroy() override;
  int ordinal() const { return ordinal_; }
  Status synchronize() override;

  // Every image goes to the driver's loader, which names what it is not (loadModule).
  Status checkImage(std::span<const std::byte>) const override { return {}; }
  // A PTX or cubin image; `options` must be empty or only TCPU_JIT_CACHE (the others configure
  // tcpu's LLVM compiles, which a CUDA module does not go through).
  Expected<std::unique_ptr<LoadedModule>> loadModule(const ModuleSource& source) override;
  Expected<std::unique_ptr<LoadedModule>>
  loadLinkedKernels(std::span<const tcpuKernelDesc* const> kernels) override;
  // The descriptors are this backend's own, made from the PTX (entry is null: the code is on the
  // GPU).
  Status checkKernel(const tcpuKernelDesc&, const std::string&, const Module&) const override {
    return {};
  }
  Status launch(const std::shared_ptr<Function>& function, unsigned gridDimX, unsigned gridDimY,
                unsigned gridDimZ, unsigned blockDimX, unsigned blockDimY, unsigned blockDimZ,
                unsigned sharedMemBytes, tcpuStream stream, void** kernelParams,
                void** extra) override;

  // TCPU_MEMALLOC_GUARD has no meaning on the GPU.
  Expected<tcpuDeviceptr> memAlloc(size_t bytes, unsigned int flags) override;
  Status memFree(tcpuDeviceptr pointer) override;
  Status memcpyHtoD(tcpuDeviceptr dst, const void* src, size_t bytes, tcpuStream stream) override;
  Status memcpyDtoH(void* dst, tcpuDeviceptr src, size_t bytes, tcpuStream stream) override;
  Status memcpyDtoD(tcpuDeviceptr dst, tcpuDeviceptr src, size_t bytes) override;
  Status memsetD8(tcpuDeviceptr dst, unsigned char value, size_t count) override;
  Status memsetD32(tcpuDeviceptr dst, unsigned int value, size_t count) override;
  Status hostRegister(void* pointer, size_t bytes, unsigned int flags) override;
  Status hostUnregister(void* pointer) override;

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

  // Makes this context CUDA's current one on the calling thread (every driver call needs it);
  // TCPU_ERROR_INVALID_CONTEXT once destroyed.
  Status enter() const;
  const cuda::DriverApi& api() const { return *api_; }

private:
  CudaContext(const cuda::DriverApi* api, int ordinal) : api_(api), ordinal_(ordinal) {}
  Expected<cuda::CUstream> findStream(tcpuStream stream, const char* what) const;
  Expected<std::shared_ptr<CudaEvent>> findEvent(tcpuEvent event, const char* what) const;
  // That [pointer, pointer + bytes) is device memory this context can use: inside one of its
  // allocations, or memory CUDA knows (another library's allocation in the same context).
  Status checkDeviceRange(tcpuDeviceptr pointer, size_t bytes, const char* what) const;

  const cuda::DriverApi* api_;
  const int ordinal_;
  cuda::CUdevice device_ = 0;
  cuda::CUcontext context_ = nullptr;
  std::string description_;
  std::atomic<bool> destroyed_{false};

  mutable std::mutex allocationsMutex_;
  std::map<tcpuDeviceptr, size_t> allocations_; // base -> size
  HandleTable<CudaStream, tcpuStream> streams_;
  HandleTable<CudaEvent, tcpuEvent> events_;
};

} // namespace tcpu::detail

#endif // TCPU_SRC_CUDA_BACKEND_HPP
