// The reference kernels (kernels/tutorials, written in tl) beside their
// baselines: kernels/softmax/4096x<N> (vs baseline/softmax_omp and
// baseline/onednn_softmax), kernels/matmul_f32/<n> (vs baseline/onednn_sgemm,
// and baseline/fma_peak for the fraction of peak), kernels/matmul_bf16/<n> (vs
// baseline/onednn_matmul_bf16), and the layer norm and
// attention kernels with the bandwidth or FLOP rate they reach. Inputs are
// filled as the baselines fill theirs; each benchmark spot-checks its output.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bench_support.hpp"

namespace tcpu::bench {
namespace {

template <class... Args>
tcpuResult launch(tcpuFunction f, unsigned gx, unsigned gy, Args... args) {
  void* params[] = {static_cast<void*>(&args)..., nullptr};
  return tcpuLaunchKernel(f, gx, gy, 1, 1, 1, 1, 0, nullptr, params, nullptr);
}

unsigned workerThreads() {
  int threads = 1;
  tcpuGetNumThreads(&threads);
  return static_cast<unsigned>(threads);
}

int powerOfTwoAtLeast(int64_t n) {
  int block = 16;
  while (block < n)
    block *= 2;
  return block;
}

// The tutorial's kernel is persistent: program p walks rows p, p + num_programs(0), ...; the
// host picks num_programs (Triton's: NUM_SM x occupancy, at most the rows). tcpu's runtime gives
// each worker thread a contiguous range of programs, so one row per program (num_programs =
// rows) has each thread stream through contiguous rows. One program per thread, the GPU's choice
// translated literally, interleaves the threads' rows instead, which the hardware prefetchers
// follow worse: kernels/softmax_program_per_thread measures that grid beside this one.
void softmaxOverGrid(benchmark::State& state, bool programPerThread) {
  const int32_t rows = 4096, cols = static_cast<int32_t>(state.range(0));
  const std::string name = "softmax_" + std::to_string(powerOfTwoAtLeast(cols));
  tcpuFunction softmax = tutorialFunction("softmax.bc", name.c_str());
  if (!softmax) return state.SkipWithError(tcpuGetLastErrorDetail());
  const std::vector<float> input = filled(static_cast<size_t>(rows) * cols, 0.05f);
  std::vector<float> output(input.size());
  const unsigned programs = programPerThread ? workerThreads() : static_cast<unsigned>(rows);
  for (auto _ : state)
    if (!succeeded(state, launch(softmax, programs, 1, output.data(), input.data(), cols, cols,
                                 rows, cols)))
      return;
  double lastRowSum = 0;
  for (int32_t c = 0; c < cols; ++c)
    lastRowSum += output[static_cast<size_t>(rows - 1) * cols + static_cast<size_t>(c)];
  if (std::fabs(lastRowSum - 1.0) > 1e-4) state.SkipWithError("softmax row does not sum to 1");
  state.SetBytesProcessed(state.iterations() * rows * cols * 2 *
                          static_cast<int64_t>(sizeof(float)));
}

// kernelName's tiles of C are block x block; Input is float, or uint16_t for bf16 inputs (a
// kernel with fp32 output either way).
template <class Input>
void kernelsMatmul(benchmark::State& state, const char* kernelName, int32_t block) {
  const auto n = static_cast<int32_t>(state.range(0));
  tcpuFunction matmul = tutorialFunction("matmul.bc", kernelName);
  if (!matmul) return state.SkipWithError(tcpuGetLastErrorDetail());
  const auto count = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<float> a = filled(count, 0.01f), b = filled(count, 0.02f);
  std::vector<Input> inputA, inputB;
  if constexpr (std::is_same_v<Input, float>) {
    inputA = a;
    inputB = b;
  } else {
    inputA = toBf16(a);
    inputB = toBf16(b);
    for (size_t i = 0; i < count; ++i) { // the values the kernel multiplies
      a[i] = bf16Value(inputA[i]);
      b[i] = bf16Value(inputB[i]);
    }
  }
  std::vector<float> c(count, 0.0f);
  const unsigned grid =
      static_cast<unsigned>(((n + block - 1) / block) * ((n + block - 1) / block));
  for (auto _ : state)
    if (!succeeded(state, launch(matmul, grid, 1, inputA.data(), inputB.data(), c.data(), n, n, n,
                                 n, 1, n, 1, n, 1)))
      return;
  // One element of C against a double dot product.
  const size_t i = count / 3 / static_cast<size_t>(n), j = 7 % static_cast<size_t>(n);
  double want = 0;
  for (size_t k = 0; k < static_cast<size_t>(n); ++k)
    want +=
        static_cast<double>(a[i * static_cast<size_t>(n) + k]) * b[k * static_cast<size_t>(n) + j];
  if (std::fabs(c[i * static_cast<size_t>(n) + j] - want) > 1e-3 * std::fabs(want) + 1e-2)
    state.SkipWithError("matmul computed a wrong element");
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n),
      benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

void kernelsMatmulF32(benchmark::State& state, const char* kernelName, int32_t block) {
  kernelsMatmul<float>(state, kernelName, block);
}
void kernelsMatmulBf16(benchmark::State& state, const char* kernelName, int32_t block) {
  kernelsMatmul<uint16_t>(state, kernelName, block);
}

// Forward: one program per row. Bytes as the tutorial counts them: X read
// and Y written once each (the kernel reads X three times, from cache).
void kernelsLayerNormForward(benchmark::State& state) {
  const int32_t rows = 4096, cols = static_cast<int32_t>(state.range(0));
  tcpuFunction forward = tutorialFunction("layer_norm.bc", "layer_norm_fwd_f32");
  if (!forward) return state.SkipWithError(tcpuGetLastErrorDetail());
  const std::vector<float> x = filled(static_cast<size_t>(rows) * cols, 0.03f);
  const std::vector<float> w = filled(static_cast<size_t>(cols), 0.01f),
                           b = filled(static_cast<size_t>(cols), 0.02f);
  std::vector<float> y(x.size()), mean(static_cast<size_t>(rows)), rstd(mean.size());
  for (auto _ : state)
    if (!succeeded(state, launch(forward, static_cast<unsigned>(rows), 1, x.data(), y.data(),
                                 w.data(), b.data(), mean.data(), rstd.data(), cols, cols, 1e-5f)))
      return;
  if (!(rstd[0] > 0)) state.SkipWithError("layer norm produced no statistics");
  state.SetBytesProcessed(state.iterations() * rows * cols * 2 *
                          static_cast<int64_t>(sizeof(float)));
}

// Backward: dX with the locked partial dW/dB buffers, then their reduction.
// Bytes as the tutorial counts them: X, dY read and dX written once each.
void kernelsLayerNormBackward(benchmark::State& state) {
  const int32_t rows = 4096, cols = static_cast<int32_t>(state.range(0));
  const int block = powerOfTwoAtLeast(cols);
  const int group = block <= 1024 ? 128 : block <= 4096 ? 96 : 64;
  const std::string name = "layer_norm_bwd_dx_f32_" + std::to_string(block);
  tcpuFunction dxKernel = tutorialFunction("layer_norm.bc", name.c_str());
  tcpuFunction dwdbKernel = tutorialFunction("layer_norm.bc", "layer_norm_bwd_dwdb_f32");
  if (!dxKernel || !dwdbKernel) return state.SkipWithError(tcpuGetLastErrorDetail());
  const size_t size = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  const std::vector<float> x = filled(size, 0.03f), dy = filled(size, 0.01f);
  const std::vector<float> w = filled(static_cast<size_t>(cols), 0.01f);
  const std::vector<float> mean(static_cast<size_t>(rows), 0.4f), rstd(mean.size(), 1.7f);
  std::vector<float> dx(size), partialDw(static_cast<size_t>(group) * static_cast<size_t>(cols)),
      partialDb(partialDw.size()), dw(static_cast<size_t>(cols)), db(dw.size());
  std::vector<int32_t> locks(2 * static_cast<size_t>(group));
  for (auto _ : state) {
    std::fill(locks.begin(), locks.end(), 0);
    if (!succeeded(state, launch(dxKernel, static_cast<unsigned>(rows), 1, dx.data(), dy.data(),
                                 partialDw.data(), partialDb.data(), x.data(), w.data(),
                                 mean.data(), rstd.data(), locks.data(), cols, cols)) ||
        !succeeded(state,
                   launch(dwdbKernel, static_cast<unsigned>((cols + 127) / 128), 1,
                          partialDw.data(), partialDb.data(), dw.data(), db.data(), group, cols)))
      return;
  }
  double wantDb = 0;
  for (int32_t r = 0; r < rows; ++r)
    wantDb += dy[static_cast<size_t>(r) * static_cast<size_t>(cols)];
  if (std::fabs(db[0] - wantDb) > 1e-3 * std::fabs(wantDb) + 1e-2)
    state.SkipWithError("layer norm backward computed a wrong dB");
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(size) * 3 *
                          static_cast<int64_t>(sizeof(float)));
}

// Z = 1, H = 4, HEAD_DIM = 64, fp16; FLOPs as the tutorial counts them:
// 2 matmuls of 2 * N_CTX^2 * HEAD_DIM per head, halved when causal. `kernel` is one of the
// tutorial's d64 kernels, whose programs own `blockM` query rows each.
void kernelsAttention(benchmark::State& state, const char* kernel, int blockM) {
  const bool causal = std::string_view(kernel).find("causal") != std::string_view::npos;
  const int32_t heads = 4, n = static_cast<int32_t>(state.range(0)), d = 64;
  tcpuFunction attn = tutorialFunction("attention.bc", kernel);
  if (!attn) return state.SkipWithError(tcpuGetLastErrorDetail());
  const size_t size = static_cast<size_t>(heads) * static_cast<size_t>(n) * d;
  // fp16 bit patterns of magnitudes in [0.125, 0.25), both signs.
  std::vector<uint16_t> q(size), k(size), v(size), out(size);
  for (size_t i = 0; i < size; ++i) {
    q[i] = static_cast<uint16_t>((i % 2 ? 0x8000u : 0u) | (0x3000u + (i * 37) % 1024));
    k[i] = static_cast<uint16_t>((i % 3 ? 0u : 0x8000u) | (0x3000u + (i * 53) % 1024));
    v[i] = static_cast<uint16_t>((i % 5 ? 0x8000u : 0u) | (0x3000u + (i * 71) % 1024));
  }
  std::vector<float> m(static_cast<size_t>(heads) * static_cast<size_t>(n));
  const int32_t sh = n * d, sz = heads * sh;
  const unsigned gridX = static_cast<unsigned>((n + blockM - 1) / blockM);
  for (auto _ : state)
    if (!succeeded(state, launch(attn, gridX, unsigned{heads}, q.data(), k.data(), v.data(), 0.5f,
                                 m.data(), out.data(), sz, sh, d, sz, sh, d, sz, sh, d, sz, sh, d,
                                 heads, n)))
      return;
  if (!std::isfinite(m[0])) state.SkipWithError("attention produced no row statistics");
  const double flops = 4.0 * heads * static_cast<double>(n) * n * d * (causal ? 0.5 : 1.0);
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

BENCHMARK_CAPTURE(softmaxOverGrid, rowPerProgram, false)
    ->Name("kernels/softmax/4096x")
    ->RangeMultiplier(2)
    ->Range(256, 8192)
    ->Arg(1000) // ragged rows: the kernel's block is the next power of two, its tail masked
    ->Arg(3000)
    ->UseRealTime();
BENCHMARK_CAPTURE(softmaxOverGrid, programPerThread, true)
    ->Name("kernels/softmax_program_per_thread/4096x")
    ->Arg(1024)
    ->Arg(4096)
    ->UseRealTime();
// n of the matmul benchmarks.
void matmulSizes(benchmark::internal::Benchmark* b) {
  b->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
}
BENCHMARK_CAPTURE(kernelsMatmulF32, tutorialTiles, "matmul_f32", 64)
    ->Name("kernels/matmul_f32")
    ->Apply(matmulSizes);
BENCHMARK_CAPTURE(kernelsMatmulF32, wrappedColumns, "matmul_f32_wrap", 64)
    ->Name("kernels/matmul_f32_wrap")
    ->Apply(matmulSizes);
BENCHMARK_CAPTURE(kernelsMatmulF32, largeTiles, "matmul_f32_large", 128)
    ->Name("kernels/matmul_f32_large")
    ->Apply(matmulSizes);
// bf16 inputs, fp32 output (vs baseline/onednn_matmul_bf16): AVX512-BF16 where the CPU has it.
BENCHMARK_CAPTURE(kernelsMatmulBf16, bf16, "matmul_bf16_f32out", 128)
    ->Name("kernels/matmul_bf16")
    ->Apply(matmulSizes);
BENCHMARK(kernelsLayerNormForward)
    ->Name("kernels/layer_norm_fwd/4096x")
    ->Arg(1024)
    ->Arg(4096)
    ->UseRealTime();
BENCHMARK(kernelsLayerNormBackward)
    ->Name("kernels/layer_norm_bwd/4096x")
    ->Arg(1024)
    ->Arg(4096)
    ->UseRealTime();
// The tutorial's 64 x 32 blocks, and its autotuning's 128 x 64 (BLOCK_N <= HEAD_DIM, as the
// tutorial asserts): each key block's softmax bookkeeping and its rescaling of the accumulator
// are then spread over twice the rows and columns of products.
void attentionSizes(benchmark::internal::Benchmark* b) {
  b->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
}
BENCHMARK_CAPTURE(kernelsAttention, noncausal, "attn_fwd_d64", 64)
    ->Name("kernels/attention_fwd_d64/4x")
    ->Apply(attentionSizes);
BENCHMARK_CAPTURE(kernelsAttention, causal, "attn_fwd_d64_causal", 64)
    ->Name("kernels/attention_fwd_d64_causal/4x")
    ->Apply(attentionSizes);
BENCHMARK_CAPTURE(kernelsAttention, noncausal_large, "attn_fwd_d64_large", 128)
    ->Name("kernels/attention_fwd_d64_large/4x")
    ->Apply(attentionSizes);
BENCHMARK_CAPTURE(kernelsAttention, causal_large, "attn_fwd_d64_causal_large", 128)
    ->Name("kernels/attention_fwd_d64_causal_large/4x")
    ->Apply(attentionSizes);

} // namespace
} // namespace tcpu::bench
