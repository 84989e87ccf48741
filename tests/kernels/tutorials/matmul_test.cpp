// Tutorial 03 (kernels/tutorials/matmul.cpp) against a double-precision product.
#include "tcpu/codegen.h"
#include "tutorial_test_support.hpp"

namespace tcpu::test {
namespace {

constexpr int kBlock = 64;       // BLOCK_SIZE_M and BLOCK_SIZE_N of the instantiations
constexpr int kLargeBlock = 128; // ... and of matmul_f32_large

struct Case {
  int m, n, k;
};

std::vector<double> reference(const std::vector<float>& a, const std::vector<float>& b, int m,
                              int n, int k, bool leaky) {
  std::vector<double> c(static_cast<size_t>(m) * static_cast<size_t>(n));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p)
        s += static_cast<double>(
                 a[static_cast<size_t>(i) * static_cast<size_t>(k) + static_cast<size_t>(p)]) *
             b[static_cast<size_t>(p) * static_cast<size_t>(n) + static_cast<size_t>(j)];
      c[static_cast<size_t>(i) * static_cast<size_t>(n) + static_cast<size_t>(j)] =
          leaky && s < 0 ? 0.01 * s : s;
    }
  return c;
}

unsigned gridFor(const Case& c, int block = kBlock) {
  return static_cast<unsigned>(((c.m + block - 1) / block) * ((c.n + block - 1) / block));
}

class Matmul : public TutorialTest, public ::testing::WithParamInterface<Case> {};

TEST_P(Matmul, Fp32MatchesDoubleReference) {
  const Case c = GetParam();
  tcpuModule module = load("matmul.bc");
  std::vector<float> tutorialTiles; // matmul_f32's result
  struct Variant {
    const char* name;
    bool leaky;
    int block;
  };
  for (const auto [name, leaky, block] :
       {Variant{"matmul_f32", false, kBlock}, Variant{"matmul_f32_leaky_relu", true, kBlock},
        Variant{"matmul_f32_large", false, kLargeBlock},
        Variant{"matmul_f32_wrap", false, kBlock}}) {
    tcpuFunction f = function(module, name);
    const auto a = randomFloats(static_cast<size_t>(c.m) * static_cast<size_t>(c.k), 21);
    const auto b = randomFloats(static_cast<size_t>(c.k) * static_cast<size_t>(c.n), 22);
    std::vector<float> out(static_cast<size_t>(c.m) * static_cast<size_t>(c.n) + 1, -9.0f);
    ASSERT_TCPU(launch(f, gridFor(c, block), 1, 1, a.data(), b.data(), out.data(), c.m, c.n, c.k,
                       c.k, 1, c.n, 1, c.n, 1));
    EXPECT_EQ(out.back(), -9.0f) << "wrote past C";
    out.pop_back();
    // fp32 accumulation of k products of magnitude <= 1: error <= k * 2^-24 * sum|a||b|
    // <= k^2 * 6e-8 in the worst case; random signs keep it near sqrt(k) of that.
    // 1e-5 * k absolute bounds it with margin for k <= 1024.
    EXPECT_TRUE(allClose(out, reference(a, b, c.m, c.n, c.k, leaky), 1e-5 * c.k, 0)) << name;
    // Every element sums in k order whatever the tiles (of C, of K, of registers): bit for bit.
    if (!leaky && tutorialTiles.empty()) {
      tutorialTiles = out;
    } else if (!leaky) {
      EXPECT_EQ(out, tutorialTiles) << name << " against matmul_f32";
    }
  }
}

TEST_P(Matmul, Fp16InputsAccumulateInFp32) {
  const Case c = GetParam();
  tcpuModule module = load("matmul.bc");
  const auto a32 = randomFloats(static_cast<size_t>(c.m) * static_cast<size_t>(c.k), 23);
  const auto b32 = randomFloats(static_cast<size_t>(c.k) * static_cast<size_t>(c.n), 24);
  const std::vector<uint16_t> a = toHalf(a32), b = toHalf(b32);
  const std::vector<double> want = reference(toFloat(a), toFloat(b), c.m, c.n, c.k, false);
  const size_t size = static_cast<size_t>(c.m) * static_cast<size_t>(c.n);

  std::vector<float> out32(size);
  ASSERT_TCPU(launch(function(module, "matmul_f16_f32out"), gridFor(c), 1, 1, a.data(), b.data(),
                     out32.data(), c.m, c.n, c.k, c.k, 1, c.n, 1, c.n, 1));
  // Products of fp16 values are exact in fp32; only the fp32 sum rounds (as above).
  EXPECT_TRUE(allClose(out32, want, 1e-5 * c.k, 0));

  std::vector<uint16_t> out16(size);
  ASSERT_TCPU(launch(function(module, "matmul_f16"), gridFor(c), 1, 1, a.data(), b.data(),
                     out16.data(), c.m, c.n, c.k, c.k, 1, c.n, 1, c.n, 1));
  const std::vector<float> widened = toFloat(out16);
  // Plus the final rounding to fp16: half an ULP, 2^-11 relative. The tutorial's own
  // test uses atol 1e-2 against torch.
  EXPECT_TRUE(allClose(widened, want, 1e-5 * c.k, 1.0 / 2048));
}

