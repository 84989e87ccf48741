#include "bench_support.hpp"

#include <string>

namespace tcpu::bench {

tcpuFunction benchFunction(const char* name) {
  // Loaded once: every benchmark launches from the same module.
  static const tcpuModule module = [] {
    tcpuModule loaded = nullptr;
    return tcpuModuleLoad(&loaded, TCPU_BENCH_KERNELS_PATH) == TCPU_SUCCESS ? loaded : nullptr;
  }();
  tcpuFunction function = nullptr;
  if (!module || tcpuModuleGetFunction(&function, module, name) != TCPU_SUCCESS) return nullptr;
  return function;
}

bool succeeded(benchmark::State& state, tcpuResult result) {
  if (result == TCPU_SUCCESS) return true;
  state.SkipWithError((std::string("tcpu call failed: ") + tcpuGetLastErrorDetail()).c_str());
  return false;
}

} // namespace tcpu::bench
