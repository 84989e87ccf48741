// Tutorial 07 (kernels/tutorials/extern_math.cpp): asin over a block.
#include "tutorial_test_support.hpp"

namespace tcpu::test {
namespace {

TEST_F(TutorialTest, AsinMatchesDoubleWithinOneUlp) {
  tcpuFunction asinKernel = function(load("extern_math.bc"), "asin_kernel");
  for (int32_t n : {1, 1023, 98432}) {
    std::vector<float> x = randomFloats(static_cast<size_t>(n), 13);
    std::vector<float> y(static_cast<size_t>(n));
    ASSERT_TCPU(
        launch(asinKernel, static_cast<unsigned>((n + 1023) / 1024), 1, 1, x.data(), y.data(), n));
    for (size_t i = 0; i < y.size(); ++i) {
      const double want = std::asin(static_cast<double>(x[i]));
      // SLEEF's asinf_u10 is within 1.0 ULP (bench/RESULTS.md measures it):
      // allow 1 ULP of the fp32 result.
      const double ulp = std::ldexp(1.0, std::ilogb(static_cast<float>(want)) - 23);
      ASSERT_LE(std::fabs(y[i] - want), ulp) << "x=" << x[i];
    }
  }
}

TEST_F(TutorialTest, AsinOutsideDomainIsNan) {
  tcpuFunction asinKernel = function(load("extern_math.bc"), "asin_kernel");
  std::vector<float> x = {2.0f, -1.5f, 1.0f, -1.0f}, y(4);
  ASSERT_TCPU(launch(asinKernel, 1u, 1, 1, x.data(), y.data(), int32_t{4}));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_FLOAT_EQ(y[2], static_cast<float>(M_PI / 2));
  EXPECT_FLOAT_EQ(y[3], static_cast<float>(-M_PI / 2));
}

} // namespace
} // namespace tcpu::test
