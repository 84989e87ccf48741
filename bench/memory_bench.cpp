// What tcpuMemAlloc costs: memory/alloc_free/<bytes> allocates and frees one buffer through the
// runtime (the bookkeeping of known buffers included); baseline/aligned_alloc/<bytes> is the
// same std::aligned_alloc(64) and free with no bookkeeping, in the same run.
#include <cstdlib>

#include "bench_support.hpp"

namespace tcpu::bench {
namespace {

void memAllocFree(benchmark::State& state) {
  const auto bytes = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    tcpuDeviceptr pointer = 0;
    if (!succeeded(state, tcpuMemAlloc(&pointer, bytes))) return;
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

BENCHMARK(memAllocFree)->Name("memory/alloc_free")->Arg(4 << 10)->Arg(1 << 20);
BENCHMARK(baselineAlignedAlloc)->Name("baseline/aligned_alloc")->Arg(4 << 10)->Arg(1 << 20);

} // namespace
} // namespace tcpu::bench
