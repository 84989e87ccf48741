// tl/rank_n.h (the front end's blocks of rank 3 and more, held as [D0 * ... * Dn-2, Dn-1])
// against plain loops over the indices, compiled for the host: broadcast_nd, permute_nd, the
// batched dot3 and block pointers of ranks 3 to 5; and the index blocks the front end builds
// for rank-3 offsets (a reshaped range stays affine; a column of offsets plus a row, or one
// offset plus a column, is still an Outer).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <type_traits>

#include "tcpu/tl/index.h"
#include "tcpu/tl/rank_n.h"
#include "tcpu/tl/shape.h"
#include "tl_values_test_support.hpp"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

constexpr int D0 = 2, D1 = 4, D2 = 8;

// Element [i0, i1, i2] of a block of Triton shape [S0, S1, S2] held as [S0 * S1, S2].
template <class B>
auto at3(const B& b, int s1, int s2, int i0, int i1, int i2) {
  return b.v[(i0 * s1 + i1) * s2 + i2];
}

// Small integers as floats: products and sums are exact in any order.
template <class B>
B smallIntegerBlock(uint32_t seed) {
  const auto ints = randomBlock<tl::Block<int32_t, B::rows, B::cols>>(seed, -8, 8);
  B b;
  for (int k = 0; k < B::size; ++k)
    b.v[k] = static_cast<float>(ints.v[k]);
  return b;
}

TEST(TlRankN, BroadcastGrowsEachSizeOneDimensionOfRank3) {
  const auto a = randomBlock<tl::Block<int32_t, D0, D2>>(1);  // [D0, 1, D2]
  const auto b = randomBlock<tl::Block<int32_t, D1, 1>>(2);   // [1, D1, 1]
  const auto c = randomBlock<tl::Block<int32_t, D0 * D1>>(3); // [D0, D1, 1], any layout
  const tl::Block<int32_t, D0 * D1, D2> ga =
      tl::broadcast_nd<tl::dims<D0, D1, D2>, tl::dims<D0, 1, D2>>(a);
  const tl::Block<int32_t, D0 * D1, D2> gb =
      tl::broadcast_nd<tl::dims<D0, D1, D2>, tl::dims<1, D1, 1>>(b);
  const tl::Block<int32_t, D0 * D1, D2> gc =
      tl::broadcast_nd<tl::dims<D0, D1, D2>, tl::dims<D0, D1, 1>>(c);
  const tl::Block<int32_t, D0 * D1, D2> gs =
      tl::broadcast_nd<tl::dims<D0, D1, D2>, tl::dims<1, 1, 1>>(int32_t{7});
  for (int i0 = 0; i0 < D0; ++i0)
    for (int i1 = 0; i1 < D1; ++i1)
      for (int i2 = 0; i2 < D2; ++i2) {
        EXPECT_EQ(at3(ga, D1, D2, i0, i1, i2), a.at(i0, i2));
        EXPECT_EQ(at3(gb, D1, D2, i0, i1, i2), b.at(i1, 0));
        EXPECT_EQ(at3(gc, D1, D2, i0, i1, i2), c[i0 * D1 + i1]);
        EXPECT_EQ(at3(gs, D1, D2, i0, i1, i2), 7);
      }
}

TEST(TlRankN, PermuteMovesEveryElementOfRank3) {
  const auto x = randomBlock<tl::Block<float, D0 * D1, D2>>(4);
  const auto p = tl::permute_nd<tl::dims<2, 0, 1>, tl::dims<D0, D1, D2>>(x); // [D2, D0, D1]
  const auto q = tl::permute_nd<tl::dims<1, 2, 0>, tl::dims<D0, D1, D2>>(
      x * 2.0f); // [D1, D2, D0], an expression
  static_assert(std::is_same_v<decltype(p), const tl::Block<float, D2 * D0, D1>>);
  static_assert(std::is_same_v<decltype(q), const tl::Block<float, D1 * D2, D0>>);
  for (int i0 = 0; i0 < D0; ++i0)
    for (int i1 = 0; i1 < D1; ++i1)
      for (int i2 = 0; i2 < D2; ++i2) {
        EXPECT_EQ(at3(p, D0, D1, i2, i0, i1), at3(x, D1, D2, i0, i1, i2));
        EXPECT_EQ(at3(q, D2, D0, i1, i2, i0), 2.0f * at3(x, D1, D2, i0, i1, i2));
      }
}

TEST(TlRankN, Dot3MultipliesEachBatch) {
  constexpr int Bt = 3, M = 4, K = 8, N = 2;
  const auto a = smallIntegerBlock<tl::Block<float, Bt * M, K>>(5);
  const auto b = smallIntegerBlock<tl::Block<float, Bt * K, N>>(6);
  const auto acc = smallIntegerBlock<tl::Block<float, Bt * M, N>>(7);
  const tl::Block<float, Bt * M, N> with = tl::dot3<Bt>(a, b, acc);
  const tl::Block<float, Bt * M, N> without = tl::dot3<Bt>(a, b);
  for (int p = 0; p < Bt; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float sum = 0;
        for (int k = 0; k < K; ++k)
          sum += at3(a, M, K, p, i, k) * at3(b, K, N, p, k, j);
        EXPECT_EQ(at3(without, M, N, p, i, j), sum);
        EXPECT_EQ(at3(with, M, N, p, i, j), sum + at3(acc, M, N, p, i, j));
      }
}

