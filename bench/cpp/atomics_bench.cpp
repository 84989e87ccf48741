// tl.atomic_add and tl.atomic_max on a block against a plain load, add and store
// (kernels/atomic_rows/<op>/4096x<cols>): one program a row of out, no two programs on one
// element, so what is measured is what atomicity costs where programs do not collide. Run with
// TCPU_NUM_THREADS=1 for one thread's cost; the ratio to row_load_add_store is the figure.
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "bench_support.hpp"

namespace tcpu::bench {
namespace {

// Each iteration one launch of `kernel`(out, in, cols) over `rows` programs; false when one failed.
template <class Out, class In>
bool launchRows(benchmark::State& state, tcpuFunction kernel, int32_t rows, Out* out, const In* in,
                int32_t cols) {
  for (auto _ : state) {
    void* params[] = {&out, &in, &cols, nullptr};
    if (!succeeded(state, tcpuLaunchKernel(kernel, static_cast<unsigned>(rows), 1, 1, 1, 1, 1, 0,
                                           nullptr, params, nullptr)))
      return false;
  }
  return true;
}

void atomicRows(benchmark::State& state, const char* kernelName) {
  const int32_t rows = 4096, cols = static_cast<int32_t>(state.range(0));
  tcpuFunction update = bitcodeFunction(TCPU_BENCH_ATOMIC_ROWS_BC, kernelName);
  if (!update) return state.SkipWithError(tcpuGetLastErrorDetail());
  const size_t size = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  const std::vector<float> in = filled(size, 0.25f);
  std::vector<float> out(size, 0.0f);
  if (!launchRows(state, update, rows, out.data(), in.data(), cols)) return;
  // Every launch added (or maxed) in once: an element's value says how many launches ran.
  const double iterations = static_cast<double>(state.iterations());
  const double want =
      std::string_view(kernelName) == "row_atomic_max" ? in[5] > 0 ? in[5] : 0 : in[5] * iterations;
  if (std::fabs(out[5] - want) > 1e-3 * std::fabs(want) + 1e-3)
    state.SkipWithError("the row update computed a wrong element");
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(size) * 3 *
                          static_cast<int64_t>(sizeof(float)));
}

// 4096 x cols int32 values counted into 256 bins (histogram_256), with the worker threads the
// runtime has (TCPU_NUM_THREADS).
void atomicHistogram(benchmark::State& state) {
  const int32_t rows = 4096, cols = static_cast<int32_t>(state.range(0));
  tcpuFunction histogram = bitcodeFunction(TCPU_BENCH_ATOMIC_ROWS_BC, "histogram_256");
  if (!histogram) return state.SkipWithError(tcpuGetLastErrorDetail());
  std::vector<int32_t> in(static_cast<size_t>(rows) * static_cast<size_t>(cols));
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<int32_t>((i * 2654435761u) >> 7);
  std::vector<int32_t> bins(256, 0);
  if (!launchRows(state, histogram, rows, bins.data(), in.data(), cols)) return;
  int64_t total = 0;
  for (int32_t count : bins)
    total += count;
  if (total != static_cast<int64_t>(in.size()) * state.iterations())
    state.SkipWithError("the histogram lost counts");
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(in.size()));
}

BENCHMARK_CAPTURE(atomicRows, loadAddStore, "row_load_add_store")
    ->Name("kernels/atomic_rows/load_add_store/4096x")
    ->Arg(1000)
    ->Arg(1024)
    ->UseRealTime();
BENCHMARK_CAPTURE(atomicRows, atomicAdd, "row_atomic_add")
    ->Name("kernels/atomic_rows/atomic_add/4096x")
    ->Arg(1000)
    ->Arg(1024)
    ->UseRealTime();
BENCHMARK_CAPTURE(atomicRows, atomicMax, "row_atomic_max")
    ->Name("kernels/atomic_rows/atomic_max/4096x")
    ->Arg(1000)
    ->Arg(1024)
    ->UseRealTime();

BENCHMARK(atomicHistogram)
    ->Name("kernels/atomic_rows/histogram_256/4096x")
    ->Arg(1024)
    ->UseRealTime();

} // namespace
} // namespace tcpu::bench
