#include "cuda/cuda_backend.hpp"

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <vector>

#include "backend/image_kind.hpp"
#include "cuda/ptx_image.hpp"
#include "state/cancel_flag.hpp"

namespace tcpu::detail {
namespace {

using cuda::check;

constexpr unsigned kMaxGridYZ = 65535;

std::string hex(uint64_t value) {
  return concat("0x", std::hex, value);
}

// A GPU module: the driver's module, and descriptors of its kernels so that tcpuFuncGet* and the
// launch checks work as for CPU modules (entry is null: the code is on the GPU).
class CudaModule final : public LoadedModule {
public:
  CudaModule(std::shared_ptr<CudaContext> context, cuda::CUmodule module, std::string ptx,
             std::vector<PtxKernel> kernels)
      : context_(std::move(context)), module_(module), ptx_(std::move(ptx)),
        kernels_(std::move(kernels)) {
    descs_.resize(kernels_.size());
    for (size_t k = 0; k < kernels_.size(); ++k) {
      PtxKernel& kernel = kernels_[k];
      for (size_t i = 0; i < kernel.params.size(); ++i)
        kernel.params[i].name =
            kernel.paramNames[i].empty() ? nullptr : kernel.paramNames[i].c_str();
      descs_[k] =
          tcpuKernelDesc{TCPU_KERNEL_ABI_VERSION, static_cast<uint32_t>(kernel.params.size()),
                         kernel.name.c_str(),     nullptr,
                         kernel.params.data(),    0};
    }
  }
  ~CudaModule() override {
    if (context_->enter().ok()) (void)context_->api().moduleUnload(module_);
  }

  const tcpuKernelDesc* findKernel(const std::string& name) const override {
    for (size_t k = 0; k < kernels_.size(); ++k)
      if (kernels_[k].name == name) return &descs_[k];
    return nullptr;
  }
  std::vector<std::string> kernelNames() const override {
    std::vector<std::string> names;
    for (const PtxKernel& kernel : kernels_)
      names.push_back(kernel.name);
    return names;
  }
  Expected<std::string> text(tcpuModuleText kind) const override {
    if (kind == TCPU_MODULE_TEXT_ASSEMBLY && !ptx_.empty()) return ptx_;
    return Status(
        TCPU_ERROR_NOT_SUPPORTED,
        kind == TCPU_MODULE_TEXT_ASSEMBLY
            ? std::string("a cubin module has no text")
            : concat("a CUDA module has only its PTX (TCPU_MODULE_TEXT_ASSEMBLY), not text "
                     "kind ",
                     static_cast<int>(kind)));
  }

