// launch/empty/<programs>: launch and completion of an empty kernel on the
// null stream; baseline/omp_for/<programs>: a hand-written OpenMP loop
// calling the same empty function, in the same run.
#include <omp.h>

#include "bench_support.hpp"
#include "kernels/empty_kernel.hpp"

namespace tcpu::bench {
namespace {

void launchEmpty(benchmark::State& state) {
  const tcpuFunction empty = benchFunction("empty");
  if (!empty) {
    state.SkipWithError("cannot load the benchmark kernels");
    return;
  }
  const auto programs = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    if (!succeeded(state,
                   tcpuLaunchKernel(empty, programs, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr)))
      return;
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void baselineOmpFor(benchmark::State& state) {
  const auto programs = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) {
    if (programs == 1) {
      emptyKernel(0, 0, 0, 1, 1, 1); // a hand-written launcher calls a lone program directly
      continue;
    }
#pragma omp parallel for schedule(static)
    for (uint32_t x = 0; x < programs; ++x)
      emptyKernel(x, 0, 0, programs, 1, 1);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

BENCHMARK(launchEmpty)->Name("launch/empty")->Arg(1)->Arg(1024)->Arg(1 << 20)->UseRealTime();
BENCHMARK(baselineOmpFor)->Name("baseline/omp_for")->Arg(1)->Arg(1024)->Arg(1 << 20)->UseRealTime();

} // namespace
} // namespace tcpu::bench
