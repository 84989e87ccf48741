// What tcpuMemAlloc costs: memory/alloc_free/<bytes> allocates and frees one buffer through the
// runtime (the bookkeeping of known buffers included); memory/alloc_free_guarded/<bytes> the
// same with a guard page (tcpuMemAllocEx, TCPU_MEMALLOC_GUARD: a mapping of its own);
// baseline/aligned_alloc/<bytes> is std::aligned_alloc(64) and free with no bookkeeping, in the
// same run. memory/alloc_free is the unguarded path, to compare across commits.
#include <cstdlib>

#include "bench_support.hpp"

namespace tcpu::bench {
namespace {

void memAllocFree(benchmark::State& state, unsigned flags) {
  const auto bytes = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    tcpuDeviceptr pointer = 0;
    if (!succeeded(state, flags == TCPU_MEMALLOC_DEFAULT ? tcpuMemAlloc(&pointer, bytes)
                                                         : tcpuMemAllocEx(&pointer, bytes, flags)))
      return;
    benchmark::DoNotOptimize(pointer);
    if (!succeeded(state, tcpuMemFree(pointer))) return;
  }
}

void baselineAlignedAlloc(benchmark::State& state) {
  const auto bytes = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    void* memory = std::aligned_alloc(64, (bytes + 63) & ~size_t{63});
    benchmark::DoNotOptimize(memory);
    std::free(memory);
  }
}

BENCHMARK_CAPTURE(memAllocFree, plain, TCPU_MEMALLOC_DEFAULT)
    ->Name("memory/alloc_free")
    ->Arg(4 << 10)
    ->Arg(1 << 20);
BENCHMARK_CAPTURE(memAllocFree, guarded, TCPU_MEMALLOC_GUARD)
    ->Name("memory/alloc_free_guarded")
    ->Arg(4 << 10)
    ->Arg(1 << 20);
BENCHMARK(baselineAlignedAlloc)->Name("baseline/aligned_alloc")->Arg(4 << 10)->Arg(1 << 20);

} // namespace
} // namespace tcpu::bench
