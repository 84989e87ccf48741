// max and min reductions of floats around NaN and signed zeros (reduce.h, ExtremeOp), on every
// path a reduction takes: rows shorter than 16 (one left-to-right fold), rows of 16, 32 and 64+
// partials, masked rows read in place (the split), 2-D blocks along either axis, and rows folded
// across (16 rows or more of 16 columns or more).
//
// Triton's max and min are maxnum folds: a NaN is skipped, and the result is NaN only where
// every value is. tl's partials skip NaN by construction and reduce() puts the NaN back for
// all-NaN inputs; these tests pin both, against a plain maxnum fold, and that a tie of -0 and +0
// keeps the value met first in tl's order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "tcpu/tl/memory.h"
#include "tcpu/tl/reduce.h"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

uint32_t bits(float x) {
  uint32_t out = 0;
  std::memcpy(&out, &x, sizeof x);
  return out;
}

// The answer up to the choice between -0 and +0: the maxnum (minnum) of the values.
float foldedExtreme(const std::vector<float>& x, bool max) {
  float acc = kNan;
  for (const float v : x)
    acc =
        std::isnan(acc) ? v : (std::isnan(v) ? acc : (max ? std::fmax(acc, v) : std::fmin(acc, v)));
  return acc;
}

void expectSameValue(float got, float want, const char* what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what << ": " << got << ", want NaN";
  } else {
    EXPECT_EQ(got, want) << what; // -0 == +0 here; the signs are pinned separately
  }
}

// Rows of N values with NaN placed at `nanEvery`-th lanes (0: none; 1: all), starting at lane
// `first`: the first lane of every partial, a NaN among numbers, and all-NaN rows.
template <int N>
void checkRows() {
  std::mt19937 rng(N);
  std::uniform_real_distribution<float> uniform(-8.0f, 8.0f);
  for (const int nanEvery : {0, 1, 2, 16, 64, N + 1}) {
    for (const int first : {0, 1, N - 1}) {
      std::vector<float> x(N);
      for (int k = 0; k < N; ++k)
        x[static_cast<size_t>(k)] =
            nanEvery != 0 && k >= first && (k - first) % nanEvery == 0 ? kNan : uniform(rng);
      SCOPED_TRACE(testing::Message()
                   << "N " << N << ", NaN every " << nanEvery << " from " << first);
      tl::Block<float, N> row;
      for (int k = 0; k < N; ++k)
        row.v[k] = x[static_cast<size_t>(k)];
      expectSameValue(tl::max(row), foldedExtreme(x, true), "max");
      expectSameValue(tl::min(row), foldedExtreme(x, false), "min");
      if constexpr ((N & (N - 1)) == 0) {
        // Loads under a mask (reduced in place), with NaN as the masked lanes' value.
        const auto cols = tl::arange<0, N>();
        for (const int n : {N, N / 2, 0}) {
          std::vector<float> masked(x);
          for (int k = n; k < N; ++k)
            masked[static_cast<size_t>(k)] = kNan;
          const auto loaded = tl::load(x.data() + cols, cols < n, kNan);
          expectSameValue(tl::max(loaded), foldedExtreme(masked, true), "masked max");
          expectSameValue(tl::min(loaded), foldedExtreme(masked, false), "masked min");
        }
      }
    }
  }
}

TEST(TlReduceExtremes, NanIsSkippedAndAllNanRowsAreNan) {
  checkRows<8>(); // shorter than 16: one fold from the identity, which used to give -inf
  checkRows<16>();
  checkRows<32>();
  checkRows<64>();
  checkRows<100>(); // 64 partials and a tail of 36
  checkRows<1024>();
}

TEST(TlReduceExtremes, AllNanRowsOfABlockAreNanAlongEitherAxis) {
  constexpr int R = 16, C = 32; // 16 rows of 32: rows are folded across
  std::vector<float> x(R * C);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-8.0f, 8.0f);
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) // row 3 and column 5 all NaN; row 4 NaN but for one -inf
      x[static_cast<size_t>(i * C + j)] =
          i == 3 || j == 5 ? kNan : (i == 4 ? (j == 9 ? -kInf : kNan) : uniform(rng));
  const auto i = tl::expand_dims<1>(tl::arange<0, R>());
  const auto j = tl::expand_dims<0>(tl::arange<0, C>());
  const auto block = tl::load(x.data() + (i * C + j));
  const tl::Block<float, R> rowMax = tl::max<1>(block), rowMin = tl::min<1>(block);
  for (int r = 0; r < R; ++r) {
    const std::vector<float> row(x.begin() + r * C, x.begin() + (r + 1) * C);
    expectSameValue(rowMax[r], foldedExtreme(row, true), "row max");
    expectSameValue(rowMin[r], foldedExtreme(row, false), "row min");
  }
  EXPECT_TRUE(std::isnan(rowMax[3]));
  EXPECT_EQ(rowMax[4], -kInf); // a number among NaN: the answer, although it is the identity
  const tl::Block<float, C> colMax = tl::max<0>(block), colMin = tl::min<0>(block);
  for (int c = 0; c < C; ++c) {
    std::vector<float> column;
    for (int r = 0; r < R; ++r)
      column.push_back(x[static_cast<size_t>(r * C + c)]);
    expectSameValue(colMax[c], foldedExtreme(column, true), "column max");
    expectSameValue(colMin[c], foldedExtreme(column, false), "column min");
  }
  EXPECT_TRUE(std::isnan(colMax[5]));
}

// -0 and +0 compare equal; the partial keeps the value it holds. A row of 16 has one value per
// partial, folded pairwise 0 with 8, 0 with 4, ...: partial 0's zero wins.
TEST(TlReduceExtremes, ATieOfZerosKeepsTheValueMetFirst) {
  for (const float firstZero : {0.0f, -0.0f}) {
    std::vector<float> x(16, -1.0f);
    x[0] = firstZero;
    x[8] = -firstZero;
    const auto row = tl::load(x.data() + tl::arange<0, 16>());
    EXPECT_EQ(bits(tl::max(row)), bits(firstZero));
    for (float& v : x)
      v = v == -1.0f ? 1.0f : v;
    const auto flipped = tl::load(x.data() + tl::arange<0, 16>());
    EXPECT_EQ(bits(tl::min(flipped)), bits(firstZero));
  }
}

} // namespace
} // namespace tcpu::test
