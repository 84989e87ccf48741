// Integer division and remainder with the values NVIDIA GPUs give where C++ leaves them
// undefined. Triton's `//` and `%` on integers lower to PTX div/rem, which never trap: a kernel
// that divides by a zero it later masks out (`tl.where(y != 0, x // y, 0)`, a masked load's
// `other=0` as divisor) is correct on the GPU. Plain C++ `/` there is undefined behaviour the
// optimizer may exploit, and x86's idiv kills the process with SIGFPE (also on INT_MIN / -1).
// The values (measured with real Triton on the GPU: tests/python/test_lang_integer_division.py
// says where) are all bits set for a quotient by zero, and INT_MIN for INT_MIN / -1 (the
// two's-complement wrap, remainder 0). The remainder by zero is measured alike.
#ifndef TCPU_TL_INTEGER_DIVISION_H
#define TCPU_TL_INTEGER_DIVISION_H

#include <type_traits>

#include "tcpu/tl/platform.h"

namespace tcpu::tl::detail {

template <class T>
inline constexpr bool is_division_integer_v =
    std::is_integral_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool>;

// Branch-free, so blocks still vectorize: the divisor is replaced by 1 where the hardware
// division would trap, and the GPU's value is selected afterwards.
template <class T>
TL_INLINE T integerQuotient(T x, T y) {
  const bool zero = y == T(0);
  if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    const bool negate = y == T(-1); // x / -1 is -x, which wraps at INT_MIN instead of trapping
    const T q = x / (zero || negate ? T(1) : y);
    const T negated = static_cast<T>(U(0) - static_cast<U>(x));
    return zero ? T(-1) : (negate ? negated : q);
  } else {
    const T q = x / (zero ? T(1) : y);
    return zero ? static_cast<T>(~T(0)) : q;
  }
}

template <class T>
TL_INLINE T integerRemainder(T x, T y) {
  const bool zero = y == T(0);
  if constexpr (std::is_signed_v<T>) {
    const bool unit = y == T(-1); // x % -1 is 0; INT_MIN % -1 traps on x86
    const T r = x % (zero || unit ? T(1) : y);
    return zero ? T(-1) : (unit ? T(0) : r);
  } else {
    const T r = x % (zero ? T(1) : y);
    return zero ? static_cast<T>(~T(0)) : r;
  }
}

// The operators' elementwise functions: integers in their promoted C++ type (int8 and int16
// compute in int, as `p / q` would), everything else as C++ divides.
template <class A, class B>
TL_INLINE auto divideOp(A a, B b) {
  using C = decltype(a / b);
  if constexpr (is_division_integer_v<C>)
    return integerQuotient<C>(static_cast<C>(a), static_cast<C>(b));
  else
    return a / b;
}
template <class A, class B>
TL_INLINE auto remainderOp(A a, B b) {
  using C = decltype(a % b);
  return integerRemainder<C>(static_cast<C>(a), static_cast<C>(b));
}

} // namespace tcpu::tl::detail

#endif