TEST(TlRankN, IndexBlocksStayStructured) {
  // arange(0, 4)[None, :, None]: a row reshaped into a column is still an affine index.
  const auto column = tl::reshape<D1, 1>(tl::row(tl::arange<0, D1>()) * 3 + 5);
  static_assert(std::is_same_v<decltype(column), const tl::Lin<D1, 1>>);
  for (int i = 0; i < D1; ++i)
    EXPECT_EQ(column.at(i, 0), 5 + 3 * i);
  // One offset plus a column grows the Outer to the column's rows; a row adds columns.
  const tl::Block<int32_t, 1, 1> one = tl::full<int32_t, 1, 1>(11);
  const auto grown = (one + tl::col(tl::arange<0, D1>())) + tl::row(tl::arange<0, D2>()) * 2;
  static_assert(std::is_same_v<decltype(grown), const tl::Outer<D1, D2>>);
  for (int i = 0; i < D1; ++i)
    for (int j = 0; j < D2; ++j)
      EXPECT_EQ(grown.at(i, j), 11 + i + 2 * j);
}

TEST(TlRankN, BlockPtrOfRank3LoadsAndStoresInsideTheCheckedDimensions) {
  // A [2, 4, 8] block of a [3, 5, 10] tensor at (1, 2, 5): rows past dimension 1's end are not
  // contiguous, so the mask lists its lanes.
  constexpr int S0 = 3, S1 = 5, S2 = 10;
  float x[S0 * S1 * S2], z[S0 * S1 * S2];
  for (int k = 0; k < S0 * S1 * S2; ++k)
    x[k] = static_cast<float>(k), z[k] = -1.0f;
  const auto src = tl::make_block_ptr_nd<2, 4, 8>(static_cast<const float*>(x), {S0, S1, S2},
                                                  {S1 * S2, S2, 1}, {1, 2, 5});
  const auto dst = tl::advance(
      tl::make_block_ptr_nd<2, 4, 8>(z, {S0, S1, S2}, {S1 * S2, S2, 1}, {0, 0, 0}), 1, 2, 5);
  const tl::Block<float, 8, 8> tile = tl::load(src, 0b111, tl::Padding::nan);
  tl::store(dst, tile, 0b111);
  for (int i0 = 0; i0 < 2; ++i0)
    for (int i1 = 0; i1 < 4; ++i1)
      for (int i2 = 0; i2 < 8; ++i2) {
        const int p0 = 1 + i0, p1 = 2 + i1, p2 = 5 + i2;
        const bool inside = p0 < S0 && p1 < S1 && p2 < S2;
        const float lane = at3(tile, 4, 8, i0, i1, i2);
        if (inside)
          EXPECT_EQ(lane, x[(p0 * S1 + p1) * S2 + p2]);
        else
          EXPECT_TRUE(lane != lane) << i0 << "," << i1 << "," << i2; // NaN padding
      }
  for (int p0 = 0; p0 < S0; ++p0)
    for (int p1 = 0; p1 < S1; ++p1)
      for (int p2 = 0; p2 < S2; ++p2) {
        const bool written = p0 >= 1 && p1 >= 2 && p2 >= 5;
        EXPECT_EQ(z[(p0 * S1 + p1) * S2 + p2], written ? x[(p0 * S1 + p1) * S2 + p2] : -1.0f);
      }
}

// The row-major position of index i in a block of shape `shape`.
template <std::size_t N>
int flat(const std::array<int, N>& shape, const std::array<int, N>& i) {
  int k = 0;
  for (std::size_t d = 0; d < N; ++d)
    k = k * shape[d] + i[d];
  return k;
}

// Element i of a block of Triton shape `shape` held in row-major order (any tl form).
template <class B, std::size_t N>
auto atN(const B& b, const std::array<int, N>& shape, const std::array<int, N>& i) {
  return b.v[flat(shape, i)];
}

// Every index of `shape`, in row-major order.
template <std::size_t N, class F>
void eachIndex(const std::array<int, N>& shape, F f) {
  std::array<int, N> i{};
  int total = 1;
  for (int s : shape)
    total *= s;
  for (int k = 0; k < total; ++k) {
    int rest = k;
    for (std::size_t d = N; d-- > 0;)
      i[d] = rest % shape[d], rest /= shape[d];
    f(i);
  }
}

