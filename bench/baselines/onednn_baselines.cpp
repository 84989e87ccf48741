// oneDNN baselines for the kernels issue: baseline/onednn_sgemm/<n> (dnnl_sgemm,
// row-major n x n x n, fp32), baseline/onednn_matmul_bf16/<n> (the same in
// bf16, fp32 out) and baseline/onednn_softmax/4096x<N> (the softmax primitive
// over rows). They need no tcpu code: tcpu's kernels are measured against them
// in the same run.
#include <oneapi/dnnl/dnnl.hpp>

#include <vector>

#include "cpp/bench_support.hpp"

namespace tcpu::bench {
namespace {

void onednnSgemm(benchmark::State& state) {
  const auto n = static_cast<dnnl_dim_t>(state.range(0));
  const auto count = static_cast<size_t>(n * n);
  const std::vector<float> a = filled(count, 0.01f), b = filled(count, 0.02f);
  std::vector<float> c(count, 0.0f);
  for (auto _ : state) {
    if (dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n) !=
        dnnl_success) {
      state.SkipWithError("dnnl_sgemm failed");
      return;
    }
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n),
      benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

// bf16 A and B (row-major, rounded as the tcpu benchmark rounds them), fp32 C: oneDNN's matmul
// primitive, which takes AVX512-BF16 or AMX where the CPU has them (and bf16 emulated on fp32
// units where it does not: its verbose mode says which).
void onednnMatmulBf16(benchmark::State& state) {
  const dnnl::memory::dim n = state.range(0);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  using dt = dnnl::memory::data_type;
  const dnnl::memory::desc inputs({n, n}, dt::bf16, dnnl::memory::format_tag::ab);
  const dnnl::memory::desc result({n, n}, dt::f32, dnnl::memory::format_tag::ab);
  const auto count = static_cast<size_t>(n * n);
  std::vector<uint16_t> a = toBf16(filled(count, 0.01f)), b = toBf16(filled(count, 0.02f));
  std::vector<float> c(count);
  dnnl::memory ma(inputs, engine, a.data()), mb(inputs, engine, b.data());
  dnnl::memory mc(result, engine, c.data());
  try {
#if DNNL_VERSION_MAJOR >= 3
    const dnnl::matmul::primitive_desc descriptor(engine, inputs, inputs, result);
#else
    const dnnl::matmul::primitive_desc descriptor(dnnl::matmul::desc(inputs, inputs, result),
                                                  engine);
#endif
    dnnl::matmul matmul(descriptor);
    for (auto _ : state) {
      matmul.execute(stream, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
      stream.wait();
    }
  } catch (const dnnl::error& error) { // no bf16 matmul on this CPU
    return state.SkipWithError(error.what());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n),
      benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

void onednnSoftmax(benchmark::State& state) {
  const dnnl::memory::dim rows = 4096, cols = state.range(0);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const dnnl::memory::desc layout({rows, cols}, dnnl::memory::data_type::f32,
                                  dnnl::memory::format_tag::ab);
  std::vector<float> input = filled(static_cast<size_t>(rows * cols), 0.05f);
  std::vector<float> output(input.size());
  dnnl::memory source(layout, engine, input.data()), destination(layout, engine, output.data());
#if DNNL_VERSION_MAJOR >= 3
  // oneDNN 3 (Ubuntu 24.04, Homebrew) builds primitive descriptors directly.
  const dnnl::softmax_forward::primitive_desc descriptor(engine, dnnl::prop_kind::forward_inference,
                                                         dnnl::algorithm::softmax_accurate, layout,
                                                         layout, 1);
#else
  const dnnl::softmax_forward::primitive_desc descriptor(
      dnnl::softmax_forward::desc(dnnl::prop_kind::forward_inference, layout, 1), engine);
#endif
  dnnl::softmax_forward softmax(descriptor);
  for (auto _ : state) {
    softmax.execute(stream, {{DNNL_ARG_SRC, source}, {DNNL_ARG_DST, destination}});
    stream.wait();
  }
  state.SetBytesProcessed(state.iterations() * rows * cols * 2 *
                          static_cast<int64_t>(sizeof(float)));
}

BENCHMARK(onednnSgemm)
    ->Name("baseline/onednn_sgemm")
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(onednnMatmulBf16)
    ->Name("baseline/onednn_matmul_bf16")
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(onednnSoftmax)
    ->Name("baseline/onednn_softmax/4096x")
    ->RangeMultiplier(2)
    ->Range(256, 8192)
    ->Arg(1000) // ragged rows: the kernel's block is the next power of two, its tail masked
    ->Arg(3000)
    ->UseRealTime();

} // namespace
} // namespace tcpu::bench