  const PtxKernel* kernel(const std::string& name) const {
    for (const PtxKernel& kernel : kernels_)
      if (kernel.name == name) return &kernel;
    return nullptr;
  }
  Expected<cuda::CUfunction> function(const std::string& name) const {
    std::lock_guard lock(mutex_);
    if (auto it = functions_.find(name); it != functions_.end()) return it->second;
    cuda::CUfunction function = nullptr;
    if (Status found = check(context_->api().moduleGetFunction(&function, module_, name.c_str()),
                             "cuModuleGetFunction");
        !found.ok())
      return found;
    functions_[name] = function;
    return function;
  }
  const CudaContext& context() const { return *context_; }

private:
  std::shared_ptr<CudaContext> context_;
  cuda::CUmodule module_;
  std::string ptx_;
  std::vector<PtxKernel> kernels_;
  std::vector<tcpuKernelDesc> descs_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, cuda::CUfunction> functions_;
};

// The threads of each block: what the kernel requires (.reqntid), else the caller's capped by
// the kernel's maximum (.maxntid: tl kernels declare 1, 1, 1, one thread running the program).
void blockShape(const PtxKernel* kernel, const unsigned requested[3], unsigned block[3]) {
  for (int axis = 0; axis < 3; ++axis) {
    block[axis] = requested[axis];
    if (!kernel) continue;
    if (kernel->requiredThreads[static_cast<size_t>(axis)] > 0)
      block[axis] = kernel->requiredThreads[static_cast<size_t>(axis)];
    else if (kernel->maxThreads[static_cast<size_t>(axis)] > 0)
      block[axis] = std::min(block[axis], kernel->maxThreads[static_cast<size_t>(axis)]);
  }
}

} // namespace

Expected<std::shared_ptr<CudaContext>> CudaContext::create(int ordinal) {
  Expected<const cuda::DriverApi*> api = cuda::driver();
  if (!api) return api.status();
  const cuda::DriverApi& driver = **api;
  int count = 0;
  if (Status counted = check(driver.deviceGetCount(&count), "cuDeviceGetCount"); !counted.ok())
    return Status(TCPU_ERROR_NO_DEVICE, counted.message());
  if (count == 0)
    return Status(TCPU_ERROR_NO_DEVICE, "the CUDA driver is loaded but reports no GPU");
  if (ordinal < 0 || ordinal >= count)
    return Status(TCPU_ERROR_INVALID_DEVICE,
                  concat("ordinal=", ordinal, " but the CUDA driver has ", count,
                         count == 1 ? " GPU" : " GPUs", " (0 to ", count - 1, ")"));
  std::shared_ptr<CudaContext> context(new CudaContext(*api, ordinal));
  if (Status got = check(driver.deviceGet(&context->device_, ordinal), "cuDeviceGet"); !got.ok())
    return got;
  if (Status retained = check(driver.primaryCtxRetain(&context->context_, context->device_),
                              "cuDevicePrimaryCtxRetain");
      !retained.ok())
    return retained;
  char name[256] = {};
  int major = 0;
  int minor = 0;
  int version = 0;
  (void)driver.deviceGetName(name, sizeof name - 1, context->device_);
  (void)driver.deviceGetAttribute(&major, cuda::kAttributeComputeCapabilityMajor, context->device_);
  (void)driver.deviceGetAttribute(&minor, cuda::kAttributeComputeCapabilityMinor, context->device_);
  (void)driver.driverGetVersion(&version);
  context->description_ = concat("CUDA device ", ordinal, " (", name, ", sm_", major, minor,
                                 ", driver API ", version / 1000, ".", version % 1000 / 10, ")");
  return context;
}

CudaContext::~CudaContext() {
  (void)destroy();
}

Status CudaContext::enter() const {
  if (destroyed_.load(std::memory_order_acquire))
    return Status(TCPU_ERROR_INVALID_CONTEXT, concat(description_, " was destroyed"));
  return check(api_->ctxSetCurrent(context_), "cuCtxSetCurrent");
}

Status CudaContext::destroy() {
  if (destroyed_.exchange(true)) return {};
  if (Status entered = check(api_->ctxSetCurrent(context_), "cuCtxSetCurrent"); !entered.ok())
    return entered;
  Status first = check(api_->ctxSynchronize(), "cuCtxSynchronize");
  for (const std::shared_ptr<CudaStream>& stream : streams_.snapshot())
    (void)api_->streamDestroy(stream->stream);
  for (const std::shared_ptr<CudaEvent>& event : events_.snapshot())
    (void)api_->eventDestroy(event->event);
  {
    std::lock_guard lock(allocationsMutex_);
    for (const auto& [base, size] : allocations_)
      (void)api_->memFree(base);
    allocations_.clear();
  }
  Status released = check(api_->primaryCtxRelease(device_), "cuDevicePrimaryCtxRelease");
  return first.ok() ? released : first;
}

Status CudaContext::synchronize() {
  if (Status entered = enter(); !entered.ok()) return entered;
  return check(api_->ctxSynchronize(), "cuCtxSynchronize");
}

Expected<std::unique_ptr<LoadedModule>> CudaContext::loadModule(const ModuleSource& source) {
  if (Status entered = enter(); !entered.ok()) return entered;
  for (const JitOption& option : source.options)
    if (option.key != TCPU_JIT_CACHE)
      return Status(TCPU_ERROR_NOT_SUPPORTED,
                    concat("option ", static_cast<int>(option.key),
                           " configures tcpu's LLVM compiles; a PTX or cubin module loaded on a "
                           "CUDA context takes none (compile with `tcpu ptx` instead)"));
  const GpuImageKind kind = classifyGpuImage(source.bytes);
  if (kind == GpuImageKind::NotGpu)
    return Status(TCPU_ERROR_INVALID_IMAGE,
                  concat("is not a PTX or cubin image: ", description_,
                         " loads GPU code only (compile a kernel for it with `tcpu ptx` or "
                         "tcpu_add_kernels(... PTX)); CPU modules (.so, .ll, .bc, .cpp) load on "
                         "a CPU context"));
  std::string ptx;
  std::vector<PtxKernel> kernels;
  if (kind == GpuImageKind::Ptx) {
    ptx.assign(reinterpret_cast<const char*>(source.bytes.data()), source.bytes.size());
    Expected<std::vector<PtxKernel>> parsed = parsePtxKernels(ptx);
    if (!parsed) return parsed.status();
    kernels = parsed.take();
  }
  // The driver reads PTX up to its terminating NUL.
  std::vector<std::byte> image(source.bytes.begin(), source.bytes.end());
  image.push_back(std::byte{0});
  cuda::CUmodule module = nullptr;
  if (Status loaded = check(api_->moduleLoadData(&module, image.data()), "cuModuleLoadData");
      !loaded.ok())
    return loaded;
  return std::unique_ptr<LoadedModule>(
      new CudaModule(shared_from_this(), module, std::move(ptx), std::move(kernels)));
}

Expected<std::unique_ptr<LoadedModule>>
CudaContext::loadLinkedKernels(std::span<const tcpuKernelDesc* const>) {
  return Status(TCPU_ERROR_NOT_SUPPORTED,
                concat("kernels linked into the program are CPU code, but the current context is ",
                       description_));
}

Status CudaContext::launch(const std::shared_ptr<Function>& launchedFunction, unsigned gridDimX,
                           unsigned gridDimY, unsigned gridDimZ, unsigned blockDimX,
                           unsigned blockDimY, unsigned blockDimZ, unsigned sharedMemBytes,
                           tcpuStream stream, void** kernelParams, void** extra) {
  const Function& function = *launchedFunction;
  const unsigned grid[3] = {gridDimX, gridDimY, gridDimZ};
  const unsigned requestedBlock[3] = {blockDimX, blockDimY, blockDimZ};
  const auto& module = static_cast<const CudaModule&>(*function.module->image);
  if (&module.context() != this)
    return Status(TCPU_ERROR_INVALID_CONTEXT,
                  concat("kernel '", function.name, "' was loaded on ",
                         module.context().description(), ", not on the current ", description_));
  if (Status entered = enter(); !entered.ok()) return entered;
  if (grid[1] > kMaxGridYZ || grid[2] > kMaxGridYZ)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("kernel '", function.name, "': grid (", grid[0], ", ", grid[1], ", ",
                         grid[2], ") exceeds CUDA's limit of ", kMaxGridYZ, " in y and z"));
  const tcpuKernelDesc& desc = *function.desc;
  const PtxKernel* kernel = module.kernel(function.name);
  // tcpu's own extra keys are checked here; CUDA gets only the packed-buffer ones, which it
  // shares with tcpu (END 0, BUFFER_POINTER 1, BUFFER_SIZE 2).
  std::vector<void*> cudaExtra;
  bool packed = false;
  if (extra) {
    constexpr int kMaxEntries = 64;
    int i = 0;
    for (; i < kMaxEntries && extra[i] != TCPU_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == TCPU_LAUNCH_PARAM_COUNT) {
        const auto count = reinterpret_cast<uintptr_t>(extra[i + 1]);
        if (kernel && count != desc.numParams)
          return Status(TCPU_ERROR_INVALID_VALUE,
                        concat("kernel '", function.name, "' takes ", desc.numParams,
                               " parameters but the launch passes ", count));
      } else if (extra[i] == TCPU_LAUNCH_PARAM_BUFFER_POINTER ||
                 extra[i] == TCPU_LAUNCH_PARAM_BUFFER_SIZE) {
        packed = true;
        cudaExtra.push_back(extra[i]);
        cudaExtra.push_back(extra[i + 1]);
      } else if (extra[i] == TCPU_LAUNCH_PARAM_CANCEL_FLAG) {
        // A GPU kernel cannot be stopped once queued: only a flag raised before it is heeded.
        if (cancelRaised(static_cast<const tcpuCancelFlag*>(extra[i + 1])))
          return Status(TCPU_ERROR_CANCELLED,
                        concat("kernel '", function.name, "': its cancel flag was raised"));
      } else if (extra[i] != TCPU_LAUNCH_PARAM_NUM_THREADS) { // CPU workers: nothing on a GPU
        return Status(TCPU_ERROR_INVALID_VALUE,
                      concat("kernel '", function.name, "': extra[", i, "]=", extra[i],
                             " is not a TCPU_LAUNCH_PARAM_* key"));
      }
    }
    if (i >= kMaxEntries)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("kernel '", function.name,
                           "': extra has no TCPU_LAUNCH_PARAM_END within ", kMaxEntries,
                           " entries"));
    cudaExtra.push_back(TCPU_LAUNCH_PARAM_END);
  }
  if (packed && kernelParams)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("kernel '", function.name,
                         "': pass parameters either in kernelParams or in extra, not both"));
  if (!packed && kernel) {
    if (desc.numParams > 0 && !kernelParams)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("kernel '", function.name, "' takes ", desc.numParams,
                           " parameters but kernelParams is NULL"));
    for (uint32_t i = 0; i < desc.numParams; ++i) {
      if (!kernelParams[i])
        return Status(TCPU_ERROR_INVALID_VALUE,
                      concat("kernel '", function.name, "': kernelParams[", i, "] is NULL"));
      if (desc.params[i].type != TCPU_TYPE_PTR) continue;
      uint64_t pointer = 0;
      std::memcpy(&pointer, kernelParams[i], sizeof pointer);
      if (pointer == 0) continue;
      if (Status device = checkDeviceRange(pointer, 1, "pointer"); !device.ok())
        return Status(
            TCPU_ERROR_INVALID_VALUE,
            concat("kernel '", function.name, "': kernelParams[", i, "] (",
                   kernel->paramNames[i].empty() ? "unnamed" : kernel->paramNames[i],
                   ") = ", hex(pointer), " is not device memory of ", description_,
                   " (a host pointer, or memory of the CPU context?): ", device.message()));
    }
  }
  Expected<cuda::CUstream> queue = findStream(stream, "hStream");
  if (!queue) return queue.status();
  if (static_cast<uint64_t>(grid[0]) * grid[1] * grid[2] == 0) return {};
  Expected<cuda::CUfunction> entry = module.function(function.name);
  if (!entry) return entry.status();
  unsigned block[3];
  blockShape(kernel, requestedBlock, block);
  if (Status launched =
          check(api_->launchKernel(*entry, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                   sharedMemBytes, *queue, packed ? nullptr : kernelParams,
                                   packed ? cudaExtra.data() : nullptr),
                "cuLaunchKernel");
      !launched.ok())
    return Status(launched.code(), concat("kernel '", function.name, "': ", launched.message()));
  // The null stream is synchronous on the CPU, and a launch on it returns the kernel's errors
  // (a device_assert, an illegal address): the same host code gets the same answers here.
  if (!stream)
    if (Status finished = check(api_->streamSynchronize(nullptr), "the kernel"); !finished.ok())
      return Status(finished.code(), concat("kernel '", function.name, "': ", finished.message()));
  return {};
}