TEST(TlRankN, BroadcastOfRanks4And5) {
  constexpr std::array<int, 4> to4{2, 4, 2, 8};
  const auto a = randomBlock<tl::Block<int32_t, 4, 1>>(8);     // [1, 4, 1, 1]
  const auto b = randomBlock<tl::Block<int32_t, 2 * 2, 8>>(9); // [2, 1, 2, 8]
  const auto ga = tl::broadcast_nd<tl::dims<2, 4, 2, 8>, tl::dims<1, 4, 1, 1>>(a);
  const auto gb = tl::broadcast_nd<tl::dims<2, 4, 2, 8>, tl::dims<2, 1, 2, 8>>(b);
  static_assert(std::is_same_v<decltype(ga), const tl::Block<int32_t, 2 * 4 * 2, 8>>);
  eachIndex(to4, [&](const std::array<int, 4>& i) {
    EXPECT_EQ(atN(ga, to4, i), a.v[i[1]]);
    EXPECT_EQ(atN(gb, to4, i), atN(b, std::array{2, 1, 2, 8}, {i[0], 0, i[2], i[3]}));
  });
  constexpr std::array<int, 5> to5{2, 2, 4, 2, 4};
  const auto c = randomBlock<tl::Block<int32_t, 2 * 4, 1>>(10); // [2, 1, 4, 1, 1]
  const auto gc = tl::broadcast_nd<tl::dims<2, 2, 4, 2, 4>, tl::dims<2, 1, 4, 1, 1>>(c);
  eachIndex(to5,
            [&](const std::array<int, 5>& i) { EXPECT_EQ(atN(gc, to5, i), c.v[i[0] * 4 + i[2]]); });
}

TEST(TlRankN, PermuteOfRanks4And5) {
  constexpr std::array<int, 4> from4{2, 4, 8, 2};
  const auto x = randomBlock<tl::Block<int32_t, 2 * 4 * 8, 2>>(11);
  const auto p = tl::permute_nd<tl::dims<3, 1, 0, 2>, tl::dims<2, 4, 8, 2>>(x); // [2, 4, 2, 8]
  static_assert(std::is_same_v<decltype(p), const tl::Block<int32_t, 2 * 4 * 2, 8>>);
  eachIndex(from4, [&](const std::array<int, 4>& i) {
    EXPECT_EQ(atN(p, std::array{2, 4, 2, 8}, {i[3], i[1], i[0], i[2]}), atN(x, from4, i));
  });
  constexpr std::array<int, 5> from5{4, 2, 8, 2, 2};
  const auto y = randomBlock<tl::Block<float, 4 * 2 * 8 * 2, 2>>(12);
  const auto q = tl::permute_nd<tl::dims<4, 0, 1, 3, 2>, tl::dims<4, 2, 8, 2, 2>>(y + 1.0f);
  static_assert(std::is_same_v<decltype(q), const tl::Block<float, 2 * 4 * 2 * 2, 8>>);
  eachIndex(from5, [&](const std::array<int, 5>& i) {
    EXPECT_EQ(atN(q, std::array{2, 4, 2, 2, 8}, {i[4], i[0], i[1], i[3], i[2]}),
              atN(y, from5, i) + 1.0f);
  });
}

TEST(TlRankN, BlockPtrOfRank4LoadsAndStoresInsideTheCheckedDimensions) {
  // A [2, 2, 4, 4] block of a [3, 4, 5, 6] tensor at (1, 2, 2, 3): dimensions 2 and 3 pass the
  // end, so the rows inside are not one run and the mask lists its lanes. The load checks
  // those two (0 and 1 lie inside), the store all four.
  constexpr std::array<int, 4> s{3, 4, 5, 6}, blk{2, 2, 4, 4}, at{1, 2, 2, 3};
  constexpr int n = 3 * 4 * 5 * 6;
  int16_t x[n], z[n];
  for (int k = 0; k < n; ++k)
    x[k] = static_cast<int16_t>(k), z[k] = -1;
  const std::array<int64_t, 4> shape{3, 4, 5, 6}, strides{4 * 5 * 6, 5 * 6, 6, 1};
  const auto src = tl::make_block_ptr_nd<2, 2, 4, 4>(static_cast<const int16_t*>(x), shape, strides,
                                                     {at[0], at[1], at[2], at[3]});
  const auto dst = tl::advance(tl::make_block_ptr_nd<2, 2, 4, 4>(z, shape, strides, {0, 0, 0, 0}),
                               at[0], at[1], at[2], at[3]);
  const tl::Block<int16_t, 2 * 2 * 4, 4> tile = tl::load(src, 0b1100);
  tl::store(dst, tile, 0b1111);
  eachIndex(blk, [&](const std::array<int, 4>& i) {
    std::array<int, 4> p{};
    bool inside = true;
    for (int d = 0; d < 4; ++d)
      p[d] = at[d] + i[d], inside = inside && p[d] < s[d];
    EXPECT_EQ(atN(tile, blk, i), inside ? x[flat(s, p)] : 0);
  });
  eachIndex(s, [&](const std::array<int, 4>& p) {
    bool written = true;
    for (int d = 0; d < 4; ++d)
      written = written && p[d] >= at[d] && p[d] < at[d] + blk[d];
    EXPECT_EQ(z[flat(s, p)], written ? x[flat(s, p)] : -1);
  });
}

} // namespace
} // namespace tcpu::test
