// Reductions of masked rows read in place (reduce.h, reduceSplit): a load under a rectangle mask,
// or an expression of such loads, is reduced over its own columns, with the lanes outside the
// rectangle combined as one value, instead of being evaluated into a block first. These tests
// pin that the split gives the block's answer bit for bit (the same values in the same order)
// for every operation, over masks that start and end inside, on, and beyond the partial-sum
// chunks, with `other` values that the operation absorbs (-inf for max, either zero for sum)
// and values it does not (1.5 for sum, NaN).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "tcpu/tl/memory.h"
#include "tcpu/tl/reduce.h"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

template <class T>
uint64_t bits(T x) {
  uint64_t out = 0;
  std::memcpy(&out, &x, sizeof x);
  return out;
}

std::vector<float> randomRow(int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
  std::vector<float> x(static_cast<size_t>(count));
  for (float& v : x)
    v = uniform(rng);
  if (count > 9) x[9] = -0.0f; // a zero of each sign among the values
  if (count > 10) x[10] = 0.0f;
  return x;
}

// Column bounds [lo, hi) of `lo <= cols < hi` for a row of N: empty, whole, inside one chunk of
// 64 partials, across chunk edges, on them, and beyond the row at either end.
template <int N>
std::vector<std::pair<int, int>> boundsFor() {
  std::vector<std::pair<int, int>> out = {{0, 0},     {0, N},     {0, N + 9},     {-5, N},
                                          {0, 1},     {0, N - 1}, {3, N - 3},     {N / 2, N},
                                          {N - 1, N}, {5, 7},     {0, N / 2 + 1}, {N + 3, N + 9}};
  if (N >= 128) out.insert(out.end(), {{64, 128}, {63, 129}, {1, 64}, {64, N - 64}, {0, 3000}});
  return out;
}

// Every reduction of `view` (a masked row) against the same reduction of its evaluated block.
template <class View>
void expectSplitMatchesBlock(const View& view, const char* what) {
  SCOPED_TRACE(what);
  // The split runs where a masked view is uniform outside one rectangle: these all are.
  tl::detail::LaneRect rect;
  EXPECT_TRUE(tl::detail::dense(view) ||
              (tl::detail::uniformOutside<tl::evaluated_t<View>>(view, rect) && rect.set));
  const auto block = tl::eval(view);
  EXPECT_EQ(bits(tl::sum(view)), bits(tl::sum(block)));
  EXPECT_EQ(bits(tl::max(view)), bits(tl::max(block)));
  EXPECT_EQ(bits(tl::min(view)), bits(tl::min(block)));
}

template <int N>
void checkFloatRows() {
  const std::vector<float> x = randomRow(N + 16, N);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const auto& [lo, hi] : boundsFor<N>()) {
    for (const float other : {-inf, 0.0f, -0.0f, 1.5f, nan}) {
      SCOPED_TRACE(testing::Message()
                   << "N " << N << ", cols [" << lo << ", " << hi << "), other " << other);
      const auto cols = tl::arange<0, N>();
      const auto mask = (cols >= lo) & (cols < hi);
      const auto loaded = tl::load(x.data() + cols, cols < hi, other);
      expectSplitMatchesBlock(loaded, "a load");
      expectSplitMatchesBlock(loaded * 2.0f - 1.0f, "an expression of the load");
      expectSplitMatchesBlock(tl::where(cols < hi, loaded, other), "a where under the mask");
      expectSplitMatchesBlock(tl::load(x.data() + cols, mask, other), "a two-sided mask");
    }
  }
}

TEST(TlReduceSplit, FloatRowsGiveTheBlocksAnswerBitForBit) {
  checkFloatRows<16>();
  checkFloatRows<32>();
  checkFloatRows<64>();
  checkFloatRows<128>();
  checkFloatRows<1024>();
  checkFloatRows<4096>();
}

TEST(TlReduceSplit, IntegerReductionsGiveTheBlocksAnswer) {
  constexpr int N = 256;
  std::vector<int32_t> values(N);
  for (int k = 0; k < N; ++k)
    values[static_cast<size_t>(k)] =
        static_cast<int32_t>((static_cast<uint32_t>(k) * 2654435761u) >> 7);
  const int32_t* x = values.data(); // read-only memory: a lazy load, not a snapshot
  for (const auto& [lo, hi] : boundsFor<N>()) {
    for (const int32_t other : {0, 7, -1}) {
      SCOPED_TRACE(testing::Message() << "cols [" << lo << ", " << hi << "), other " << other);
      const auto cols = tl::arange<0, N>();
      const auto loaded = tl::load(x + cols, (cols >= lo) & (cols < hi), other);
      const auto block = tl::eval(loaded);
      uint32_t wrapped = 0; // Triton's int32 sums wrap; these values overflow int32
      for (int k = 0; k < N; ++k)
        wrapped += static_cast<uint32_t>(k >= lo && k < hi ? x[k] : other);
      EXPECT_EQ(tl::sum(loaded), static_cast<int32_t>(wrapped));
      EXPECT_EQ(tl::sum(loaded), tl::sum(block));
      EXPECT_EQ(tl::max(loaded), tl::max(block));
      EXPECT_EQ(tl::min(loaded), tl::min(block));
      EXPECT_EQ(tl::xor_sum(loaded), tl::xor_sum(block));
      EXPECT_EQ(tl::reduce_or(loaded), tl::reduce_or(block));
      EXPECT_EQ(tl::reduce_and(loaded), tl::reduce_and(block));
    }
  }
}

TEST(TlReduceSplit, RowsOfATwoDimensionalLoadGiveTheBlocksAnswer) {
  constexpr int R = 8, C = 128;
  const std::vector<float> x = randomRow(R * C, 77);
  for (const auto& [rows, cols] :
       std::vector<std::pair<int, int>>{{8, 128}, {5, 100}, {0, 64}, {3, 0}, {8, 1}, {1, 129}}) {
    for (const float other : {-std::numeric_limits<float>::infinity(), 0.0f, 2.5f}) {
      SCOPED_TRACE(testing::Message() << rows << " x " << cols << ", other " << other);
      const auto i = tl::arange<0, R>();
      const auto j = tl::arange<0, C>();
      const auto offsets = tl::expand_dims<1>(i) * C + tl::expand_dims<0>(j);
      const auto mask = (tl::expand_dims<1>(i) < rows) & (tl::expand_dims<0>(j) < cols);
      const auto loaded = tl::load(x.data() + offsets, mask, other);
      const auto block = tl::eval(loaded);
      const tl::Block<float, R> sums = tl::sum<1>(loaded), blockSums = tl::sum<1>(block);
      const tl::Block<float, R> maxima = tl::max<1>(loaded), blockMaxima = tl::max<1>(block);
      for (int r = 0; r < R; ++r) {
        EXPECT_EQ(bits(sums[r]), bits(blockSums[r])) << "row " << r;
        EXPECT_EQ(bits(maxima[r]), bits(blockMaxima[r])) << "row " << r;
      }
    }
  }
}

} // namespace
} // namespace tcpu::test