Status CudaContext::checkDeviceRange(tcpuDeviceptr pointer, size_t bytes, const char* what) const {
  {
    std::lock_guard lock(allocationsMutex_);
    auto it = allocations_.upper_bound(pointer);
    if (it != allocations_.begin()) {
      --it;
      if (pointer - it->first < it->second) {
        if (bytes > it->second - (pointer - it->first))
          return Status(TCPU_ERROR_INVALID_VALUE,
                        concat(what, "=", hex(pointer), " + ", bytes,
                               " bytes runs past the end of "
                               "its allocation (",
                               hex(it->first), ", ", it->second, " bytes)"));
        return {};
      }
    }
  }
  cuda::CUcontext owner = nullptr;
  const cuda::CUresult result =
      api_->pointerGetAttribute(&owner, cuda::kPointerAttributeContext, pointer);
  if (result != cuda::kSuccess)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat(what, "=", hex(pointer), " is not device memory of ", description_, " (",
                         check(result, "cuPointerGetAttribute").message(), ")"));
  return {};
}

Expected<tcpuDeviceptr> CudaContext::memAlloc(size_t bytes, unsigned int /*flags*/) {
  if (Status entered = enter(); !entered.ok()) return entered;
  if (bytes == 0) return Status(TCPU_ERROR_INVALID_VALUE, "bytesize is 0");
  cuda::CUdeviceptr pointer = 0;
  if (Status allocated = check(api_->memAlloc(&pointer, bytes), "cuMemAlloc"); !allocated.ok())
    return allocated;
  std::lock_guard lock(allocationsMutex_);
  allocations_[pointer] = bytes;
  return static_cast<tcpuDeviceptr>(pointer);
}

