// Tutorial 02 (kernels/tutorials/softmax.cpp) against a double-precision softmax.
#include <algorithm>

#include "tutorial_test_support.hpp"

namespace tcpu::test {
namespace {

std::vector<double> softmaxReference(const std::vector<float>& x, int rows, int cols) {
  std::vector<double> y(x.size());
  for (int r = 0; r < rows; ++r) {
    const float* row = x.data() + static_cast<size_t>(r) * static_cast<size_t>(cols);
    double m = -INFINITY, s = 0;
    for (int c = 0; c < cols; ++c)
      m = std::max(m, static_cast<double>(row[c]));
    for (int c = 0; c < cols; ++c)
      s += std::exp(row[c] - m);
    for (int c = 0; c < cols; ++c)
      y[static_cast<size_t>(r) * static_cast<size_t>(cols) + static_cast<size_t>(c)] =
          std::exp(row[c] - m) / s;
  }
  return y;
}

struct Shape {
  int rows, cols, programs;
};
class Softmax : public TutorialTest, public ::testing::WithParamInterface<Shape> {};

TEST_P(Softmax, MatchesDoubleReference) {
  const auto [rows, cols, programs] = GetParam();
  int block = 16;
  while (block < cols)
    block *= 2;
  const std::string name = "softmax_" + std::to_string(block);
  tcpuFunction softmax = function(load("softmax.bc"), name.c_str());
  const size_t size = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  const std::vector<float> x = randomFloats(size, 7, -5.0f, 5.0f);
  std::vector<float> y(size + 1, -3.0f);
  ASSERT_TCPU(launch(softmax, static_cast<unsigned>(programs), 1, 1, y.data(), x.data(), cols, cols,
                     rows, cols));
  EXPECT_EQ(y.back(), -3.0f) << "wrote past the last row";
  y.pop_back();
  // exp is SLEEF's (1 ULP); the sum of n terms in fp32 adds at most about
  // n * 2^-24 relative error, and the division 0.5 ULP: 1e-6 relative plus
  // n * 6e-8 covers every shape here with a margin.
  EXPECT_TRUE(allClose(y, softmaxReference(x, rows, cols), 1e-9, 2e-6 + cols * 6e-8));
}

// The tutorial's 1823 x 781; ragged columns; fewer programs than rows
// (persistent loop); more programs than rows (idle programs).
INSTANTIATE_TEST_SUITE_P(Shapes, Softmax,
                         ::testing::Values(Shape{1823, 781, 32}, Shape{5, 16, 5}, Shape{7, 1, 2},
                                           Shape{33, 1000, 4}, Shape{3, 4096, 8}, Shape{4, 8192, 4},
                                           Shape{17, 300, 1}));

TEST_F(TutorialTest, SoftmaxOfInfinityAndUniformRows) {
  tcpuFunction softmax = function(load("softmax.bc"), "softmax_16");
  std::vector<float> x = {1, 1, 1, 1, -INFINITY, 0, 0, 0};
  std::vector<float> y(8);
  ASSERT_TCPU(launch(softmax, 2u, 1, 1, y.data(), x.data(), 4, 4, 2, 4));
  for (int c = 0; c < 4; ++c)
    EXPECT_EQ(y[static_cast<size_t>(c)], 0.25f);
  EXPECT_EQ(y[4], 0.0f);
  for (int c = 5; c < 8; ++c)
    EXPECT_FLOAT_EQ(y[static_cast<size_t>(c)], 1.0f / 3.0f);
}

} // namespace
} // namespace tcpu::test
