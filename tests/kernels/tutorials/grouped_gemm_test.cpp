// Tutorial 08 (kernels/tutorials/grouped_gemm.cpp): one persistent launch
// over a list of problems of different shapes, each against a double
// reference.
#include "tutorial_test_support.hpp"

namespace tcpu::test {
namespace {

struct Problem {
  int m, n, k;
};

std::vector<double> product(const std::vector<float>& a, const std::vector<float>& b,
                            const Problem& p) {
  const auto m = static_cast<size_t>(p.m), n = static_cast<size_t>(p.n),
             k = static_cast<size_t>(p.k);
  std::vector<double> c(m * n, 0.0);
  for (size_t i = 0; i < m; ++i)
    for (size_t x = 0; x < k; ++x)
      for (size_t j = 0; j < n; ++j)
        c[i * n + j] += static_cast<double>(a[i * k + x]) * b[x * n + j];
  return c;
}

class GroupedGemm : public TutorialTest, public ::testing::WithParamInterface<unsigned> {
protected:
  // Ragged sizes, a problem smaller than one tile, one larger than many.
  const std::vector<Problem> problems_ = {
      {128, 128, 128}, {100, 37, 65}, {1, 1, 1}, {64, 200, 32}, {257, 129, 300}};

  // Launches f over problems_ with A_g, B_g, C_g row-major and densely packed.
  template <class T>
  tcpuResult launchProblems(tcpuFunction f, unsigned programs, const std::vector<std::vector<T>>& a,
                            const std::vector<std::vector<T>>& b, std::vector<std::vector<T>>& c) {
    std::vector<int32_t> sizes, lds;
    std::vector<const T*> aPtrs, bPtrs;
    std::vector<T*> cPtrs;
    for (size_t g = 0; g < problems_.size(); ++g) {
      const Problem& p = problems_[g];
      sizes.insert(sizes.end(), {p.m, p.n, p.k});
      lds.insert(lds.end(), {p.k, p.n, p.n});
      aPtrs.push_back(a[g].data());
      bPtrs.push_back(b[g].data());
      cPtrs.push_back(c[g].data());
    }
    return launch(f, programs, 1, 1, aPtrs.data(), bPtrs.data(), cPtrs.data(), sizes.data(),
                  lds.data(), static_cast<int32_t>(problems_.size()));
  }
};

TEST_P(GroupedGemm, Fp16ProblemsMatchDoubleReference) {
  const unsigned programs = GetParam();
  tcpuFunction f = function(load("grouped_gemm.bc"), "grouped_matmul_f16");
  std::vector<std::vector<uint16_t>> a, b, c;
  std::vector<std::vector<double>> want;
  for (size_t g = 0; g < problems_.size(); ++g) {
    const Problem& p = problems_[g];
    a.push_back(toHalf(
        randomFloats(static_cast<size_t>(p.m) * static_cast<size_t>(p.k), 90 + unsigned(g))));
    b.push_back(toHalf(
        randomFloats(static_cast<size_t>(p.k) * static_cast<size_t>(p.n), 190 + unsigned(g))));
    want.push_back(product(toFloat(a[g]), toFloat(b[g]), p));
    c.emplace_back(static_cast<size_t>(p.m) * static_cast<size_t>(p.n) + 1, uint16_t{0x7e00});
  }
  ASSERT_TCPU(launchProblems(f, programs, a, b, c));
  for (size_t g = 0; g < problems_.size(); ++g) {
    EXPECT_EQ(c[g].back(), 0x7e00) << "problem " << g << ": wrote past C";
    c[g].pop_back();
    const std::vector<float> got = toFloat(c[g]);
    // Exact fp16 products, fp32 sums (k * 2^-24 relative to sum |a||b| <= k,
    // so <= 300^2 * 6e-8 = 5.4e-3 worst case, far less with random signs),
    // then one fp16 rounding of the output (2^-11 relative).
    EXPECT_TRUE(allClose(got, want[g], 1e-3 + 6e-8 * problems_[g].k * problems_[g].k, 1e-3))
        << "problem " << g;
  }
}

TEST_P(GroupedGemm, Fp32ProblemsMatchDoubleReference) {
  const unsigned programs = GetParam();
  tcpuFunction f = function(load("grouped_gemm.bc"), "grouped_matmul_f32");
  std::vector<std::vector<float>> a, b, c;
  for (size_t g = 0; g < problems_.size(); ++g) {
    const Problem& p = problems_[g];
    a.push_back(
        randomFloats(static_cast<size_t>(p.m) * static_cast<size_t>(p.k), 30 + unsigned(g)));
    b.push_back(
        randomFloats(static_cast<size_t>(p.k) * static_cast<size_t>(p.n), 40 + unsigned(g)));
    c.emplace_back(static_cast<size_t>(p.m) * static_cast<size_t>(p.n), -9.0f);
  }
  ASSERT_TCPU(launchProblems(f, programs, a, b, c));
  for (size_t g = 0; g < problems_.size(); ++g)
    // fp32 sums of k products of magnitude <= 1 (see matmul_test).
    EXPECT_TRUE(allClose(c[g], product(a[g], b[g], problems_[g]), 1e-5 * problems_[g].k, 0))
        << "problem " << g;
}

// One program (walks every tile), a few (each takes several tiles across
// problems), more programs than tiles (some idle).
INSTANTIATE_TEST_SUITE_P(Programs, GroupedGemm, ::testing::Values(1u, 3u, 16u, 100u));

} // namespace
} // namespace tcpu::test
