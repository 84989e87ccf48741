// tl's sort, topk and histogram (tl/sort.h) against std::sort and counting loops, compiled for
// the host.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "tcpu/tl/index.h"
#include "tcpu/tl/sort.h"
#include "tl_values_test_support.hpp"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

// The lines of x along the sorted axis (rows, or columns), each sorted by std::sort.
template <class B>
std::vector<std::vector<typename B::value_type>> sortedLines(const B& x, bool alongRows,
                                                             bool descending) {
  using T = typename B::value_type;
  const int outer = alongRows ? B::rows : B::cols, inner = alongRows ? B::cols : B::rows;
  std::vector<std::vector<T>> lines(static_cast<size_t>(outer));
  for (int o = 0; o < outer; ++o) {
    for (int t = 0; t < inner; ++t)
      lines[o].push_back(alongRows ? x.v[o * B::cols + t] : x.v[t * B::cols + o]);
    if (descending)
      std::sort(lines[o].begin(), lines[o].end(), [](T a, T b) { return a > b; });
    else
      std::sort(lines[o].begin(), lines[o].end(), [](T a, T b) { return a < b; });
  }
  return lines;
}

template <int Axis, bool Descending, class B>
void expectSorted(const B& x, const char* what) {
  constexpr bool alongRows = B::rank == 1 || Axis != 0;
  const B got = tl::sort<Axis, Descending>(x);
  const auto lines = sortedLines(x, alongRows, Descending);
  for (int i = 0; i < B::rows; ++i)
    for (int j = 0; j < B::cols; ++j)
      EXPECT_EQ(printable(got.v[i * B::cols + j]), printable(alongRows ? lines[i][j] : lines[j][i]))
          << what << (Descending ? " descending" : " ascending") << " at " << i << "," << j;
}

template <int Axis, class B>
void expectSortedBothWays(const B& x, const char* what) {
  expectSorted<Axis, false>(x, what);
  expectSorted<Axis, true>(x, what);
}

template <class T>
class TlSort : public ::testing::Test {};
// fp16 has a test of its own (SortsHalves): its compares are emulated through fp32 on most x86
// targets, which makes every network it instantiates slow to compile.
using ElementTypes = ::testing::Types<Element<float>, Element<int32_t>, Element<int8_t>>;
TYPED_TEST_SUITE(TlSort, ElementTypes);

TYPED_TEST(TlSort, SortsRowsAsStdSortDoes) {
  using T = typename TypeParam::type;
  expectSortedBothWays<0>(randomBlock<tl::Block<T, 16>>(3), "[16]");
  expectSortedBothWays<-1>(randomBlock<tl::Block<T, 64>>(4), "[64]");
  expectSortedBothWays<-1>(randomBlock<tl::Block<T, 8, 64>>(6), "[8,64]");
  expectSortedBothWays<1>(randomBlock<tl::Block<T, 64, 4>>(7), "[64,4]");
}

TYPED_TEST(TlSort, SortsColumns) {
  using T = typename TypeParam::type;
  expectSortedBothWays<0>(randomBlock<tl::Block<T, 32, 8>>(9), "[32,8] axis 0");
  expectSortedBothWays<0>(randomBlock<tl::Block<T, 16, 1>>(10), "[16,1] axis 0");
}

// Fewer types for the rest: each shape instantiates its own network, and compiling them all
// for four types costs more than it tells.
TEST(TlSortValues, SortsOtherShapes) {
  expectSortedBothWays<-1>(randomBlock<tl::Block<float, 1>>(1), "fp32 [1]");
  expectSortedBothWays<-1>(randomBlock<tl::Block<int8_t, 2>>(2), "int8 [2]");
  expectSortedBothWays<1>(randomBlock<tl::Block<int32_t, 2, 128>>(8), "int32 [2,128]");
  expectSortedBothWays<0>(randomBlock<tl::Block<float, 64, 32>>(11), "fp32 [64,32] axis 0");
  // 55 stages, most of them runs of 16 elements or more.
  expectSortedBothWays<-1>(randomBlock<tl::Block<float, 1024>>(5), "fp32 [1024]");
}

TEST(TlSortValues, SortsHalves) {
  const auto x = randomBlock<tl::Block<tl::float16, 8, 32>>(12);
  expectSortedBothWays<-1>(x, "fp16 [8,32]");
  expectSorted<0, false>(x, "fp16 [8,32] axis 0");
  const tl::Block<tl::float16, 8, 2> top = tl::topk<2>(x);
  const auto rows = sortedLines(x, true, true);
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 2; ++k)
      EXPECT_EQ(printable(top.at(i, k)), printable(rows[i][k])) << i << "," << k;
}

TEST(TlSortValues, DuplicatesAndExtremesKeepTheirCounts) {
  auto x = integerValuedBlock<tl::Block<int32_t, 4, 128>>(12, -3, 3);
  x[5] = std::numeric_limits<int32_t>::min();
  x[200] = std::numeric_limits<int32_t>::max();
  x[300] = std::numeric_limits<int32_t>::min();
  expectSortedBothWays<-1>(x, "int32 with duplicates");
  auto f = integerValuedBlock<tl::Block<float, 256>>(13, -2, 2);
  f[17] = std::numeric_limits<float>::infinity();
  f[90] = -std::numeric_limits<float>::infinity();
  expectSortedBothWays<-1>(f, "fp32 with duplicates and infinities");
}

TEST(TlSortValues, SortsLazyOperands) {
  const tl::Block<int32_t, 64> reversed = tl::sort(63 - tl::arange<0, 64>());
  const tl::Block<int32_t, 64> descending = tl::sort<-1, true>(tl::arange<0, 64>() * 3);
  for (int k = 0; k < 64; ++k) {
    EXPECT_EQ(reversed[k], k);
    EXPECT_EQ(descending[k], (63 - k) * 3);
  }
}

