// tl's shape operations (tl/shape.h) against plain loops over the elements, compiled for the
// host: reshape/view/ravel, broadcast_to, permute, join/split, interleave, cat, flip, gather.
#include <gtest/gtest.h>

#include <cstdint>

#include "tcpu/tl/index.h"
#include "tcpu/tl/memory.h"
#include "tcpu/tl/shape.h"
#include "tl_values_test_support.hpp"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

template <class T>
class TlShape : public ::testing::Test {};
using ElementTypes =
    ::testing::Types<Element<float>, Element<int32_t>, Element<tl::float16>, Element<int8_t>>;
TYPED_TEST_SUITE(TlShape, ElementTypes);

TYPED_TEST(TlShape, ReshapeKeepsRowMajorOrder) {
  using T = typename TypeParam::type;
  const auto x = randomBlock<tl::Block<T, 4, 8>>(1);
  const tl::Block<T, 8, 4> r = tl::reshape<8, 4>(x);
  const tl::Block<T, 32> flat = tl::ravel(x);
  const tl::Block<T, 2, 16> v = tl::view<2, 16>(x);
  const tl::Block<T, 4, 8> back = tl::reshape<4, 8>(flat); // rank 1 -> rank 2
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      const int k = i * 8 + j;
      EXPECT_EQ(printable(r.at(k / 4, k % 4)), printable(x.at(i, j))) << i << "," << j;
      EXPECT_EQ(printable(flat[k]), printable(x.at(i, j))) << i << "," << j;
      EXPECT_EQ(printable(v.at(k / 16, k % 16)), printable(x.at(i, j))) << i << "," << j;
      EXPECT_EQ(printable(back.at(i, j)), printable(x.at(i, j))) << i << "," << j;
    }
}

// trans: 16 x 16 tiles of shuffles for 2- and 4-byte elements in blocks of whole tiles (reduce.h),
// element copies otherwise; every shape is checked against the definition.
template <class T, int M, int N>
void expectTransposed(uint32_t seed) {
  const auto x = randomBlock<tl::Block<T, M, N>>(seed);
  const tl::Block<T, N, M> t = tl::trans(x);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      ASSERT_EQ(printable(t.at(j, i)), printable(x.at(i, j)))
          << M << "x" << N << " at " << i << "," << j;
}

TYPED_TEST(TlShape, TransMovesEveryElement) {
  using T = typename TypeParam::type;
  expectTransposed<T, 16, 16>(11);
  expectTransposed<T, 32, 64>(12);
  expectTransposed<T, 64, 32>(13);
  expectTransposed<T, 48, 16>(14);
  expectTransposed<T, 4, 8>(15);
  expectTransposed<T, 16, 24>(16);
}

TEST(TlShapeLazy, ReshapeAndRavelEvaluateLazyOperands) {
  // An index range and an expression are evaluated, then laid out row-major.
  const tl::Block<int32_t, 4, 4> r = tl::reshape<4, 4>(tl::arange<0, 16>() * 3 + 1);
  const auto x = randomBlock<tl::Block<float, 2, 8>>(2);
  const tl::Block<float, 16> flat = tl::ravel(x * 2.0f);
  for (int k = 0; k < 16; ++k) {
    EXPECT_EQ(r[k], k * 3 + 1) << k;
    EXPECT_EQ(flat[k], x.at(k / 8, k % 8) * 2.0f) << k;
  }
}

TYPED_TEST(TlShape, BroadcastToGrowsDimensionsOfSizeOne) {
  using T = typename TypeParam::type;
  const auto row = randomBlock<tl::Block<T, 8>>(3);
  const auto column = randomBlock<tl::Block<T, 4, 1>>(4);
  const auto row2 = randomBlock<tl::Block<T, 1, 8>>(5);
  const auto one = randomBlock<tl::Block<T, 1>>(6);
  const tl::Block<T, 4, 8> a = tl::broadcast_to<4, 8>(row); // [8] aligns with the last dim
  const tl::Block<T, 4, 8> b = tl::broadcast_to<4, 8>(column);
  const tl::Block<T, 4, 8> c = tl::broadcast_to<4, 8>(row2);
  const tl::Block<T, 8> d = tl::broadcast_to<8>(one);
  const tl::Block<T, 3, 5> e = tl::broadcast_to<3, 5>(row[2]); // a scalar fills the block
  const tl::Block<T, 8> same = tl::broadcast_to<8>(row);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(printable(a.at(i, j)), printable(row[j]));
      EXPECT_EQ(printable(b.at(i, j)), printable(column[i]));
      EXPECT_EQ(printable(c.at(i, j)), printable(row2[j]));
    }
  for (int j = 0; j < 8; ++j) {
    EXPECT_EQ(printable(d[j]), printable(one[0]));
    EXPECT_EQ(printable(same[j]), printable(row[j]));
  }
  for (int k = 0; k < 15; ++k)
    EXPECT_EQ(printable(e[k]), printable(row[2]));
}

