// Tutorial 01 (kernels/tutorials/vector_add.cpp) against a plain loop.
#include "tutorial_test_support.hpp"

namespace tcpu::test {
namespace {

class VectorAdd : public TutorialTest, public ::testing::WithParamInterface<int32_t> {};

TEST_P(VectorAdd, MatchesPlainAdditionExactly) {
  const int32_t n = GetParam();
  tcpuFunction add = function(load("vector_add.bc"), "add_kernel");
  const std::vector<float> x = randomFloats(static_cast<size_t>(n), 1),
                           y = randomFloats(static_cast<size_t>(n), 2);
  // One past the end is a guard: the mask must keep the last block inside n.
  std::vector<float> out(static_cast<size_t>(n) + 1, -7.0f);
  const unsigned grid = static_cast<unsigned>((n + 1023) / 1024);
  ASSERT_TCPU(launch(add, grid, 1, 1, x.data(), y.data(), out.data(), n));
  // Exact: one fp32 addition per element, as the reference does.
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[static_cast<size_t>(i)], x[static_cast<size_t>(i)] + y[static_cast<size_t>(i)])
        << i;
  EXPECT_EQ(out.back(), -7.0f);
}

// Tutorial's 98432, block multiples, and ragged sizes.
INSTANTIATE_TEST_SUITE_P(Sizes, VectorAdd, ::testing::Values(1, 1000, 1024, 1025, 4097, 98432));

TEST_F(TutorialTest, VectorAddCompiledFromSourceAtRunTime) {
  tcpuFunction add = function(load("vector_add.cpp"), "add_kernel");
  const int32_t n = 3000;
  const std::vector<float> x = randomFloats(3000, 3), y = randomFloats(3000, 4);
  std::vector<float> out(3000);
  ASSERT_TCPU(launch(add, 3, 1, 1, x.data(), y.data(), out.data(), n));
  for (size_t i = 0; i < out.size(); ++i)
    ASSERT_EQ(out[i], x[i] + y[i]) << i;
}

} // namespace
} // namespace tcpu::test
