// tl's shape, scan and sort operations in kernels (kernels/tl_shape_scan_sort.cpp), compiled
// with the kernel flags and run through codegen, against plain loops. Their value semantics in
// detail are tl_shape_test, tl_scan_test and tl_sort_test; this checks that they build and run
// as kernels (no calls codegen cannot resolve, masked loads as operands, stores of the results).
#include <algorithm>
#include <functional>

#include "tl_kernel_test_support.hpp"

namespace tcpu::test {
namespace {

class TlShapeScanSort : public TlKernelTest {
protected:
  TlShapeScanSort() : TlKernelTest("tl_shape_scan_sort.bc") {}
};

TEST_F(TlShapeScanSort, ShapeOperationsMoveEveryElement) {
  const std::vector<float> x = randomFloats(16 * 32, 1);
  std::vector<int32_t> idx(16 * 32);
  std::mt19937 rng(2);
  for (int32_t& i : idx)
    i = static_cast<int32_t>(rng() % 32);
  std::vector<float> flipped(16 * 32), transposed(32 * 16), interleaved(16 * 64), gathered(16 * 32),
      ends(32), catted(32 * 32);
  ASSERT_TCPU(launch(kernel("shape_ops"), 1, 1, 1, x.data(), idx.data(), flipped.data(),
                     transposed.data(), interleaved.data(), gathered.data(), ends.data(),
                     catted.data()));
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 32; ++j) {
      const float v = x[i * 32 + j];
      EXPECT_EQ(flipped[i * 32 + (31 - j)], v) << i << "," << j;
      EXPECT_EQ(transposed[j * 16 + i], v) << i << "," << j;
      EXPECT_EQ(interleaved[i * 64 + 2 * j], v) << i << "," << j;
      EXPECT_EQ(interleaved[i * 64 + 2 * j + 1], 2.0f * v) << i << "," << j;
      EXPECT_EQ(gathered[i * 32 + j], x[i * 32 + idx[i * 32 + j]]) << i << "," << j;
      EXPECT_EQ(catted[i * 32 + j], v) << i << "," << j;
      EXPECT_EQ(catted[(16 + i) * 32 + j], static_cast<float>(i)) << i << "," << j;
    }
    EXPECT_EQ(ends[i], x[i * 32]) << i;
    EXPECT_EQ(ends[16 + i], x[i * 32 + 31]) << i;
  }
}

TEST_F(TlShapeScanSort, ScansAndReductionsOfRaggedRows) {
  // Multiples of 1/2 whose sums are exact, and powers of two whose products are.
  const float choices[] = {-2.0f, -1.0f, -0.5f, 0.5f, 1.0f, 2.0f};
  std::mt19937 rng(3);
  std::vector<float> x(16 * 64);
  for (float& v : x)
    v = choices[rng() % 6];
  std::vector<uint32_t> a(16 * 64), b(16 * 64);
  for (uint32_t& v : a)
    v = static_cast<uint32_t>(rng());
  for (uint32_t& v : b)
    v = static_cast<uint32_t>(rng());
  for (const int32_t n : {64, 40}) {
    std::vector<float> rowSums(16 * 64), columnSums(16 * 64), products(16 * 64), maxima(16);
    std::vector<uint32_t> recurrence(16 * 64), xors(64);
    std::vector<int32_t> argmaxes(16);
    ASSERT_TCPU(launch(kernel("scans"), 1, 1, 1, x.data(), a.data(), b.data(), n, rowSums.data(),
                       columnSums.data(), products.data(), recurrence.data(), maxima.data(),
                       argmaxes.data(), xors.data()));
    auto lane = [&](int i, int j) { return j < n ? x[i * 64 + j] : 1.0f; }; // other = 1
    for (int i = 0; i < 16; ++i) {
      float sum = 0, product = 1, best = lane(i, 0);
      uint32_t state = 0;
      int where = 0;
      for (int j = 0; j < 64; ++j) {
        const int k = i * 64 + j;
        sum += lane(i, j), product *= lane(i, j), state = a[k] * state + b[k];
        if (lane(i, j) > best) best = lane(i, j), where = j;
        EXPECT_EQ(rowSums[k], sum) << "n " << n << " at " << i << "," << j;
        EXPECT_EQ(products[k], product) << "n " << n << " at " << i << "," << j;
        EXPECT_EQ(recurrence[k], state) << "n " << n << " at " << i << "," << j;
      }
      EXPECT_EQ(maxima[i], best) << "n " << n << " row " << i;
      EXPECT_EQ(argmaxes[i], where) << "n " << n << " row " << i;
    }
    for (int j = 0; j < 64; ++j) {
      float sum = 0;
      uint32_t bits = 0;
      for (int i = 15; i >= 0; --i) {
        sum += lane(i, j);
        EXPECT_EQ(columnSums[i * 64 + j], sum) << "n " << n << " at " << i << "," << j;
        bits ^= a[i * 64 + j];
      }
      EXPECT_EQ(xors[j], bits) << j;
    }
  }
}

TEST_F(TlShapeScanSort, SortsRowsAndCountsValues) {
  const std::vector<float> x = randomFloats(8 * 64, 4);
  std::vector<int32_t> values(1024);
  std::mt19937 rng(5);
  for (int32_t& v : values)
    v = static_cast<int32_t>(rng() % 24) - 4; // some below 0 and above 15: not counted
  for (const int32_t n : {1024, 700}) {
    std::vector<float> sorted(8 * 64), top(8 * 4);
    std::vector<int32_t> counts(16);
    ASSERT_TCPU(launch(kernel("sorting"), 1, 1, 1, x.data(), sorted.data(), top.data(),
                       values.data(), n, counts.data()));
    for (int i = 0; i < 8; ++i) {
      std::vector<float> row(x.begin() + i * 64, x.begin() + (i + 1) * 64);
      std::sort(row.begin(), row.end());
      for (int j = 0; j < 64; ++j)
        EXPECT_EQ(sorted[i * 64 + j], row[j]) << i << "," << j;
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(top[i * 4 + k], row[63 - k]) << i << "," << k;
    }
    std::vector<int32_t> expected(16, 0);
    for (int k = 0; k < n; ++k)
      if (values[k] >= 0 && values[k] < 16) ++expected[values[k]];
    for (int bin = 0; bin < 16; ++bin)
      EXPECT_EQ(counts[bin], expected[bin]) << "n " << n << " bin " << bin;
  }
}

} // namespace
} // namespace tcpu::test