INSTANTIATE_TEST_SUITE_P(Shapes, Matmul,
                         ::testing::Values(Case{512, 512, 512}, Case{1, 1, 1}, Case{64, 64, 32},
                                           Case{65, 70, 33}, Case{200, 130, 77}, Case{17, 600, 300},
                                           Case{640, 8, 5}));

// dot's register tile is sized by the target's vector width (32 columns where zmm registers are
// preferred, 16 elsewhere); each element still sums in k order, so the tile must not change a
// bit of the result.
TEST_F(TutorialTest, MatmulResultsDoNotDependOnTheTargetsTile) {
  const auto run = [&](const char* cpu) {
    tcpuJitOption option = TCPU_JIT_TARGET_CPU;
    void* value = const_cast<char*>(cpu);
    tcpuModule module = nullptr;
    // An empty CPU name is no option at all: the host.
    const tcpuResult loaded = tcpuModuleLoadEx(&module, tutorialPath("matmul.bc").c_str(),
                                               *cpu ? 1u : 0u, &option, &value);
    keep(loaded, module, cpu);
    const Case c{200, 136, 72};
    const auto a = randomFloats(static_cast<size_t>(c.m) * static_cast<size_t>(c.k), 25);
    const auto b = randomFloats(static_cast<size_t>(c.k) * static_cast<size_t>(c.n), 26);
    std::vector<float> out(static_cast<size_t>(c.m) * static_cast<size_t>(c.n));
    EXPECT_EQ(launch(function(module, "matmul_f32"), gridFor(c), 1, 1, a.data(), b.data(),
                     out.data(), c.m, c.n, c.k, c.k, 1, c.n, 1, c.n, 1),
              TCPU_SUCCESS)
        << cpu;
    return out;
  };
#if defined(__x86_64__)
  // The host (6 x 32 in zmm registers where it has AVX-512) against AVX2 code
  // (6 x 16 in ymm registers). Both fuse multiply-adds (fmuladd contracts where the target has
  // FMA; SSE2 code without it rounds twice and differs, by design, not by tile).
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
    GTEST_SKIP() << "this host does not run AVX2 + FMA code";
  // The host by name, not by default: TCPU_TARGET_CPU may name another CPU for the whole run.
  const char* hostCpu = nullptr;
  const char* hostFeatures = nullptr;
  ASSERT_EQ(tcpuCodegenHostTarget(&hostCpu, &hostFeatures), TCPU_SUCCESS);
  const std::vector<float> host = run(hostCpu);
  const std::vector<float> avx2 = run("x86-64-v3");
  ASSERT_FALSE(host.empty());
  EXPECT_EQ(std::memcmp(host.data(), avx2.data(), host.size() * sizeof(float)), 0);
#else
  GTEST_SKIP() << "the CPUs named are x86's";
#endif
}

TEST_F(TutorialTest, MatmulHonoursStrides) {
  // C^T = (A x B)^T via strides: A row-major read as columns, C written transposed.
  const int m = 70, n = 50, k = 40;
  const auto a = randomFloats(static_cast<size_t>(m * k), 25); // stored k x m (A transposed)
  const auto b = randomFloats(static_cast<size_t>(k * n), 26);
  std::vector<float> aRowMajor(static_cast<size_t>(m * k));
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p)
      aRowMajor[static_cast<size_t>(i * k + p)] = a[static_cast<size_t>(p * m + i)];
  std::vector<float> cT(static_cast<size_t>(m * n));
  ASSERT_TCPU(launch(function(load("matmul.bc"), "matmul_f32"), 2u * 1u, 1, 1, a.data(), b.data(),
                     cT.data(), m, n, k, 1, m, n, 1, 1, m));
  const auto want = reference(aRowMajor, b, m, n, k, false);
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      c[static_cast<size_t>(i * n + j)] = cT[static_cast<size_t>(j * m + i)];
  EXPECT_TRUE(allClose(c, want, 1e-5 * k, 0));
}

} // namespace
} // namespace tcpu::test