TYPED_TEST(TlSort, TopkIsTheLargestKInDescendingOrder) {
  using T = typename TypeParam::type;
  const auto x = randomBlock<tl::Block<T, 64>>(14);
  const tl::Block<T, 8> top = tl::topk<8>(x);
  const auto line = sortedLines(x, true, true)[0];
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(printable(top[k]), printable(line[k])) << k;

  const auto m = randomBlock<tl::Block<T, 8, 32>>(15);
  const tl::Block<T, 8, 4> rowsTop = tl::topk<4>(m);
  const tl::Block<T, 8, 1> rowsMax = tl::topk<1, 1>(m);
  const auto rows = sortedLines(m, true, true);
  for (int i = 0; i < 8; ++i) {
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(printable(rowsTop.at(i, k)), printable(rows[i][k])) << i << "," << k;
    EXPECT_EQ(printable(rowsMax.at(i, 0)), printable(rows[i][0])) << i;
  }
  const tl::Block<T, 2, 32> columnsTop = tl::topk<2, 0>(m);
  const auto columns = sortedLines(m, false, true);
  for (int j = 0; j < 32; ++j)
    for (int k = 0; k < 2; ++k)
      EXPECT_EQ(printable(columnsTop.at(k, j)), printable(columns[j][k])) << k << "," << j;
}

// Counts of x's values in [0, bins), where `on` says the lane counts.
template <class B, class On>
std::vector<int32_t> countBins(const B& x, int bins, On on) {
  std::vector<int32_t> counts(static_cast<size_t>(bins), 0);
  for (int k = 0; k < B::size; ++k) {
    const int64_t v = static_cast<int64_t>(x.v[k]);
    if (on(k) && v >= 0 && v < bins) ++counts[static_cast<size_t>(v)];
  }
  return counts;
}

template <int Bins, class B>
void expectHistogram(const B& x, const char* what) {
  const tl::Block<int32_t, Bins> got = tl::histogram<Bins>(x);
  const auto expected = countBins(x, Bins, [](int) { return true; });
  for (int b = 0; b < Bins; ++b)
    EXPECT_EQ(got[b], expected[b]) << what << ", bin " << b;
}

TEST(TlHistogram, CountsValuesInRangeAndIgnoresTheRest) {
  // Both forms: few bins (a vector compare per bin) and many (a counter per element).
  expectHistogram<8>(integerValuedBlock<tl::Block<int32_t, 1024>>(20, -10, 18), "i32 8 bins");
  expectHistogram<128>(integerValuedBlock<tl::Block<int32_t, 1024>>(21, -10, 140), "i32 128");
  expectHistogram<32>(integerValuedBlock<tl::Block<int32_t, 16, 64>>(22, -5, 40), "i32 [16,64]");
  expectHistogram<64>(randomBlock<tl::Block<int8_t, 512>>(23), "i8 64 bins");
  expectHistogram<256>(randomBlock<tl::Block<int8_t, 512>>(24), "i8 256 bins"); // above 127
  expectHistogram<16>(randomBlock<tl::Block<uint8_t, 256>>(25, 0, 20), "u8 16 bins");
  // uint32 values past INT32_MAX and int64 ones past 2^32 are outside every bin.
  auto big = integerValuedBlock<tl::Block<uint32_t, 64>>(26, 0, 20);
  big[3] = 0x80000003u, big[4] = 0xffffffffu;
  expectHistogram<16>(big, "u32 16 bins");
  expectHistogram<48>(big, "u32 48 bins");
  auto wide = integerValuedBlock<tl::Block<int64_t, 64>>(27, -3, 20);
  wide[7] = int64_t{1} << 32, wide[8] = (int64_t{1} << 32) + 2;
  expectHistogram<16>(wide, "i64 16 bins");
  expectHistogram<40>(wide, "i64 40 bins");
}

TEST(TlHistogram, MaskedLanesAreNotCounted) {
  const auto x = integerValuedBlock<tl::Block<int32_t, 256>>(28, 0, 15);
  const auto offsets = tl::arange<0, 256>();
  const tl::Block<int32_t, 16> few = tl::histogram<16>(x, offsets < 200);
  const tl::Block<int32_t, 64> many = tl::histogram<64>(x, offsets < 100);
  const auto fewExpected = countBins(x, 16, [](int k) { return k < 200; });
  const auto manyExpected = countBins(x, 64, [](int k) { return k < 100; });
  for (int b = 0; b < 16; ++b)
    EXPECT_EQ(few[b], fewExpected[b]) << b;
  for (int b = 0; b < 64; ++b)
    EXPECT_EQ(many[b], manyExpected[b]) << b;
  // A mask block of a 2-D input, and one broadcast from a row.
  const auto m = integerValuedBlock<tl::Block<int32_t, 4, 32>>(29, 0, 9);
  const auto keep = randomBlock<tl::Block<bool, 4, 32>>(30);
  const tl::Block<int32_t, 10> kept = tl::histogram<10>(m, keep);
  const auto keptExpected = countBins(m, 10, [&](int k) { return keep[k]; });
  const tl::Block<int32_t, 10> firstHalf = tl::histogram<10>(m, tl::arange<0, 32>() < 16);
  const auto halfExpected = countBins(m, 10, [](int k) { return k % 32 < 16; });
  for (int b = 0; b < 10; ++b) {
    EXPECT_EQ(kept[b], keptExpected[b]) << b;
    EXPECT_EQ(firstHalf[b], halfExpected[b]) << b;
  }
}

} // namespace
} // namespace tcpu::test
