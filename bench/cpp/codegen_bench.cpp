// codegen/compile_cold/vector_add: load (parse, optimize, emit, link) of
// tutorial 01's IR with the cache off; codegen/load_cached/vector_add: the same
// load served by the persistent cache. Each iteration unloads again.
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

#include "bench_support.hpp"
#include "tcpu/codegen.h"

namespace tcpu::bench {
namespace {

void loadAndUnload(benchmark::State& state, bool useCache) {
  tcpuCodegenRegister();
  const std::filesystem::path cache =
      std::filesystem::temp_directory_path() / ("tcpu-bench-cache-" + std::to_string(::getpid()));
  setenv("TCPU_CACHE_DIR", cache.c_str(), 1);
  tcpuJitOption keys[] = {TCPU_JIT_CACHE};
  void* values[] = {reinterpret_cast<void*>(uintptr_t{useCache ? 1u : 0u})};
  tcpuModule module;
  // Warm-up: fills the cache for the cached case, and starts the JIT once.
  if (!succeeded(state, tcpuModuleLoadEx(&module, TCPU_BENCH_VECTOR_ADD_IR, 1, keys, values)) ||
      !succeeded(state, tcpuModuleUnload(module)))
    return;
  for (auto _ : state) {
    if (!succeeded(state, tcpuModuleLoadEx(&module, TCPU_BENCH_VECTOR_ADD_IR, 1, keys, values)))
      break;
    tcpuFunction function;
    if (!succeeded(state, tcpuModuleGetFunction(&function, module, "add_kernel"))) break;
    tcpuModuleUnload(module);
  }
  std::filesystem::remove_all(cache);
  unsetenv("TCPU_CACHE_DIR");
}

void compileCold(benchmark::State& state) {
  loadAndUnload(state, false);
}
void loadCached(benchmark::State& state) {
  loadAndUnload(state, true);
}

BENCHMARK(compileCold)
    ->Name("codegen/compile_cold/vector_add")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(loadCached)
    ->Name("codegen/load_cached/vector_add")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
} // namespace tcpu::bench
