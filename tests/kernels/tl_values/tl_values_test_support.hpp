// What the host-compiled tests of tl's value semantics share (tl_shape_test, tl_scan_test,
// tl_sort_test): blocks of random values, and element comparison that prints 16-bit floats.
#ifndef TCPU_TESTS_KERNELS_TL_VALUES_TEST_SUPPORT_HPP
#define TCPU_TESTS_KERNELS_TL_VALUES_TEST_SUPPORT_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

#include "tcpu/tl/core.h"

namespace tcpu::test {

// A typed test's element type, wrapped: gtest names its types through typeid, and the C++
// runtime has no type_info for _Float16 or __bf16.
template <class T>
struct Element {
  using type = T;
};

// A block of random values: floats uniform in [lo, hi), integers uniform over [lo, hi] clamped
// to the type's range (the whole range by default).
template <class B>
B randomBlock(uint32_t seed, double lo = -1e300, double hi = 1e300) {
  using T = typename B::value_type;
  std::mt19937 rng(seed);
  B b;
  for (int k = 0; k < B::size; ++k) {
    if constexpr (std::is_same_v<T, bool>) {
      b.v[k] = (rng() & 1) != 0;
    } else if constexpr (std::is_integral_v<T>) {
      const double tlo = static_cast<double>(std::numeric_limits<T>::lowest());
      const double thi = static_cast<double>(std::numeric_limits<T>::max());
      std::uniform_int_distribution<int64_t> dist(static_cast<int64_t>(lo < tlo ? tlo : lo),
                                                  static_cast<int64_t>(hi > thi ? thi : hi));
      b.v[k] = static_cast<T>(dist(rng));
    } else {
      std::uniform_real_distribution<float> dist(static_cast<float>(lo < -100 ? -100 : lo),
                                                 static_cast<float>(hi > 100 ? 100 : hi));
      b.v[k] = static_cast<T>(dist(rng));
    }
  }
  return b;
}

// A block of random integers in [lo, hi] of any element type: floats that every order of
// additions (below 2^24) sums exactly.
template <class B>
B integerValuedBlock(uint32_t seed, int lo, int hi) {
  using T = typename B::value_type;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  B b;
  for (int k = 0; k < B::size; ++k)
    b.v[k] = static_cast<T>(dist(rng));
  return b;
}

// A value as gtest can print it (16-bit floats as float, 8-bit integers as numbers).
template <class T>
auto printable(T x) {
  if constexpr (tl::is_half_v<T>)
    return static_cast<float>(x);
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 1 && !std::is_same_v<T, bool>)
    return static_cast<int>(x);
  else
    return x;
}

} // namespace tcpu::test

#endif