Status CudaContext::memFree(tcpuDeviceptr pointer) {
  if (Status entered = enter(); !entered.ok()) return entered;
  {
    std::lock_guard lock(allocationsMutex_);
    if (allocations_.erase(pointer) == 0)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("dptr=", hex(pointer), " is not an allocation of ", description_));
  }
  return check(api_->memFree(pointer), "cuMemFree");
}

Status CudaContext::memcpyHtoD(tcpuDeviceptr dst, const void* src, size_t bytes,
                               tcpuStream stream) {
  if (Status entered = enter(); !entered.ok()) return entered;
  if (!src && bytes > 0) return Status(TCPU_ERROR_INVALID_VALUE, "srcHost is NULL");
  if (Status range = checkDeviceRange(dst, bytes, "dstDevice"); !range.ok()) return range;
  Expected<cuda::CUstream> queue = findStream(stream, "hStream");
  if (!queue) return queue.status();
  return stream ? check(api_->memcpyHtoDAsync(dst, src, bytes, *queue), "cuMemcpyHtoDAsync")
                : check(api_->memcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}

Status CudaContext::memcpyDtoH(void* dst, tcpuDeviceptr src, size_t bytes, tcpuStream stream) {
  if (Status entered = enter(); !entered.ok()) return entered;
  if (!dst && bytes > 0) return Status(TCPU_ERROR_INVALID_VALUE, "dstHost is NULL");
  if (Status range = checkDeviceRange(src, bytes, "srcDevice"); !range.ok()) return range;
  Expected<cuda::CUstream> queue = findStream(stream, "hStream");
  if (!queue) return queue.status();
  return stream ? check(api_->memcpyDtoHAsync(dst, src, bytes, *queue), "cuMemcpyDtoHAsync")
                : check(api_->memcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

Status CudaContext::memcpyDtoD(tcpuDeviceptr dst, tcpuDeviceptr src, size_t bytes) {
  if (Status entered = enter(); !entered.ok()) return entered;
  if (Status range = checkDeviceRange(dst, bytes, "dstDevice"); !range.ok()) return range;
  if (Status range = checkDeviceRange(src, bytes, "srcDevice"); !range.ok()) return range;
  return check(api_->memcpyDtoD(dst, src, bytes), "cuMemcpyDtoD");
}

Status CudaContext::memsetD8(tcpuDeviceptr dst, unsigned char value, size_t count) {
  if (Status entered = enter(); !entered.ok()) return entered;
  if (Status range = checkDeviceRange(dst, count, "dstDevice"); !range.ok()) return range;
  return check(api_->memsetD8(dst, value, count), "cuMemsetD8");
}

Status CudaContext::memsetD32(tcpuDeviceptr dst, unsigned int value, size_t count) {
  if (Status entered = enter(); !entered.ok()) return entered;
  if (count > SIZE_MAX / 4)
    return Status(TCPU_ERROR_INVALID_VALUE, concat("n=", count, " overflows the byte count"));
  if (Status range = checkDeviceRange(dst, count * 4, "dstDevice"); !range.ok()) return range;
  return check(api_->memsetD32(dst, value, count), "cuMemsetD32");
}

Status CudaContext::hostRegister(void* pointer, size_t bytes, unsigned int flags) {
  if (Status entered = enter(); !entered.ok()) return entered;
  return check(api_->memHostRegister(pointer, bytes, flags), "cuMemHostRegister");
}

Status CudaContext::hostUnregister(void* pointer) {
  if (Status entered = enter(); !entered.ok()) return entered;
  return check(api_->memHostUnregister(pointer), "cuMemHostUnregister");
}

Expected<cuda::CUstream> CudaContext::findStream(tcpuStream stream, const char* what) const {
  if (!stream) return static_cast<cuda::CUstream>(nullptr);
  std::shared_ptr<CudaStream> found = streams_.find(stream);
  if (!found)
    return Status(TCPU_ERROR_INVALID_HANDLE, concat(what, "=", static_cast<const void*>(stream),
                                                    " is not a live stream of ", description_));
  return found->stream;
}

Expected<std::shared_ptr<CudaEvent>> CudaContext::findEvent(tcpuEvent event,
                                                            const char* what) const {
  std::shared_ptr<CudaEvent> found = events_.find(event);
  if (!found)
    return Status(TCPU_ERROR_INVALID_HANDLE, concat(what, "=", static_cast<const void*>(event),
                                                    " is not a live event of ", description_));
  return found;
}

Expected<tcpuStream> CudaContext::streamCreate(unsigned int flags) {
  if (Status entered = enter(); !entered.ok()) return entered;
  auto stream = std::make_shared<CudaStream>();
  if (Status created = check(api_->streamCreate(&stream->stream, flags), "cuStreamCreate");
      !created.ok())
    return created;
  return streams_.insert(std::move(stream));
}

Status CudaContext::streamDestroy(tcpuStream stream) {
  if (Status entered = enter(); !entered.ok()) return entered;
  std::shared_ptr<CudaStream> removed = streams_.remove(stream);
  if (!removed)
    return Status(TCPU_ERROR_INVALID_HANDLE, concat("hStream=", static_cast<const void*>(stream),
                                                    " is not a live stream of ", description_));
  Status finished = check(api_->streamSynchronize(removed->stream), "cuStreamSynchronize");
  Status destroyed = check(api_->streamDestroy(removed->stream), "cuStreamDestroy");
  return finished.ok() ? destroyed : finished;
}

Status CudaContext::streamSynchronize(tcpuStream stream) {
  if (Status entered = enter(); !entered.ok()) return entered;
  Expected<cuda::CUstream> queue = findStream(stream, "hStream");
  if (!queue) return queue.status();
  return check(api_->streamSynchronize(*queue), "cuStreamSynchronize");
}

Status CudaContext::streamQuery(tcpuStream stream) {
  if (Status entered = enter(); !entered.ok()) return entered;
  Expected<cuda::CUstream> queue = findStream(stream, "hStream");
  if (!queue) return queue.status();
  return check(api_->streamQuery(*queue), "cuStreamQuery");
}

Status CudaContext::streamWaitEvent(tcpuStream stream, tcpuEvent event) {
  if (Status entered = enter(); !entered.ok()) return entered;
  Expected<cuda::CUstream> queue = findStream(stream, "hStream");
  if (!queue) return queue.status();
  Expected<std::shared_ptr<CudaEvent>> found = findEvent(event, "hEvent");
  if (!found) return found.status();
  return check(api_->streamWaitEvent(*queue, (*found)->event, 0), "cuStreamWaitEvent");
}

Expected<tcpuEvent> CudaContext::eventCreate(unsigned int flags) {
  if (Status entered = enter(); !entered.ok()) return entered;
  auto event = std::make_shared<CudaEvent>();
  if (Status created = check(api_->eventCreate(&event->event, flags), "cuEventCreate");
      !created.ok())
    return created;
  return events_.insert(std::move(event));
}

Status CudaContext::eventRecord(tcpuEvent event, tcpuStream stream) {
  if (Status entered = enter(); !entered.ok()) return entered;
  Expected<std::shared_ptr<CudaEvent>> found = findEvent(event, "hEvent");
  if (!found) return found.status();
  Expected<cuda::CUstream> queue = findStream(stream, "hStream");
  if (!queue) return queue.status();
  if (Status recorded = check(api_->eventRecord((*found)->event, *queue), "cuEventRecord");
      !recorded.ok())
    return recorded;
  (*found)->recorded = true;
  return {};
}

Status CudaContext::eventQuery(tcpuEvent event) {
  if (Status entered = enter(); !entered.ok()) return entered;
  Expected<std::shared_ptr<CudaEvent>> found = findEvent(event, "hEvent");
  if (!found) return found.status();
  return check(api_->eventQuery((*found)->event), "cuEventQuery");
}

Status CudaContext::eventSynchronize(tcpuEvent event) {
  if (Status entered = enter(); !entered.ok()) return entered;
  Expected<std::shared_ptr<CudaEvent>> found = findEvent(event, "hEvent");
  if (!found) return found.status();
  return check(api_->eventSynchronize((*found)->event), "cuEventSynchronize");
}

Status CudaContext::eventElapsedTime(float* milliseconds, tcpuEvent start, tcpuEvent end) {
  if (Status entered = enter(); !entered.ok()) return entered;
  if (!milliseconds) return Status(TCPU_ERROR_INVALID_VALUE, "milliseconds is NULL");
  Expected<std::shared_ptr<CudaEvent>> first = findEvent(start, "hStart");
  if (!first) return first.status();
  Expected<std::shared_ptr<CudaEvent>> last = findEvent(end, "hEnd");
  if (!last) return last.status();
  if (!(*first)->recorded || !(*last)->recorded)
    return Status(TCPU_ERROR_INVALID_HANDLE,
                  concat((*first)->recorded ? "hEnd" : "hStart", " was never recorded"));
  return check(api_->eventElapsedTime(milliseconds, (*first)->event, (*last)->event),
               "cuEventElapsedTime");
}

Status CudaContext::eventDestroy(tcpuEvent event) {
  if (Status entered = enter(); !entered.ok()) return entered;
  std::shared_ptr<CudaEvent> removed = events_.remove(event);
  if (!removed)
    return Status(TCPU_ERROR_INVALID_HANDLE, concat("hEvent=", static_cast<const void*>(event),
                                                    " is not a live event of ", description_));
  return check(api_->eventDestroy(removed->event), "cuEventDestroy");
}

} // namespace tcpu::detail
