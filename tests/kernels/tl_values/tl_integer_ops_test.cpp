// Integer `/`, `%`, `/=`, `<<`, `>>` and tl::int_div / int_rem / shift_left / shift_right
// (tl/integer_ops.h) where C++ leaves
// them undefined and x86 traps: division by zero and the signed minimum divided by -1. They must
// neither trap nor be optimized on the assumption that they cannot happen, and give the GPU's
// values (measured: tl/integer_ops.h): a quotient by zero has all bits set (64-bit dividends
// below 2^32: 0xFFFFFFFF), a remainder by zero is the dividend, INT_MIN / -1 wraps (remainder
// 0). Every other lane divides as C++ (and Triton) truncates.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "tcpu/tl/core.h"

namespace tcpu::test {
namespace {

namespace tl = tcpu::tl;

template <class T>
class TlIntegerDivision : public testing::Test {};
using IntegerTypes =
    testing::Types<int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;
TYPED_TEST_SUITE(TlIntegerDivision, IntegerTypes);

constexpr int kLanes = 8;

// volatile: the divisors are not known to the optimizer, as in a kernel that loads them.
template <class T>
tl::Block<T, kLanes> fromLanes(const volatile T (&values)[kLanes]) {
  tl::Block<T, kLanes> out;
  for (int k = 0; k < kLanes; ++k)
    out.v[k] = values[k];
  return out;
}

// The GPU's quotient by zero.
template <class T>
T quotientByZero(T x) {
  using U = std::make_unsigned_t<T>;
  if (sizeof(T) == 8 && static_cast<U>(x) <= 0xFFFFFFFFu) return static_cast<T>(0xFFFFFFFFu);
  return static_cast<T>(~U(0));
}

TYPED_TEST(TlIntegerDivision, ByZeroGivesTheGpusValuesAndOtherLanesTruncate) {
  using T = TypeParam;
  constexpr T kMax = std::numeric_limits<T>::max();
  const volatile T xs[kLanes] = {7, 0, kMax, 9, 100, 1, 5, kMax};
  const volatile T ys[kLanes] = {0, 0, 0, 2, 7, 1, 5, 3};
  const auto x = fromLanes(xs), y = fromLanes(ys);
  const tl::Block<T, kLanes> q = x / y, r = x % y, qf = tl::int_div(x, y), rf = tl::int_rem(x, y);
  tl::Block<T, kLanes> in_place = x;
  in_place /= y;
  for (int k = 0; k < kLanes; ++k) {
    SCOPED_TRACE(testing::Message() << "lane " << k);
    const T want_q = ys[k] == 0 ? quotientByZero<T>(xs[k]) : static_cast<T>(xs[k] / ys[k]);
    const T want_r = ys[k] == 0 ? T(xs[k]) : static_cast<T>(xs[k] % ys[k]);
    EXPECT_EQ(q.v[k], want_q);
    EXPECT_EQ(qf.v[k], want_q);
    EXPECT_EQ(in_place.v[k], want_q);
    EXPECT_EQ(r.v[k], want_r);
    EXPECT_EQ(rf.v[k], want_r);
  }
  // Scalars (the front end's code for scalar kernel arguments).
  const volatile T zero = 0, seven = 7;
  EXPECT_EQ(static_cast<T>(tl::int_div(seven, zero)), quotientByZero<T>(7));
  EXPECT_EQ(static_cast<T>(tl::int_rem(seven, zero)), T(7));
}

TYPED_TEST(TlIntegerDivision, MinimumByMinusOneWrapsWithRemainderZero) {
  using T = TypeParam;
  if constexpr (std::is_signed_v<T>) {
    constexpr T kMin = std::numeric_limits<T>::min();
    const volatile T xs[kLanes] = {kMin, kMin, -7, 7, kMin, 0, -1, kMin};
    const volatile T ys[kLanes] = {-1, -1, -1, -1, 1, -1, -1, 2};
    const auto x = fromLanes(xs), y = fromLanes(ys);
    const tl::Block<T, kLanes> q = x / y, r = x % y;
    const T wants_q[kLanes] = {kMin, kMin, 7, -7, kMin, 0, 1, static_cast<T>(kMin / 2)};
    for (int k = 0; k < kLanes; ++k) {
      SCOPED_TRACE(testing::Message() << "lane " << k);
      EXPECT_EQ(q.v[k], wants_q[k]);
      EXPECT_EQ(r.v[k], T(0));
    }
    const volatile T minimum = kMin, minus_one = -1;
    EXPECT_EQ(static_cast<T>(tl::int_div(minimum, minus_one)), kMin);
    EXPECT_EQ(static_cast<T>(tl::int_rem(minimum, minus_one)), T(0));
  }
}

// Shifts by the width or more: PTX clamps the amount (x86 masks it).
TYPED_TEST(TlIntegerDivision, ShiftsByTheWidthOrMoreClamp) {
  using T = TypeParam;
  using C = decltype(T() << 1); // the promoted type the operators compute in
  constexpr int kBits = 8 * sizeof(C);
  const volatile T xs[kLanes] = {5, 5, 5, 5, 5, 5, 5, 5};
  const volatile T ss[kLanes] = {
      0, 1, T(kBits - 1 < 127 ? kBits - 1 : 3), T(kBits % 256), 100, 3, T(-1), 2};
  const auto x = fromLanes(xs), s = fromLanes(ss);
  const tl::Block<C, kLanes> left = x << s, right = x >> s;
  for (int k = 0; k < kLanes; ++k) {
    SCOPED_TRACE(testing::Message() << "lane " << k << " amount " << +ss[k]);
    const auto amount = static_cast<unsigned long long>(
        static_cast<std::make_unsigned_t<C>>(static_cast<C>(ss[k])));
    const bool out = amount >= kBits;
    EXPECT_EQ(left.v[k], out ? C(0) : static_cast<C>(C(5) << amount));
    EXPECT_EQ(right.v[k], out ? C(0) : static_cast<C>(C(5) >> amount));
  }
  if constexpr (std::is_signed_v<C>) {
    const volatile C minus = -5, big = kBits + 3;
    EXPECT_EQ(static_cast<C>(tl::shift_right(minus, big)), C(-1));
    EXPECT_EQ(static_cast<C>(tl::shift_left(minus, big)), C(0));
  }
}

} // namespace
} // namespace tcpu::test
