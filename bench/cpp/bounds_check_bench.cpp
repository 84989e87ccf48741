// What bounds checking (TCPU_JIT_CHECK_BOUNDS) costs: tutorial 01's vector add
// and tutorial 03's matmul, each compiled plain (bounds/<kernel>/unchecked/<n>)
// and checked (bounds/<kernel>/checked/<n>), on the same buffers from
// tcpuMemAlloc (so the checked build has extents to check every access
// against), in the same run: the slowdown is the ratio of the two.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bench_support.hpp"
#include "tcpu/codegen.h"

namespace tcpu::bench {
namespace {

// `name` of the tutorial `file`, plain or checked; each build is loaded once per process.
tcpuFunction buildOf(const char* file, const char* name, bool checked) {
  static std::map<std::pair<std::string, bool>, tcpuModule> modules;
  tcpuCodegenRegister();
  auto [entry, inserted] = modules.try_emplace({file, checked}, nullptr);
  if (inserted) {
    tcpuJitOption key = TCPU_JIT_CHECK_BOUNDS;
    void* value = reinterpret_cast<void*>(uintptr_t{checked ? 1u : 0u});
    const std::string path = std::string(TCPU_TUTORIAL_KERNELS_DIR) + "/" + file;
    if (tcpuModuleLoadEx(&entry->second, path.c_str(), 1, &key, &value) != TCPU_SUCCESS)
      entry->second = nullptr;
  }
  tcpuFunction function = nullptr;
  if (!entry->second || tcpuModuleGetFunction(&function, entry->second, name) != TCPU_SUCCESS)
    return nullptr;
  return function;
}

// A tcpuMemAlloc buffer holding `values`, freed with the object.
class DeviceBuffer {
public:
  explicit DeviceBuffer(const std::vector<float>& values) {
    if (tcpuMemAlloc(&address_, values.size() * sizeof(float)) == TCPU_SUCCESS)
      tcpuMemcpyHtoD(address_, values.data(), values.size() * sizeof(float));
  }
  ~DeviceBuffer() { tcpuMemFree(address_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  float* get() const { return reinterpret_cast<float*>(static_cast<uintptr_t>(address_)); }

private:
  tcpuDeviceptr address_ = 0;
};

template <class... Args>
tcpuResult launch(tcpuFunction f, unsigned programs, Args... args) {
  void* params[] = {static_cast<void*>(&args)..., nullptr};
  return tcpuLaunchKernel(f, programs, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr);
}

void vectorAdd(benchmark::State& state, bool checked) {
  const auto n = static_cast<int32_t>(state.range(0));
  tcpuFunction add = buildOf("vector_add.bc", "add_kernel", checked);
  if (!add) return state.SkipWithError(tcpuGetLastErrorDetail());
  const DeviceBuffer x(filled(static_cast<size_t>(n), 0.01f)),
      y(filled(static_cast<size_t>(n), 0.02f));
  const DeviceBuffer out{std::vector<float>(static_cast<size_t>(n))};
  if (!x.get() || !y.get() || !out.get()) return state.SkipWithError("tcpuMemAlloc failed");
  const auto programs = static_cast<unsigned>((n + 1023) / 1024);
  for (auto _ : state)
    if (!succeeded(state, launch(add, programs, x.get(), y.get(), out.get(), n))) return;
  if (out.get()[n - 1] != x.get()[n - 1] + y.get()[n - 1])
    state.SkipWithError("vector_add computed a wrong sum");
  state.SetBytesProcessed(state.iterations() * n * 3 * static_cast<int64_t>(sizeof(float)));
}

void matmul(benchmark::State& state, bool checked) {
  const auto n = static_cast<int32_t>(state.range(0));
  tcpuFunction f = buildOf("matmul.bc", "matmul_f32", checked);
  if (!f) return state.SkipWithError(tcpuGetLastErrorDetail());
  const auto count = static_cast<size_t>(n) * static_cast<size_t>(n);
  const DeviceBuffer a(filled(count, 0.01f)), b(filled(count, 0.02f));
  const DeviceBuffer c{std::vector<float>(count)};
  if (!a.get() || !b.get() || !c.get()) return state.SkipWithError("tcpuMemAlloc failed");
  const auto programs = static_cast<unsigned>(((n + 63) / 64) * ((n + 63) / 64));
  for (auto _ : state)
    if (!succeeded(state,
                   launch(f, programs, a.get(), b.get(), c.get(), n, n, n, n, 1, n, 1, n, 1)))
      return;
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n),
      benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

BENCHMARK_CAPTURE(vectorAdd, unchecked, false)
    ->Name("bounds/vector_add/unchecked")
    ->Arg(1 << 20)
    ->Arg(1 << 26)
    ->UseRealTime();
BENCHMARK_CAPTURE(vectorAdd, checked, true)
    ->Name("bounds/vector_add/checked")
    ->Arg(1 << 20)
    ->Arg(1 << 26)
    ->UseRealTime();
BENCHMARK_CAPTURE(matmul, unchecked, false)
    ->Name("bounds/matmul_f32/unchecked")
    ->Arg(512)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(matmul, checked, true)
    ->Name("bounds/matmul_f32/checked")
    ->Arg(512)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
} // namespace tcpu::bench
