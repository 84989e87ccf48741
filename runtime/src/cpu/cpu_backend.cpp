// The CPU backend's context and modules.
#include "cpu/cpu_backend.hpp"

#include "backend/image_kind.hpp"
#include "cpu/host_cpu.hpp"
#include "launch/amx_permission.hpp"
#include "modules/linked_kernels_module.hpp"
#include "state/runtime_state.hpp"

namespace tcpu::detail {
namespace {

// Before any CPU module's code can run (once per process; later calls return the first
// answer): code compiled for this CPU may use AMX's tiles (tl's bf16 dot), which Linux lends
// only to processes that ask. Where it refuses (before Linux 5.16), such code dies of SIGILL.
Expected<std::unique_ptr<LoadedModule>> readyToRun(Expected<std::unique_ptr<LoadedModule>> image) {
  if (image) requestAmxPermission();
  return image;
}

} // namespace

std::string CpuBackend::description() const {
  return concat("CPU (", hostCpuName(), ")");
}

Status CpuBackend::synchronize() {
  runtime().streams.waitForAll();
  return {};
}

Status CpuBackend::checkImage(std::span<const std::byte> bytes) const {
  if (classifyGpuImage(bytes) == GpuImageKind::NotGpu) return {};
  return Status(TCPU_ERROR_INVALID_IMAGE,
                "is GPU code (PTX or a cubin) but the current context is the CPU's: load it on a "
                "CUDA context (tcpuCtxCreate(&ctx, TCPU_BACKEND_CUDA, 0))");
}

Expected<std::unique_ptr<LoadedModule>> CpuBackend::loadModule(const ModuleSource& source) {
  return readyToRun(runtime().loaders.load(source));
}

Expected<std::unique_ptr<LoadedModule>>
CpuBackend::loadLinkedKernels(std::span<const tcpuKernelDesc* const> kernels) {
  return readyToRun(linkedKernelsModule(kernels));
}

// Rejects descriptors that would make the launcher read garbage.
Status CpuBackend::checkKernel(const tcpuKernelDesc& desc, const std::string& name,
                               const Module& module) const {
  if (desc.abiVersion < TCPU_KERNEL_ABI_OLDEST_READ || desc.abiVersion > TCPU_KERNEL_ABI_VERSION)
    return Status(TCPU_ERROR_INVALID_IMAGE,
                  concat("kernel '", name, "' in ", module.origin,
                         " was built for tcpu kernel ABI v", desc.abiVersion,
                         "; this runtime reads v", TCPU_KERNEL_ABI_OLDEST_READ, " to v",
                         TCPU_KERNEL_ABI_VERSION));
  if (!desc.entry || (desc.numParams > 0 && !desc.params))
    return Status(TCPU_ERROR_INVALID_IMAGE,
                  concat("kernel '", name, "' in ", module.origin,
                         " has a malformed descriptor (no entry or params)"));
  for (uint32_t i = 0; i < desc.numParams; ++i)
    if (desc.params[i].size == 0 || desc.params[i].align == 0 ||
        (desc.params[i].align & (desc.params[i].align - 1)) != 0)
      return Status(TCPU_ERROR_INVALID_IMAGE,
                    concat("kernel '", name, "' in ", module.origin, ": parameter ", i,
                           " has size ", desc.params[i].size, " and alignment ",
                           desc.params[i].align));
  return {};
}

} // namespace tcpu::detail