TEST(TlShapeLazy, BroadcastToReadsMaskedLoadsLaneByLane) {
  // A masked load of [4, 1] broadcast along rows: each row holds its lane's value or `other`.
  const float data[4] = {1.5f, -2.0f, 3.25f, 9.0f};
  const float* p = data;
  const auto rows = tl::arange<0, 4>();
  const auto column = tl::load(p + tl::col(rows), tl::col(rows) < 3, -7.0f);
  const tl::Block<float, 4, 16> b = tl::broadcast_to<4, 16>(column);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 16; ++j)
      EXPECT_EQ(b.at(i, j), i < 3 ? data[i] : -7.0f) << i << "," << j;
}

TYPED_TEST(TlShape, PermuteSwapsOrKeepsDimensions) {
  using T = typename TypeParam::type;
  const auto x = randomBlock<tl::Block<T, 4, 8>>(7);
  const tl::Block<T, 8, 4> t = tl::permute<1, 0>(x);
  const tl::Block<T, 4, 8> same = tl::permute<0, 1>(x);
  const auto flat = randomBlock<tl::Block<T, 16>>(8);
  const tl::Block<T, 16> flatSame = tl::permute<0>(flat);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(printable(t.at(j, i)), printable(x.at(i, j)));
      EXPECT_EQ(printable(same.at(i, j)), printable(x.at(i, j)));
    }
  for (int k = 0; k < 16; ++k)
    EXPECT_EQ(printable(flatSame[k]), printable(flat[k]));
}

TYPED_TEST(TlShape, JoinAndSplitAreInverses) {
  using T = typename TypeParam::type;
  const auto a = randomBlock<tl::Block<T, 16>>(9);
  const auto b = randomBlock<tl::Block<T, 16>>(10);
  const tl::Block<T, 16, 2> j = tl::join(a, b);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(printable(j.at(i, 0)), printable(a[i]));
    EXPECT_EQ(printable(j.at(i, 1)), printable(b[i]));
  }
  const auto [first, second] = tl::split(j);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(first)>, tl::Block<T, 16>>);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(printable(first[i]), printable(a[i]));
    EXPECT_EQ(printable(second[i]), printable(b[i]));
  }
  // Scalars join into [2], and [2] splits into scalars.
  const tl::Block<T, 2> pair = tl::join(a[3], b[5]);
  const auto [p0, p1] = tl::split(pair);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(p0)>, T>);
  EXPECT_EQ(printable(p0), printable(a[3]));
  EXPECT_EQ(printable(p1), printable(b[5]));
  // A [1] block and a scalar broadcast against the other operand.
  const auto one = randomBlock<tl::Block<T, 1>>(11);
  const tl::Block<T, 16, 2> withOne = tl::join(one, b);
  const tl::Block<T, 16, 2> withScalar = tl::join(a, b[0]);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(printable(withOne.at(i, 0)), printable(one[0]));
    EXPECT_EQ(printable(withOne.at(i, 1)), printable(b[i]));
    EXPECT_EQ(printable(withScalar.at(i, 0)), printable(a[i]));
    EXPECT_EQ(printable(withScalar.at(i, 1)), printable(b[0]));
  }
}

TEST(TlShapeLazy, JoinAndSplitOfIndexRanges) {
  const tl::Block<int32_t, 8, 2> j = tl::join(tl::arange<0, 8>(), tl::arange<0, 8>() * 10);
  const auto [even, odd] = tl::split(tl::reshape<8, 2>(tl::arange<0, 16>()));
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(j.at(i, 0), i);
    EXPECT_EQ(j.at(i, 1), 10 * i);
    EXPECT_EQ(even[i], 2 * i);
    EXPECT_EQ(odd[i], 2 * i + 1);
  }
}

TYPED_TEST(TlShape, InterleaveAlternatesAlongTheLastDimension) {
  using T = typename TypeParam::type;
  const auto a = randomBlock<tl::Block<T, 8>>(12);
  const auto b = randomBlock<tl::Block<T, 8>>(13);
  const tl::Block<T, 16> flat = tl::interleave(a, b);
  for (int j = 0; j < 8; ++j) {
    EXPECT_EQ(printable(flat[2 * j]), printable(a[j]));
    EXPECT_EQ(printable(flat[2 * j + 1]), printable(b[j]));
  }
  const auto m = randomBlock<tl::Block<T, 4, 8>>(14);
  const auto n = randomBlock<tl::Block<T, 4, 8>>(15);
  const tl::Block<T, 4, 16> wide = tl::interleave(m, n);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(printable(wide.at(i, 2 * j)), printable(m.at(i, j)));
      EXPECT_EQ(printable(wide.at(i, 2 * j + 1)), printable(n.at(i, j)));
    }
  const tl::Block<T, 2> scalars = tl::interleave(a[1], b[2]);
  EXPECT_EQ(printable(scalars[0]), printable(a[1]));
  EXPECT_EQ(printable(scalars[1]), printable(b[2]));
}

