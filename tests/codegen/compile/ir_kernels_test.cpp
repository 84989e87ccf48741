// Hand-written IR kernels load through codegen, run over grids and give the
// right results; their math becomes SLEEF calls.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <vector>

#include "codegen_test_support.hpp"

namespace tcpu::test {
namespace {

class IrKernels : public CodegenTest {};

// ULP distance of a float result from a long double reference.
double ulpError(float result, long double reference) {
  const float rounded = static_cast<float>(reference);
  if (std::isnan(reference)) return std::isnan(result) ? 0 : INFINITY;
  if (std::isinf(rounded)) return result == rounded ? 0 : INFINITY;
  const float magnitude = std::fabs(rounded);
  const float ulp = std::nextafter(magnitude, INFINITY) - magnitude;
  return static_cast<double>(std::fabs(static_cast<long double>(result) - reference) / ulp);
}

TEST_F(IrKernels, VectorAddOverARaggedGrid) {
  const tcpuFunction add = function(load("vector_add.ll"), "add_kernel");
  const int32_t n = 98432; // tutorial 01's size: not a multiple of the block
  std::vector<float> x(n), y(n), out(n, -1.0f);
  for (int32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i) * 0.37f;
    y[i] = 1.0f / static_cast<float>(i + 1);
  }
  float *px = x.data(), *py = y.data(), *po = out.data();
  int32_t count = n;
  void* params[] = {&px, &py, &po, &count};
  ASSERT_TCPU(tcpuLaunchKernel(add, (n + 1023) / 1024, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], x[i] + y[i]) << i; // exact: one rounding
}

TEST_F(IrKernels, MaskedBlocksGetAnUnmaskedTwinAndRaggedEdgesStayExact) {
  const tcpuModule module = load("vector_add.ll");
  // Full blocks store plain vectors; only the masked twin uses llvm.masked.store.
  const std::string optimized = text(module, TCPU_MODULE_TEXT_OPTIMIZED_IR);
  EXPECT_NE(optimized.find("store <"), std::string::npos)
      << "mask versioning did not apply to tutorial 01's kernel";
  const tcpuFunction add = function(module, "add_kernel");
  for (const int32_t n : {1, 1023, 1024, 1025, 2047, 4096, 4097}) {
    std::vector<float> x(n + 64, 1.0f), y(n + 64, 2.0f), out(n + 64, -7.0f);
    float *px = x.data(), *py = y.data(), *po = out.data();
    int32_t count = n;
    void* params[] = {&px, &py, &po, &count};
    ASSERT_TCPU(
        tcpuLaunchKernel(add, (n + 1023) / 1024, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
    for (int32_t i = 0; i < n + 64; ++i)
      ASSERT_EQ(out[i], i < n ? 3.0f : -7.0f) << "n=" << n << " i=" << i; // nothing past n
  }
}

TEST_F(IrKernels, GuardedBoundIsNotHoistedIntoTheCheck) {
  // b = 0, and no element passes the guard: the division never runs in the source.
  const tcpuFunction k = function(load("guarded_bound.ll"), "k");
  std::vector<int32_t> data(4096, 0), out(4096, 0);
  int32_t *pd = data.data(), *po = out.data();
  int32_t a = 10, b = 0;
  void* params[] = {&pd, &po, &a, &b};
  ASSERT_TCPU(tcpuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(std::count(out.begin(), out.end(), 0), 4096);
}

TEST_F(IrKernels, KernelWithAnotherCallingConventionStillRuns) {
  const tcpuFunction k = function(load("fastcc_kernel.ll"), "fast_kernel");
  std::vector<int32_t> out(8, 0);
  int32_t* po = out.data();
  void* params[] = {&po};
  ASSERT_TCPU(tcpuLaunchKernel(k, 8, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(out, std::vector<int32_t>(8, 7));
}

TEST_F(IrKernels, VectorMathOfOddWidths) {
  const tcpuFunction k = function(load("odd_vectors.ll"), "odd");
  std::vector<float> f(12 * 4);
  std::vector<double> d(6 * 4);
  for (size_t i = 0; i < f.size(); ++i)
    f[i] = static_cast<float>(i) * 0.1f - 2.0f;
  for (size_t i = 0; i < d.size(); ++i)
    d[i] = static_cast<double>(i) * 0.3 - 3.0;
  const std::vector<float> fin = f;
  const std::vector<double> din = d;
  float* pf = f.data();
  double* pd = d.data();
  void* params[] = {&pf, &pd};
  ASSERT_TCPU(tcpuLaunchKernel(k, 4, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  for (size_t i = 0; i < f.size(); ++i)
    EXPECT_LE(ulpError(f[i], std::exp(static_cast<long double>(fin[i]))), 1.0) << i;
  for (size_t i = 0; i < d.size(); ++i)
    EXPECT_NEAR(d[i], std::sin(din[i]), 1e-15) << i;
}

TEST_F(IrKernels, BitcodeAndMemoryImagesLoadToo) {
  tcpuModule fromBitcode = load("vector_add.bc");
  ASSERT_NE(fromBitcode, nullptr);
  std::ifstream in(irPath("vector_add.ll"), std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  tcpuModule fromMemory;
  ASSERT_TCPU(tcpuModuleLoadData(&fromMemory, text.data(), text.size()));
  modules_.push_back(fromMemory);
  for (tcpuModule module : {fromBitcode, fromMemory}) {
    const tcpuFunction add = function(module, "add_kernel");
    std::vector<float> x(3000, 2.0f), y(3000, 0.5f), out(3000, 0.0f);
    float *px = x.data(), *py = y.data(), *po = out.data();
    int32_t n = 3000;
    void* params[] = {&px, &py, &po, &n};
    ASSERT_TCPU(tcpuLaunchKernel(add, 3, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_EQ(out, std::vector<float>(3000, 2.5f));
  }
}

TEST_F(IrKernels, KernelSeesAllSixProgramValues) {
  const tcpuFunction ids = function(load("program_ids.ll"), "program_ids");
  const uint32_t gx = 5, gy = 3, gz = 4;
  std::vector<int32_t> out(gx * gy * gz * 6, -1);
  int32_t* po = out.data();
  void* params[] = {&po};
  for (int threads : {1, 2}) {
    ASSERT_TCPU(tcpuSetNumThreads(threads));
    ASSERT_TCPU(tcpuLaunchKernel(ids, gx, gy, gz, 1, 1, 1, 0, nullptr, params, nullptr));
    for (uint32_t z = 0; z < gz; ++z)
      for (uint32_t y = 0; y < gy; ++y)
        for (uint32_t x = 0; x < gx; ++x) {
          const int32_t* got = &out[(x + gx * (y + gy * z)) * 6];
          const std::vector<int32_t> want = {int32_t(x),  int32_t(y),  int32_t(z),
                                             int32_t(gx), int32_t(gy), int32_t(gz)};
          ASSERT_EQ(std::vector<int32_t>(got, got + 6), want) << x << "," << y << "," << z;
        }
  }
  ASSERT_TCPU(tcpuSetNumThreads(0));
}

// Runs a float kernel (in, out[, n]: extra values are ignored by kernels
// without n) and checks exp to within 1 ULP.
void checkExp(tcpuFunction kernel, int32_t n, unsigned grid) {
  std::vector<float> in(n), out(n, 0.0f);
  for (int32_t i = 0; i < n; ++i)
    in[i] = -80.0f + 160.0f * static_cast<float>(i) / static_cast<float>(n);
  float *pi = in.data(), *po = out.data();
  void* params[] = {&pi, &po, &n};
  ASSERT_TCPU(tcpuLaunchKernel(kernel, grid, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  double worst = 0;
  for (int32_t i = 0; i < n; ++i)
    worst = std::max(worst, ulpError(out[i], std::exp(static_cast<long double>(in[i]))));
  EXPECT_LE(worst, 1.0) << "max ULP error of exp";
}

TEST_F(IrKernels, VectorExpIntrinsicBecomesSleef) {
  const tcpuModule module = load("exp_vector.ll");
  checkExp(function(module, "exp_block"), 16 * 200, 200);
  EXPECT_NE(text(module, TCPU_MODULE_TEXT_ASSEMBLY).find("Sleef_expf"), std::string::npos);
}

TEST_F(IrKernels, LibdeviceExpBecomesSleef) {
  const tcpuModule module = load("nv_expf.ll");
  checkExp(function(module, "nv_exp"), 5000, (5000 + 255) / 256);
  const std::string assembly = text(module, TCPU_MODULE_TEXT_ASSEMBLY);
  EXPECT_NE(assembly.find("Sleef_expf"), std::string::npos);
  EXPECT_EQ(assembly.find("__nv_expf"), std::string::npos);
}

TEST_F(IrKernels, LoopOfExpfCallsIsVectorizedIntoSleef) {
  const tcpuModule module = load("expf_loop.ll");
  checkExp(function(module, "expf_loop"), 10000, (10000 + 4095) / 4096);
  const std::string assembly = text(module, TCPU_MODULE_TEXT_ASSEMBLY);
  // A vector variant (4, 8 or 16 lanes), not only the scalar one.
  const bool vectorCall = assembly.find("Sleef_expf4_u10") != std::string::npos ||
                          assembly.find("Sleef_expf8_u10") != std::string::npos ||
                          assembly.find("Sleef_expf16_u10") != std::string::npos;
  EXPECT_TRUE(vectorCall) << assembly.substr(0, 4000);
}

TEST_F(IrKernels, MathUlpOptionSelectsSleefsFasterVariants) {
  // A loop of llvm.sin.f32, which SLEEF has in 1.0- and 3.5-ULP variants.
  const std::string ir = R"(
declare float @llvm.sin.f32(float)
define void @sines(ptr noalias %in, ptr noalias %out, i32 %pid, i32 %py, i32 %pz, i32 %gx,
                   i32 %gy, i32 %gz) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %pin = getelementptr inbounds float, ptr %in, i64 %i
  %pout = getelementptr inbounds float, ptr %out, i64 %i
  %v = load float, ptr %pin
  %s = call float @llvm.sin.f32(float %v)
  store float %s, ptr %pout
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 1024
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)";
  for (const uintptr_t ulp : {uintptr_t{10}, uintptr_t{35}}) {
    tcpuJitOption keys[] = {TCPU_JIT_MATH_ULP};
    void* values[] = {reinterpret_cast<void*>(ulp)};
    tcpuModule module;
    ASSERT_TCPU(tcpuModuleLoadDataEx(&module, ir.data(), ir.size(), 1, keys, values));
    modules_.push_back(module);
    const std::string assembly = text(module, TCPU_MODULE_TEXT_ASSEMBLY);
    EXPECT_NE(assembly.find(ulp == 10 ? "_u10" : "_u35"), std::string::npos) << ulp;
    EXPECT_EQ(assembly.find(ulp == 10 ? "_u35" : "_u10"), std::string::npos) << ulp;
    std::vector<float> in(1024), out(1024);
    for (int i = 0; i < 1024; ++i)
      in[i] = static_cast<float>(i) * 0.01f;
    float *pi = in.data(), *po = out.data();
    void* params[] = {&pi, &po};
    ASSERT_TCPU(
        tcpuLaunchKernel(function(module, "sines"), 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
    double worst = 0;
    for (int i = 0; i < 1024; ++i)
      worst = std::max(worst, ulpError(out[i], std::sin(static_cast<long double>(in[i]))));
    EXPECT_LE(worst, ulp == 10 ? 1.0 : 3.5);
  }
}

TEST_F(IrKernels, NamedTargetCpuUsesItsOwnSleefVariants) {
#if defined(__x86_64__)
  // x86-64-v2 has SSE4.2 but no AVX: math must use SLEEF's 128-bit sse4 variants.
  const tcpuModule module =
      load("expf_loop.ll", JitOptions().set(TCPU_JIT_TARGET_CPU, "x86-64-v2"));
  const std::string assembly = text(module, TCPU_MODULE_TEXT_ASSEMBLY);
  EXPECT_NE(assembly.find("Sleef_expf4_u10sse4"), std::string::npos);
  EXPECT_EQ(assembly.find("ymm"), std::string::npos) << "AVX registers in x86-64-v2 code";
  checkExp(function(module, "expf_loop"), 10000, (10000 + 4095) / 4096);
#else
  GTEST_SKIP() << "x86-64 CPU names only";
#endif
}

TEST_F(IrKernels, KernelsUseZmmRegistersWhereAvx512IsLegal) {
#if defined(__x86_64__)
  // LLVM's tuning for Intel's AVX-512 CPUs prefers ymm registers; codegen asks for zmm. The
  // loop is vectorized inside the kernel's entry function, which must carry that request too.
  const tcpuModule module =
      load("expf_loop.ll", JitOptions().set(TCPU_JIT_TARGET_CPU, "skylake-avx512"));
  const std::string assembly = text(module, TCPU_MODULE_TEXT_ASSEMBLY);
  // 16 lanes of fp32: the loop was vectorized for zmm registers.
  EXPECT_NE(assembly.find("Sleef_expf16_u10avx512f"), std::string::npos)
      << assembly.substr(0, 4000);
#else
  GTEST_SKIP() << "x86-64 CPU names only";
#endif
}

TEST_F(IrKernels, SignatureSpecializesConstexprAndOne) {
  std::vector<float> in(1000), out(1000, 0.0f);
  for (int i = 0; i < 1000; ++i)
    in[i] = static_cast<float>(i);
  float *po = out.data(), *pi = in.data();
  float alpha = 0.5f;
  { // BLOCK bound to 256 at compile time: the launch passes four values.
    const tcpuModule module = load(
        "scale.ll", JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32:16, *fp32:16, fp32, i32, 256"));
    const tcpuFunction scale = function(module, "scale");
    unsigned count = 0;
    ASSERT_TCPU(tcpuFuncGetParamCount(&count, scale));
    EXPECT_EQ(count, 4u);
    tcpuParamDesc info;
    ASSERT_TCPU(tcpuFuncGetParamInfo(&info, scale, 0));
    EXPECT_EQ(info.type, static_cast<uint32_t>(TCPU_TYPE_PTR));
    EXPECT_EQ(info.pointee, static_cast<uint32_t>(TCPU_TYPE_FP32));
    EXPECT_STREQ(info.name, "out");
    int32_t n = 1000;
    void* params[] = {&po, &pi, &alpha, &n};
    ASSERT_TCPU(tcpuLaunchKernel(scale, 4, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
    for (int i = 0; i < 1000; ++i)
      ASSERT_EQ(out[i], in[i] * 0.5f) << i;
  }
  { // n specialized to 1 (":1") is dropped from the launch, as Triton does.
    const tcpuModule module =
        load("scale.ll", JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32, *fp32, fp32, i32:1, 8"));
    const tcpuFunction scale = function(module, "scale");
    unsigned count = 0;
    ASSERT_TCPU(tcpuFuncGetParamCount(&count, scale));
    EXPECT_EQ(count, 3u);
    out.assign(1000, -1.0f);
    alpha = 3.0f;
    void* params[] = {&po, &pi, &alpha};
    ASSERT_TCPU(tcpuLaunchKernel(scale, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_EQ(out[0], 0.0f);
    EXPECT_EQ(out[1], -1.0f); // only one element exists
  }
}

TEST_F(IrKernels, ModulesOfTheSameIrAreIndependent) {
  const tcpuModule first = load("vector_add.ll");
  const tcpuModule second = load("vector_add.ll");
  EXPECT_NE(function(first, "add_kernel"), function(second, "add_kernel"));
  ASSERT_TCPU(tcpuModuleUnload(first));
  modules_.erase(modules_.begin());
  std::vector<float> x(10, 1.0f), out(10, 0.0f);
  float *px = x.data(), *po = out.data();
  int32_t n = 10;
  void* params[] = {&px, &px, &po, &n};
  ASSERT_TCPU(tcpuLaunchKernel(function(second, "add_kernel"), 1, 1, 1, 1, 1, 1, 0, nullptr, params,
                               nullptr));
  EXPECT_EQ(out, std::vector<float>(10, 2.0f));
}

} // namespace
} // namespace tcpu::test
