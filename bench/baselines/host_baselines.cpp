// Hand-written baselines compiled for the host CPU (-march=native):
// baseline/softmax_omp/4096x<N>, a row-wise OpenMP softmax as a user would
// write it, and baseline/fma_peak, the machine's measured fp32 FMA throughput
// (what matmul efficiency is quoted against).
#include <omp.h>

#include <cmath>
#include <vector>

#include "cpp/bench_support.hpp"

namespace tcpu::bench {
namespace {

void softmaxRows(const float* input, float* output, int64_t rows, int64_t cols) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = input + r * cols;
    float* out = output + r * cols;
    // The maximum in 16 independent lanes (the compiler will not reorder a
    // float max reduction by itself), then omp simd lets the sum be reordered.
    constexpr int kLanes = 16;
    float lanes[kLanes];
    for (float& lane : lanes)
      lane = -INFINITY;
    int64_t c0 = 0;
    for (; c0 + kLanes <= cols; c0 += kLanes)
      for (int l = 0; l < kLanes; ++l)
        lanes[l] = in[c0 + l] > lanes[l] ? in[c0 + l] : lanes[l];
    for (; c0 < cols; ++c0)
      lanes[0] = in[c0] > lanes[0] ? in[c0] : lanes[0];
    float maximum = -INFINITY;
    for (float lane : lanes)
      maximum = lane > maximum ? lane : maximum;
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (int64_t c = 0; c < cols; ++c) {
      out[c] = std::exp(in[c] - maximum);
      sum += out[c];
    }
    const float inverse = 1.0f / sum;
    for (int64_t c = 0; c < cols; ++c)
      out[c] *= inverse;
  }
}

void softmaxOmp(benchmark::State& state) {
  const int64_t rows = 4096, cols = state.range(0);
  const std::vector<float> input = filled(static_cast<size_t>(rows * cols), 0.05f);
  std::vector<float> output(input.size());
  for (auto _ : state) {
    softmaxRows(input.data(), output.data(), rows, cols);
    benchmark::DoNotOptimize(output.data());
  }
  state.SetBytesProcessed(state.iterations() * rows * cols * 2 *
                          static_cast<int64_t>(sizeof(float)));
}

// Independent FMA chains per thread, enough of them to cover the latency, in the widest vectors
// the host has (this file is compiled with -march=native): 512-bit ones where there is AVX-512,
// which on CPUs with full-width 512-bit units (Zen 5, Intel's servers) do twice the work per FMA.
#if defined(__AVX512F__)
constexpr int kFmaLanes = 16;
#else
constexpr int kFmaLanes = 8;
#endif
using Lanes = float __attribute__((vector_size(kFmaLanes * sizeof(float))));
constexpr int kChains = 12;
constexpr int64_t kSteps = 1 << 20;

double fmaFlopsOnAllThreads() {
  double checksum = 0;
#pragma omp parallel reduction(+ : checksum)
  {
    Lanes acc[kChains];
    Lanes scale, offset;
    for (int l = 0; l < kFmaLanes; ++l) {
      scale[l] = 1.0000001f;
      offset[l] = 1e-7f;
    }
    for (int c = 0; c < kChains; ++c)
      acc[c] = offset * static_cast<float>(c);
    for (int64_t s = 0; s < kSteps; ++s)
      for (int c = 0; c < kChains; ++c)
        acc[c] = acc[c] * scale + offset; // one FMA each
    for (int c = 0; c < kChains; ++c)
      for (int l = 0; l < kFmaLanes; ++l)
        checksum += acc[c][l];
  }
  return checksum;
}

void fmaPeak(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(fmaFlopsOnAllThreads());
  const double flops =
      2.0 * kFmaLanes * kChains * static_cast<double>(kSteps) * omp_get_max_threads();
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

BENCHMARK(softmaxOmp)
    ->Name("baseline/softmax_omp/4096x")
    ->RangeMultiplier(2)
    ->Range(256, 8192)
    ->Arg(1000) // ragged rows: the kernel's block is the next power of two, its tail masked
    ->Arg(3000)
    ->UseRealTime();
BENCHMARK(fmaPeak)->Name("baseline/fma_peak")->UseRealTime();

} // namespace
} // namespace tcpu::bench