TYPED_TEST(TlShape, CatAppendsAlongDimensionZero) {
  using T = typename TypeParam::type;
  const auto a = randomBlock<tl::Block<T, 8>>(16);
  const auto b = randomBlock<tl::Block<T, 4>>(17);
  const tl::Block<T, 12> ab = tl::cat(a, b);
  for (int j = 0; j < 12; ++j)
    EXPECT_EQ(printable(ab[j]), printable(j < 8 ? a[j] : b[j - 8])) << j;
  const auto m = randomBlock<tl::Block<T, 2, 8>>(18);
  const auto n = randomBlock<tl::Block<T, 3, 8>>(19);
  const tl::Block<T, 5, 8> mn = tl::cat(m, n);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(printable(mn.at(i, j)), printable(i < 2 ? m.at(i, j) : n.at(i - 2, j)))
          << i << "," << j;
}

TYPED_TEST(TlShape, FlipReversesOneAxis) {
  using T = typename TypeParam::type;
  const auto a = randomBlock<tl::Block<T, 16>>(20);
  const tl::Block<T, 16> fa = tl::flip(a);
  const tl::Block<T, 16> fa0 = tl::flip<0>(a);
  for (int j = 0; j < 16; ++j) {
    EXPECT_EQ(printable(fa[j]), printable(a[15 - j]));
    EXPECT_EQ(printable(fa0[j]), printable(a[15 - j]));
  }
  const auto m = randomBlock<tl::Block<T, 4, 8>>(21);
  const tl::Block<T, 4, 8> last = tl::flip(m);
  const tl::Block<T, 4, 8> columns = tl::flip<1>(m);
  const tl::Block<T, 4, 8> rows = tl::flip<0>(m);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(printable(last.at(i, j)), printable(m.at(i, 7 - j)));
      EXPECT_EQ(printable(columns.at(i, j)), printable(m.at(i, 7 - j)));
      EXPECT_EQ(printable(rows.at(i, j)), printable(m.at(3 - i, j)));
    }
}

TEST(TlShapeLazy, FlipOfAMaskedLoad) {
  float data[16];
  for (int k = 0; k < 16; ++k)
    data[k] = static_cast<float>(k) * 0.5f;
  const float* p = data;
  const auto offsets = tl::arange<0, 16>();
  const tl::Block<float, 16> f = tl::flip(tl::load(p + offsets, offsets < 10, -1.0f));
  for (int j = 0; j < 16; ++j)
    EXPECT_EQ(f[j], 15 - j < 10 ? data[15 - j] : -1.0f) << j;
}

TYPED_TEST(TlShape, GatherReadsAlongOneAxis) {
  using T = typename TypeParam::type;
  const auto src = randomBlock<tl::Block<T, 16>>(22);
  const auto index = randomBlock<tl::Block<int32_t, 32>>(23, 0, 15);
  const tl::Block<T, 32> g = tl::gather<0>(src, index);
  for (int k = 0; k < 32; ++k)
    EXPECT_EQ(printable(g[k]), printable(src[index[k]])) << k;

  const auto m = randomBlock<tl::Block<T, 4, 8>>(24);
  const auto rowsIndex = randomBlock<tl::Block<int64_t, 6, 8>>(25, 0, 3); // out[i][j] = m[idx][j]
  const auto colsIndex = randomBlock<tl::Block<int8_t, 4, 3>>(26, 0, 7);  // out[i][j] = m[i][idx]
  const tl::Block<T, 6, 8> g0 = tl::gather<0>(m, rowsIndex);
  const tl::Block<T, 4, 3> g1 = tl::gather<1>(m, colsIndex);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(printable(g0.at(i, j)), printable(m.at(static_cast<int>(rowsIndex.at(i, j)), j)));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(printable(g1.at(i, j)), printable(m.at(i, colsIndex.at(i, j))));
}

TEST(TlShapeLazy, GatherClampsIndexesOutsideTheSource) {
  // Triton leaves these undefined; tl reads the nearest element instead of outside the block.
  const auto src = randomBlock<tl::Block<float, 8>>(27);
  tl::Block<int32_t, 4> index;
  index[0] = -1, index[1] = 8, index[2] = 1000, index[3] = 3;
  const tl::Block<float, 4> g = tl::gather<0>(src, index);
  EXPECT_EQ(g[0], src[0]);
  EXPECT_EQ(g[1], src[7]);
  EXPECT_EQ(g[2], src[7]);
  EXPECT_EQ(g[3], src[3]);
  // An index block that is an expression: the reversal permutation.
  const tl::Block<float, 8> reversed = tl::gather<0>(src, 7 - tl::arange<0, 8>());
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(reversed[k], src[7 - k]);
}

} // namespace
} // namespace tcpu::test
