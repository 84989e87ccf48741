// Integer division, remainder and shifts with the values NVIDIA GPUs give where C++ leaves them
// undefined. Triton's `//` and `%` on integers lower to PTX div/rem, which never trap: a kernel
// that divides by a zero it later masks out (`tl.where(y != 0, x // y, 0)`, a masked load's
// `other=0` as divisor) is correct on the GPU. Plain C++ `/` there is undefined behaviour the
// optimizer may exploit, and x86's idiv kills the process with SIGFPE (also on INT_MIN / -1).
// The values, measured with Triton 3.6 on an H100 (scripts/gpu/probe_undefined_ops.py, recorded
// in tests/goldens/gpu_probes/undefined_ops.json):
// - x // 0 has all bits set, except for 64-bit x below 2^32 (as unsigned), which LLVM's NVPTX
//   back end divides in 32 bits: 0xFFFFFFFF, zero-extended;
// - x % 0 is x;
// - INT_MIN // -1 wraps to INT_MIN, and INT_MIN % -1 is 0;
// - a shift by the type's width or more (a negative amount counts as a large unsigned one), where
//   x86 masks the amount (x << 32 == x): PTX's shl/shr clamp it, so x << s and a logical x >> s
//   are 0 and an arithmetic x >> s fills with the sign bit.
#ifndef TCPU_TL_INTEGER_OPS_H
#define TCPU_TL_INTEGER_OPS_H

#include <type_traits>

#include "tcpu/tl/platform.h"

namespace tcpu::tl::detail {

template <class T>
inline constexpr bool is_division_integer_v =
    std::is_integral_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool>;

// The quotient by zero.
template <class T>
TL_INLINE T byZero(T x) {
  using U = std::make_unsigned_t<T>;
  if constexpr (sizeof(T) == 8)
    return static_cast<T>((static_cast<U>(x) >> 32) == 0 ? U(0xFFFFFFFFu) : ~U(0));
  else
    return static_cast<T>(~U(0));
}

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
    return zero ? byZero(x) : (negate ? negated : q);
  } else {
    const T q = x / (zero ? T(1) : y);
    return zero ? byZero(x) : q;
  }
}

template <class T>
TL_INLINE T integerRemainder(T x, T y) {
  const bool zero = y == T(0);
  if constexpr (std::is_signed_v<T>) {
    const bool unit = y == T(-1); // x % -1 is 0; INT_MIN % -1 traps on x86
    const T r = x % (zero || unit ? T(1) : y);
    return zero ? x : (unit ? T(0) : r);
  } else {
    const T r = x % (zero ? T(1) : y);
    return zero ? x : r;
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

// Shifts, in the left operand's promoted type (narrower types' results are narrowed by the
// caller, which gives the GPU's values for them too).
template <class A, class B>
TL_INLINE bool shiftsOut(B b) {
  using P = decltype(+b);
  using UP = std::make_unsigned_t<P>;
  return static_cast<unsigned long long>(static_cast<UP>(b)) >= 8 * sizeof(A);
}
template <class A, class B>
TL_INLINE auto shiftLeftOp(A a, B b) {
  using C = decltype(a << b);
  if constexpr (is_division_integer_v<C> && is_division_integer_v<B>) {
    using U = std::make_unsigned_t<C>;
    const bool out = shiftsOut<C>(b);
    const U shifted = static_cast<U>(static_cast<U>(a) << (out ? 0 : b));
    return static_cast<C>(out ? U(0) : shifted);
  } else {
    return a << b;
  }
}
template <class A, class B>
TL_INLINE auto shiftRightOp(A a, B b) {
  using C = decltype(a >> b);
  if constexpr (is_division_integer_v<C> && is_division_integer_v<B>) {
    const bool out = shiftsOut<C>(b);
    const C shifted = static_cast<C>(a >> (out ? 0 : b));
    const C fill = std::is_signed_v<C> && static_cast<C>(a) < 0 ? C(-1) : C(0);
    return out ? fill : shifted;
  } else {
    return a >> b;
  }
}

} // namespace tcpu::tl::detail

#endif
