// jit/vector_add/<n>: tutorial 01's IR kernel (BLOCK 1024) compiled by codegen
// for this CPU, launched over cdiv(n, 1024) programs; kernels/vector_add/<n>:
// the same tutorial written in tl (kernels/tutorials/vector_add.cpp); baseline/omp_add/<n>: a
// hand-written OpenMP loop (omp_add_baseline.cpp) in the same run. Both
// report bytes moved per second (two loads and one store of fp32 per element).
#include <cstdlib>
#include <memory>

#include "baselines/omp_add_baseline.hpp"
#include "bench_support.hpp"
#include "tcpu/codegen.h"

namespace tcpu::bench {
namespace {

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<float[], FreeDeleter>;

Buffer allocate(int64_t n) {
  return Buffer(static_cast<float*>(std::aligned_alloc(64, static_cast<size_t>(n) * 4)));
}

// Inputs touched in parallel first, so pages land as the kernels will use them.
struct AddBuffers {
  explicit AddBuffers(int64_t n) : a(allocate(n)), b(allocate(n)), out(allocate(n)) {
    fillParallel(a.get(), b.get(), out.get(), n);
  }
  Buffer a, b, out;
};

void setBytes(benchmark::State& state, int64_t n) {
  state.SetBytesProcessed(state.iterations() * n * 3 * static_cast<int64_t>(sizeof(float)));
}

// Launches add_kernel of the module at path over cdiv(n, 1024) programs.
void vectorAdd(benchmark::State& state, const char* path) {
  tcpuCodegenRegister();
  const int64_t n = state.range(0);
  tcpuModule module;
  if (!succeeded(state, tcpuModuleLoad(&module, path))) return;
  tcpuFunction add;
  if (!succeeded(state, tcpuModuleGetFunction(&add, module, "add_kernel"))) return;
  AddBuffers buffers(n);
  float *pa = buffers.a.get(), *pb = buffers.b.get(), *po = buffers.out.get();
  int32_t count = static_cast<int32_t>(n);
  void* params[] = {&pa, &pb, &po, &count};
  const auto grid = static_cast<unsigned>((n + 1023) / 1024);
  for (auto _ : state)
    if (!succeeded(state, tcpuLaunchKernel(add, grid, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr)))
      break;
  if (!verifySum(pa, pb, po, n)) state.SkipWithError("vector_add computed a wrong sum");
  setBytes(state, n);
  tcpuModuleUnload(module);
}

void jitVectorAdd(benchmark::State& state) {
  vectorAdd(state, TCPU_BENCH_VECTOR_ADD_IR);
}
void kernelsVectorAdd(benchmark::State& state) {
  vectorAdd(state, TCPU_TUTORIAL_KERNELS_DIR "/vector_add.bc");
}

void baselineOmpAdd(benchmark::State& state) {
  const int64_t n = state.range(0);
  AddBuffers buffers(n);
  for (auto _ : state)
    ompAdd(buffers.a.get(), buffers.b.get(), buffers.out.get(), n);
  if (!verifySum(buffers.a.get(), buffers.b.get(), buffers.out.get(), n))
    state.SkipWithError("baseline computed a wrong sum");
  setBytes(state, n);
}

BENCHMARK(jitVectorAdd)->Name("jit/vector_add")->Arg(1 << 20)->Arg(1 << 26)->UseRealTime();
BENCHMARK(kernelsVectorAdd)->Name("kernels/vector_add")->Arg(1 << 20)->Arg(1 << 26)->UseRealTime();
BENCHMARK(baselineOmpAdd)->Name("baseline/omp_add")->Arg(1 << 20)->Arg(1 << 26)->UseRealTime();

} // namespace
} // namespace tcpu::bench
