// tl/rank3.h (the front end's blocks of rank 3, held as [D0 * D1, D2]) against plain loops over
// the three indices, compiled for the host: broadcast3, permute3 and the batched dot3; and the
// index blocks the front end builds for rank-3 offsets (a reshaped range stays affine; a column
// of offsets plus a row, or one offset plus a column, is still an Outer).
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tcpu/tl/index.h"
#include "tcpu/tl/rank3.h"
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

TEST(TlRank3, Broadcast3GrowsEachSizeOneDimension) {
  const auto a = randomBlock<tl::Block<int32_t, D0, D2>>(1);  // [D0, 1, D2]
  const auto b = randomBlock<tl::Block<int32_t, D1, 1>>(2);   // [1, D1, 1]
  const auto c = randomBlock<tl::Block<int32_t, D0 * D1>>(3); // [D0, D1, 1], any layout
  const tl::Block<int32_t, D0 * D1, D2> ga = tl::broadcast3<D0, D1, D2, D0, 1, D2>(a);
  const tl::Block<int32_t, D0 * D1, D2> gb = tl::broadcast3<D0, D1, D2, 1, D1, 1>(b);
  const tl::Block<int32_t, D0 * D1, D2> gc = tl::broadcast3<D0, D1, D2, D0, D1, 1>(c);
  const tl::Block<int32_t, D0 * D1, D2> gs = tl::broadcast3<D0, D1, D2, 1, 1, 1>(int32_t{7});
  for (int i0 = 0; i0 < D0; ++i0)
    for (int i1 = 0; i1 < D1; ++i1)
      for (int i2 = 0; i2 < D2; ++i2) {
        EXPECT_EQ(at3(ga, D1, D2, i0, i1, i2), a.at(i0, i2));
        EXPECT_EQ(at3(gb, D1, D2, i0, i1, i2), b.at(i1, 0));
        EXPECT_EQ(at3(gc, D1, D2, i0, i1, i2), c[i0 * D1 + i1]);
        EXPECT_EQ(at3(gs, D1, D2, i0, i1, i2), 7);
      }
}

TEST(TlRank3, Permute3MovesEveryElement) {
  const auto x = randomBlock<tl::Block<float, D0 * D1, D2>>(4);
  const auto p = tl::permute3<2, 0, 1, D0, D1, D2>(x);        // [D2, D0, D1]
  const auto q = tl::permute3<1, 2, 0, D0, D1, D2>(x * 2.0f); // [D1, D2, D0], an expression
  static_assert(std::is_same_v<decltype(p), const tl::Block<float, D2 * D0, D1>>);
  static_assert(std::is_same_v<decltype(q), const tl::Block<float, D1 * D2, D0>>);
  for (int i0 = 0; i0 < D0; ++i0)
    for (int i1 = 0; i1 < D1; ++i1)
      for (int i2 = 0; i2 < D2; ++i2) {
        EXPECT_EQ(at3(p, D0, D1, i2, i0, i1), at3(x, D1, D2, i0, i1, i2));
        EXPECT_EQ(at3(q, D2, D0, i1, i2, i0), 2.0f * at3(x, D1, D2, i0, i1, i2));
      }
}

TEST(TlRank3, Dot3MultipliesEachBatch) {
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

TEST(TlRank3, IndexBlocksStayStructured) {
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

TEST(TlRank3, BlockPtr3LoadsAndStoresInsideTheCheckedDimensions) {
  // A [2, 4, 8] block of a [3, 5, 10] tensor at (1, 2, 5): rows past dimension 1's end are not
  // contiguous, so the mask lists its lanes.
  constexpr int S0 = 3, S1 = 5, S2 = 10;
  float x[S0 * S1 * S2], z[S0 * S1 * S2];
  for (int k = 0; k < S0 * S1 * S2; ++k)
    x[k] = static_cast<float>(k), z[k] = -1.0f;
  const auto src = tl::make_block_ptr3<2, 4, 8>(static_cast<const float*>(x), {S0, S1, S2},
                                                {S1 * S2, S2, 1}, {1, 2, 5});
  const auto dst = tl::advance(
      tl::make_block_ptr3<2, 4, 8>(z, {S0, S1, S2}, {S1 * S2, S2, 1}, {0, 0, 0}), 1, 2, 5);
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

} // namespace
} // namespace tcpu::test
