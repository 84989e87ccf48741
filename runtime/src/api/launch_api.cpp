// tcpuLaunchKernel: finds the function, then hands the launch to the backend its module was
// loaded on (one indirect call: the CPU's runs the grid, cpu/cpu_launch.cpp).
#include "api/context.hpp"
#include "state/error.hpp"
#include "state/runtime_state.hpp"

using namespace tcpu;
using namespace tcpu::detail;

namespace {

constexpr const char* kApi = "tcpuLaunchKernel";

} // namespace

extern "C" tcpuResult tcpuLaunchKernel(tcpuFunction f, unsigned int gridDimX, unsigned int gridDimY,
                                       unsigned int gridDimZ, unsigned int blockDimX,
                                       unsigned int blockDimY, unsigned int blockDimZ,
                                       unsigned int sharedMemBytes, tcpuStream hStream,
                                       void** kernelParams, void** extra) {
  return initializedApi(kApi, [&] {
    std::shared_ptr<Function> function = runtime().functions.find(f);
    if (!function)
      return fail(TCPU_ERROR_INVALID_HANDLE, kApi, ": f=", static_cast<const void*>(f),
                  " is not a valid function handle (null, unloaded with its module, or another "
                  "kind of handle)");
    Backend& owner = *function->module->backend;
    Backend& current = *currentBackend();
    // Another context of the same kind is the current one's to refuse (a CUDA context names
    // both GPUs); another kind is refused here.
    if (&owner != &current && owner.kind() != current.kind())
      return reportAs(kApi, wrongContext(concat("kernel '", function->name, "'"), owner));
    return reportAs(kApi,
                    current.launch(function, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
                                   blockDimZ, sharedMemBytes, hStream, kernelParams, extra));
  });
}
