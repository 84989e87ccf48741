// module/load_shared_object/{probed,unprobed}: tcpuModuleLoad + tcpuModuleUnload of the
// benchmark kernels' shared object, with the dlopen probe (a fork per load, the default) and
// without it (TCPU_DLOPEN_PROBE=0); baseline/dlopen: dlopen + dlclose of a private copy of the
// same file, what a hand-written loader does, in the same run.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench_support.hpp"

namespace tcpu::bench {
namespace {

void loadSharedObject(benchmark::State& state, bool probed) {
  if (probed)
    ::unsetenv("TCPU_DLOPEN_PROBE");
  else
    ::setenv("TCPU_DLOPEN_PROBE", "0", 1);
  for (auto _ : state) {
    tcpuModule module = nullptr;
    if (!succeeded(state, tcpuModuleLoad(&module, TCPU_BENCH_KERNELS_PATH)) ||
        !succeeded(state, tcpuModuleUnload(module)))
      break;
  }
  ::unsetenv("TCPU_DLOPEN_PROBE");
}

// tcpu loads a private copy of the file each time (modules do not share static data), so the
// baseline opens a fresh copy too: dlopen of one path again would only bump a reference count.
void baselineDlopen(benchmark::State& state) {
  const auto directory = std::filesystem::temp_directory_path();
  const std::string copy = (directory / ("tcpu-bench-dlopen-" + std::to_string(getpid()))).string();
  for (auto _ : state) {
    std::filesystem::copy_file(TCPU_BENCH_KERNELS_PATH, copy,
                               std::filesystem::copy_options::overwrite_existing);
    void* handle = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::filesystem::remove(copy);
    if (!handle) {
      state.SkipWithError(dlerror());
      break;
    }
    dlclose(handle);
  }
}

BENCHMARK_CAPTURE(loadSharedObject, probed, true)
    ->Name("module/load_shared_object/probed")
    ->UseRealTime();
BENCHMARK_CAPTURE(loadSharedObject, unprobed, false)
    ->Name("module/load_shared_object/unprobed")
    ->UseRealTime();
BENCHMARK(baselineDlopen)->Name("baseline/dlopen")->UseRealTime();

} // namespace
} // namespace tcpu::bench
