// argmax/argmin (tl/arg_reduce.h) against the one left-to-right scan that defines them: the
// first index of the extreme, a NaN counting as greater than everything for argmax and smaller
// for argmin (so the first NaN wins), -0 and +0 equal. The vectorized scans (lanes merged by
// value, ties to the smaller index; columns as lanes) must give that index on rows of every
// length (tails past the lanes included), with many ties, with and without NaNs.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "tcpu/tl/reduce.h"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

// bf16 widened through its bits (a plain conversion's NaN tests become bf16 compares, which
// x86 does by calling into compiler-rt, not linked here).
template <class T>
tl::compute_t<T> widen(T x) {
  if constexpr (std::is_same_v<T, __bf16>)
    return std::bit_cast<float>(static_cast<uint32_t>(std::bit_cast<uint16_t>(x)) << 16);
  else
    return static_cast<tl::compute_t<T>>(x);
}

template <bool Max, class T>
int32_t scanReference(const T* x, int n, int stride) {
  using C = tl::compute_t<T>;
  C best = widen(x[0]);
  int32_t at = 0;
  for (int j = 1; j < n; ++j) {
    const C e = widen(x[j * stride]);
    bool replaces = Max ? e > best : e < best;
    if constexpr (std::is_floating_point_v<C>) replaces = best == best && (e != e || replaces);
    if (replaces) best = e, at = j;
  }
  return at;
}

// Few distinct values, so ties are everywhere; NaNs and signed zeros where the type has them.
template <class T>
float draw(std::mt19937& gen, bool nans) {
  const int pick = static_cast<int>(gen() % 16);
  if (std::is_floating_point_v<tl::compute_t<T>>) {
    if (nans && pick == 0) return std::numeric_limits<float>::quiet_NaN();
    if (pick == 1) return -0.0f;
    return static_cast<float>(pick % 7) - 3.0f; // exact in every float type
  }
  return static_cast<float>(pick % 7 - (std::is_signed_v<T> ? 3 : 0));
}

// Writes f as a T. bf16 goes in as its bits: any bf16 value the compiler must hold in a register
// (returned, selected) becomes a call into compiler-rt on x86 without AVX512-BF16, which these
// host tests do not link.
template <class T>
void put(T* where, float f) {
  if constexpr (std::is_same_v<T, __bf16>) {
    const auto bits = static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16);
    std::memcpy(where, &bits, sizeof bits);
  } else {
    *where = static_cast<T>(f);
  }
}

template <class T, int Rows, int Cols>
void checkBlock(unsigned seed, bool nans) {
  SCOPED_TRACE(testing::Message() << Rows << " x " << Cols << " seed " << seed << " nans " << nans);
  std::mt19937 gen(seed);
  tl::Block<T, Rows, Cols> x;
  for (int k = 0; k < Rows * Cols; ++k)
    put(&x.v[k], draw<T>(gen, nans));
  const auto rowMax = tl::argmax<1>(x), rowMin = tl::argmin<1>(x);
  for (int i = 0; i < Rows; ++i) {
    EXPECT_EQ(rowMax.v[i], (scanReference<true>(x.v + i * Cols, Cols, 1))) << "row " << i;
    EXPECT_EQ(rowMin.v[i], (scanReference<false>(x.v + i * Cols, Cols, 1))) << "row " << i;
  }
  const auto colMax = tl::argmax<0>(x), colMin = tl::argmin<0>(x);
  for (int j = 0; j < Cols; ++j) {
    EXPECT_EQ(colMax.v[j], (scanReference<true>(x.v + j, Rows, Cols))) << "column " << j;
    EXPECT_EQ(colMin.v[j], (scanReference<false>(x.v + j, Rows, Cols))) << "column " << j;
  }
  tl::Block<T, Cols> row;
  std::memcpy(row.v, x.v, sizeof(T) * Cols);
  EXPECT_EQ(tl::argmax(row), (scanReference<true>(row.v, Cols, 1)));
  EXPECT_EQ(tl::argmin(row), (scanReference<false>(row.v, Cols, 1)));
}

template <class T>
class TlArgReduce : public testing::Test {};
// (_Float16 and __bf16 have no typeinfo for gtest's type names: they are checked below.)
using Types = testing::Types<float, double, int8_t, int32_t, uint8_t, int64_t>;
TYPED_TEST_SUITE(TlArgReduce, Types);

template <class T>
void checkShapes() {
  for (unsigned seed = 0; seed < 6; ++seed)
    for (const bool nans : {false, true}) {
      checkBlock<T, 4, 1>(seed, nans);
      checkBlock<T, 3, 7>(seed, nans);
      checkBlock<T, 5, 64>(seed, nans);
      checkBlock<T, 2, 100>(seed, nans);
      checkBlock<T, 3, 300>(seed, nans);
      checkBlock<T, 2, 1024>(seed, nans);
    }
}

TYPED_TEST(TlArgReduce, AgreesWithTheLeftToRightScan) {
  checkShapes<TypeParam>();
}
TEST(TlArgReduce, AgreesWithTheLeftToRightScanInFp16AndBf16) {
  checkShapes<_Float16>();
  checkShapes<__bf16>();
}

TEST(TlArgReduce, FirstNanWinsAndSignedZerosTie) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  tl::Block<float, 200> x;
  for (int j = 0; j < 200; ++j)
    x.v[j] = 1.0f;
  x.v[150] = nan, x.v[77] = nan, x.v[190] = 5.0f;
  EXPECT_EQ(tl::argmax(x), 77);
  EXPECT_EQ(tl::argmin(x), 77);
  for (int j = 0; j < 200; ++j)
    x.v[j] = -1.0f;
  x.v[130] = 0.0f, x.v[66] = -0.0f;
  EXPECT_EQ(tl::argmax(x), 66);
}

// The row's passes (the extreme, then its first index) against the scan where the extreme is
// an infinity, the identity the first pass starts NaN lanes from, and where a NaN comes after it.
TEST(TlArgReduce, InfinitiesAndANanAfterTheExtreme) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  tl::Block<float, 256> x;
  for (int j = 0; j < 256; ++j)
    x.v[j] = -inf;
  EXPECT_EQ(tl::argmax(x), 0);
  x.v[0] = nan, x.v[3] = nan;
  EXPECT_EQ(tl::argmax(x), 0);
  x.v[0] = -inf;
  EXPECT_EQ(tl::argmax(x), 3);
  EXPECT_EQ(tl::argmin(x), 3);
  for (int j = 0; j < 256; ++j)
    x.v[j] = nan;
  EXPECT_EQ(tl::argmax(x), 0);
  EXPECT_EQ(tl::argmin(x), 0);
  for (int j = 0; j < 256; ++j)
    x.v[j] = static_cast<float>(j % 10);
  x.v[5] = inf, x.v[9] = -inf, x.v[200] = nan;
  EXPECT_EQ(tl::argmax(x), 200); // the extreme (inf) first, a NaN later: the NaN
  EXPECT_EQ(tl::argmin(x), 200);
  x.v[200] = 1.0f;
  EXPECT_EQ(tl::argmax(x), 5);
  EXPECT_EQ(tl::argmin(x), 9);
}

} // namespace
} // namespace tcpu::test
