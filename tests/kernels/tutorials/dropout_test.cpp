// Tutorial 04 (kernels/tutorials/dropout.cpp): the keep mask is Philox's, bit
// for bit, checked against tl's scalar Philox (itself checked against Triton
// goldens in philox_test).
#include "tcpu/tl/random.h"
#include "tutorial_test_support.hpp"

namespace tcpu::test {
namespace {

class Dropout : public TutorialTest, public ::testing::WithParamInterface<int32_t> {};

TEST_P(Dropout, KeepsExactlyThePhiloxLanesAndScalesThem) {
  const int32_t n = 5000;
  const int32_t seed = GetParam();
  const float p = 0.5f;
  tcpuFunction dropout = function(load("dropout.bc"), "seeded_dropout");
  const std::vector<float> x = randomFloats(n, 11);
  std::vector<float> out(n);
  ASSERT_TCPU(launch(dropout, 5u, 1, 1, x.data(), out.data(), n, p, seed));
  int kept = 0;
  for (int32_t i = 0; i < n; ++i) {
    const float r =
        tl::rand(static_cast<uint64_t>(static_cast<int64_t>(seed)), static_cast<uint32_t>(i));
    // Exact: the same fp32 operations (x / (1 - p)) as the kernel.
    const float want = r > p ? x[static_cast<size_t>(i)] / (1 - p) : 0.0f;
    ASSERT_EQ(out[static_cast<size_t>(i)], want) << "element " << i;
    kept += r > p;
  }
  EXPECT_NEAR(kept, n / 2, 200); // about half kept: 200 is > 5 sigma of Binomial(5000, .5)
}

INSTANTIATE_TEST_SUITE_P(Seeds, Dropout, ::testing::Values(123, 0, 42, -1));

TEST_F(TutorialTest, DropoutIsReproducibleAndSeedDependent) {
  tcpuFunction dropout = function(load("dropout.bc"), "seeded_dropout");
  const std::vector<float> x = randomFloats(2048, 12, 1.0f, 2.0f);
  std::vector<float> a(2048), b(2048), c(2048);
  ASSERT_TCPU(launch(dropout, 2u, 1, 1, x.data(), a.data(), 2048, 0.3f, 5));
  ASSERT_TCPU(launch(dropout, 2u, 1, 1, x.data(), b.data(), 2048, 0.3f, 5));
  ASSERT_TCPU(launch(dropout, 2u, 1, 1, x.data(), c.data(), 2048, 0.3f, 6));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

} // namespace
} // namespace tcpu::test
