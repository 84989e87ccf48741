// Triton's elementwise math beyond core.h: the libdevice functions kernels call
// (tl.extra.cuda.libdevice), tl.math's exact-rounding forms, umulhi, clamp,
// bit casts and round-toward-zero casts. C's semantics throughout; 16-bit
// floats are computed in fp32 and rounded back, as core.h's math is.
//
// What returns what, as in core.h: functions with libm names (trunc, exp10,
// atan2, hypot, ...) evaluate into a Block where they are written, like exp and
// floor; the operator-like ones (copysign, fdim, fmax/fmin, clamp, fdiv, div_rn,
// umulhi, isnan, signbit, bitcast, cast_rtz) stay lazy expressions, like
// maximum/minimum and casts, so a store or reduction fuses them. Scalars give
// scalars.
//
// Codegen maps exp10, erfc, lgamma, tgamma, asinh, acosh, atanh, atan2 and hypot
// to SLEEF's vector functions (codegen/src/target/math_library.cpp). fmod is LLVM's frem,
// which the CPU back end lowers to libm's fmod one lane at a time: SLEEF 3.5's
// fmod returns NaN where |x / y| overflows, libm's is exact; remainder is built
// on it. The rest are LLVM intrinsics (trunc, round, rint, copysign, maxnum,
// sqrt, ...) or plain arithmetic, which vectorize without a library.
#ifndef TCPU_TL_MATH_EXTRA_H
#define TCPU_TL_MATH_EXTRA_H

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tcpu/tl/core.h"

namespace tcpu::tl {

namespace detail {

// f over scalars, or over tensors: lazily (operands held as Expr holds them) or
// evaluated into a Block at once.
template <class F, class... X>
TL_INLINE auto lazyElementwise(F f, X&&... x) {
  if constexpr (!(Tensor<std::remove_cvref_t<X>> || ...))
    return f(x...);
  else
    return makeExpr(f, std::forward<X>(x)...);
}
template <class F, class... X>
TL_INLINE auto eagerElementwise(F f, const X&... x) {
  if constexpr (!(Tensor<X> || ...))
    return f(x...);
  else
    return makeExpr(f, x...).eval();
}

// The operands' common type: the result's (computed in its compute_t).
template <class... T>
using common_t = std::common_type_t<T...>;

template <class C>
TL_INLINE C exp10Of(C a) {
  // C++ has no std::exp10; clang's builtin is llvm.exp10, which codegen maps to SLEEF.
  if constexpr (std::is_same_v<C, float>)
    return __builtin_exp10f(a);
  else
    return static_cast<C>(__builtin_exp10(static_cast<double>(a)));
}

// The functions below take floats; integers are computed in fp64, as libm's overloads do.
template <class C>
using real_t = std::conditional_t<std::is_floating_point_v<C>, C, double>;

// log(2a) for large a: in fp64 for fp32 (one rounding of a far more accurate result); in fp64,
// log(a) + ln 2 where 2a would overflow.
template <class C>
TL_INLINE C logOfTwice(C a) {
  if constexpr (std::is_same_v<C, float>) {
    return static_cast<float>(std::log(2.0 * static_cast<double>(a)));
  } else {
    const bool doubles = a < std::numeric_limits<C>::max() / 2;
    return std::log(doubles ? a * 2 : a) + (doubles ? C(0) : C(0.693147180559945309417232121458));
  }
}
// SLEEF 3.5's asinh and acosh overflow to inf where x * x does (|x| > 1.8e19 in fp32, 1.3e154 in
// fp64). Beyond 2^60 (2^500), asinh(x) = sign(x) log(2|x|) and acosh(x) = log(2x) to well below
// an ULP (the next term is 1 / (4x^2)), which is computed there instead.
template <class C>
TL_INLINE C asinhOf(C x) {
  using F = real_t<C>;
  const F a = static_cast<F>(x), m = std::fabs(a);
  const F large = std::is_same_v<F, float> ? F(0x1p60) : F(0x1p500);
  return static_cast<C>(m > large ? std::copysign(logOfTwice(m), a) : std::asinh(a));
}
template <class C>
TL_INLINE C acoshOf(C x) {
  using F = real_t<C>;
  const F a = static_cast<F>(x);
  const F large = std::is_same_v<F, float> ? F(0x1p60) : F(0x1p500);
  return static_cast<C>(a > large ? logOfTwice(a) : std::acosh(a));
}

// C's remainder (the quotient rounded to nearest even) from fmod, as fdlibm computes it, so that
// it is exact and needs no libm function beyond fmod (clang's frem, which every back end has):
// fmod by 2|y| keeps the quotient's parity, then one or two subtractions of |y| fold the
// magnitude into [-|y| / 2, |y| / 2], and the sign of x is put back.
template <class C>
TL_INLINE C remainderOf(C x, C y) {
  using F = real_t<C>;
  const F p = std::fabs(static_cast<F>(y));
  const F twice = p + p; // inf only where |x| < 2|y| already, or x is inf (fmod makes that NaN)
  const F v = static_cast<F>(x);
  F a = std::fabs(std::isinf(twice) && std::isfinite(v) ? v : std::fmod(v, twice));
  if (p < 2 * std::numeric_limits<F>::min()) { // p / 2 would round: compare doubled values
    if (a + a > p) {
      a -= p;
      if (a + a >= p) a -= p;
    }
  } else {
    const F half = F(0.5) * p;
    if (a > half) {
      a -= p;
      if (a >= half) a -= p;
    }
  }
  return static_cast<C>(std::signbit(v) ? -a : a);
}

// x * 2^n rounded once. fp32 (and the 16-bit floats, through fp32): the product
// in double is exact for every n that can give a finite nonzero float, so the
// one rounding is the conversion back; n beyond +-400 gives the same inf or 0
// as +-400. fp64: musl's scalbn, which scales in at most three exact steps and
// keeps the last scale below 2^-53 when the result is subnormal, so that it is
// rounded once.
TL_INLINE float ldexpFloat(float x, int64_t n) {
  const int64_t k = n < -400 ? -400 : (n > 400 ? 400 : n);
  const double scale = std::bit_cast<double>(static_cast<uint64_t>(1023 + k) << 52);
  return static_cast<float>(static_cast<double>(x) * scale);
}
TL_INLINE double ldexpDouble(double x, int64_t n) {
  double y = x;
  int64_t k = n;
  for (int step = 0; step < 2; ++step) {
    const bool up = k > 1023;
    y = up ? y * 0x1p1023 : y;
    k = up ? k - 1023 : k;
  }
  k = k > 1023 ? 1023 : k;
  for (int step = 0; step < 2; ++step) {
    const bool down = k < -1022;
    y = down ? y * 0x1p-969 : y; // 2^-1022 * 2^53
    k = down ? k + 969 : k;
  }
  k = k < -1022 ? -1022 : k;
  return y * std::bit_cast<double>(static_cast<uint64_t>(0x3ff + k) << 52);
}

// a / b for div_rn, which divides floats only.
template <class C>
TL_INLINE C quotientOf(C a, C b) {
  static_assert(std::is_floating_point_v<C>, "div_rn divides floats");
  return a / b;
}

// The high half of the double-width product: of the operands' bit patterns as
// unsigned numbers (umulhi), or as signed ones (mulhi).
__extension__ using uint128 = unsigned __int128;
__extension__ using int128 = __int128;
template <class T>
TL_INLINE T umulhiOf(T x, T y) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "umulhi takes integers");
  using U = std::make_unsigned_t<T>;
  constexpr int bits = 8 * sizeof(T);
  if constexpr (bits == 64)
    return static_cast<T>(
        static_cast<U>((static_cast<uint128>(static_cast<U>(x)) * static_cast<U>(y)) >> 64));
  else
    return static_cast<T>(
        static_cast<U>((static_cast<uint64_t>(static_cast<U>(x)) * static_cast<U>(y)) >> bits));
}
template <class T>
TL_INLINE T mulhiOf(T x, T y) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "mulhi takes integers");
  constexpr int bits = 8 * sizeof(T);
  if constexpr (std::is_unsigned_v<T>)
    return umulhiOf(x, y);
  else if constexpr (bits == 64)
    return static_cast<T>((static_cast<int128>(x) * y) >> 64);
  else
    return static_cast<T>((static_cast<int64_t>(x) * y) >> bits);
}

// Rounds toward zero to the narrower float U: round to nearest, then one step
// back toward zero where that went away from it. Magnitudes order as their bit
// patterns do, so one less is the next value toward zero, and inf less one is
// the largest finite value (where round-toward-zero overflows to). NaN and
// exact values fail the comparison and pass through.
template <class U, class S>
TL_INLINE U narrowTowardZero(S x) {
  using Bits = std::conditional_t<sizeof(U) == 2, uint16_t, uint32_t>;
  const U nearest = static_cast<U>(x);
  const bool away = std::fabs(static_cast<S>(nearest)) > std::fabs(x);
  return std::bit_cast<U>(static_cast<Bits>(std::bit_cast<Bits>(nearest) - (away ? 1u : 0u)));
}
// fp32 to bf16 toward zero is dropping the low 16 bits (the exponent ranges are the same), which
// also keeps subnormals that a conversion instruction may flush (VCVTNEPS2BF16 does); NaN stays
// a quiet NaN rather than truncating to inf.
TL_INLINE __bf16 bf16TowardZero(float x) {
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  const bool nan = (bits & 0x7fffffffu) > 0x7f800000u;
  return std::bit_cast<__bf16>(static_cast<uint16_t>((bits >> 16) | (nan ? 0x40u : 0u)));
}
template <class U, class S>
TL_INLINE U castTowardZero(S x) {
  if constexpr (is_fp8_v<U>) {
    // fp32 -> fp8e5 toward zero, the one fp8 rtz conversion Triton 3.6 compiles on sm_90: fp32
    // to fp16 toward zero (cvt.rz.f16.f32: finite overflow to 65504, inf kept), then fp16's
    // high byte; NaN gives 0x7f (measured: tests/goldens/triton_ops/cast_fp8_rtz).
    static_assert(std::is_same_v<std::remove_cv_t<U>, float8e5> && std::is_same_v<S, float>,
                  "Triton rounds toward zero to fp8 only from fp32 to float8e5");
    if (std::isnan(x)) return U{0x7f};
    return U{static_cast<uint8_t>(std::bit_cast<uint16_t>(castTowardZero<_Float16>(x)) >> 8)};
  }
  constexpr bool narrowing = std::is_floating_point_v<S> && sizeof(U) < sizeof(S) &&
                             (std::is_same_v<U, float> || is_half_v<U>);
  if constexpr (!narrowing) {
    return static_cast<U>(static_cast<compute_t<S>>(x));
  } else if constexpr (std::is_same_v<S, double> && is_half_v<U>) {
    // Through fp32 toward zero: the 16-bit grids lie inside fp32's, so truncating twice is
    // truncating once.
    return castTowardZero<U>(narrowTowardZero<float>(x));
  } else if constexpr (std::is_same_v<U, __bf16>) {
    return bf16TowardZero(x);
  } else {
    return narrowTowardZero<U>(x);
  }
}

} // namespace detail

// Rounding to integral values, in the element type (integers pass through,
// which also keeps int64 exact): trunc, round (halves away from zero), rint and
// nearbyint (halves to even, the default rounding mode).
#define TL_ROUNDING(name)                                                                          \
  template <Operand X>                                                                             \
  TL_INLINE auto name(const X& x) {                                                                \
    return detail::eagerElementwise(                                                               \
        [](auto e) {                                                                               \
          using T = decltype(e);                                                                   \
          if constexpr (std::is_integral_v<T>)                                                     \
            return e;                                                                              \
          else                                                                                     \
            return static_cast<T>(std::name(static_cast<compute_t<T>>(e)));                        \
        },                                                                                         \
        x);                                                                                        \
  }
TL_ROUNDING(trunc)
TL_ROUNDING(round)
TL_ROUNDING(rint)
TL_ROUNDING(nearbyint)
#undef TL_ROUNDING

namespace detail {
// The modified Bessel function of the first kind of order 0 or 1: its power series
// sum_k (x/2)^(2k+n) / (k! (k+n)!), whose terms are all of one sign (no cancellation: a few ulp
// even where hundreds of terms are summed, for |x| up to where the result overflows). Each term
// comes from the last, so no factorial overflows. I0 is even, I1 odd; a NaN stays NaN.
inline double besselI(int order, double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return order == 1 && x < 0 ? x : std::fabs(x);
  const double quarterSquare = x * x / 4;
  double term = order == 0 ? 1.0 : x / 2;
  double sum = term;
  for (int k = 1; k < 2000 && std::isfinite(sum); ++k) {
    term *= quarterSquare / (static_cast<double>(k) * (k + order));
    sum += term;
    if (std::fabs(term) <= std::fabs(sum) * 1e-17) break;
  }
  return sum;
}
} // namespace detail

// Unary math with libm's names, in the compute type and rounded back.
#define TL_MATH_UNARY(name, expr)                                                                  \
  template <Operand X>                                                                             \
  TL_INLINE auto name(const X& x) {                                                                \
    return detail::eagerElementwise(                                                               \
        [](auto e) {                                                                               \
          using C = compute_t<decltype(e)>;                                                        \
          const C a = static_cast<C>(e);                                                           \
          return static_cast<decltype(e)>(expr);                                                   \
        },                                                                                         \
        x);                                                                                        \
  }
TL_MATH_UNARY(exp10, detail::exp10Of(a))
TL_MATH_UNARY(erfc, std::erfc(a))
TL_MATH_UNARY(lgamma, std::lgamma(a))
TL_MATH_UNARY(tgamma, std::tgamma(a))
TL_MATH_UNARY(asinh, detail::asinhOf(a))
TL_MATH_UNARY(acosh, detail::acoshOf(a))
TL_MATH_UNARY(atanh, std::atanh(a))
TL_MATH_UNARY(fabs, std::fabs(a))
// tl.math.sqrt_rn: IEEE's correctly rounded square root, which sqrt already is on
// the CPU (sqrtps); fp32 has more than 2 * 11 + 2 bits, so rounding its root to
// fp16 or bf16 is correctly rounded too.
TL_MATH_UNARY(sqrt_rn, std::sqrt(a))
// libdevice's Bessel functions, evaluated in double whatever the operand (libm's POSIX j0, j1,
// y0, y1; a power series for I0 and I1) and rounded back once.
TL_MATH_UNARY(j0, ::j0(static_cast<double>(a)))
TL_MATH_UNARY(j1, ::j1(static_cast<double>(a)))
TL_MATH_UNARY(y0, ::y0(static_cast<double>(a)))
TL_MATH_UNARY(y1, ::y1(static_cast<double>(a)))
TL_MATH_UNARY(cyl_bessel_i0, detail::besselI(0, static_cast<double>(a)))
TL_MATH_UNARY(cyl_bessel_i1, detail::besselI(1, static_cast<double>(a)))
#undef TL_MATH_UNARY

// A binary function's elements: expr of a and b, the operands converted to the compute type C
// of their common type U, rounded back to U.
#define TL_BINARY_ELEMENT(expr)                                                                    \
  [](auto p, auto q) {                                                                             \
    using U = detail::common_t<decltype(p), decltype(q)>;                                          \
    using C = compute_t<U>;                                                                        \
    const C a = static_cast<C>(p), b = static_cast<C>(q);                                          \
    return static_cast<U>(expr);                                                                   \
  }

// Binary math with libm's names, in the operands' common type.
#define TL_MATH_BINARY(name, expr)                                                                 \
  template <Operand X, Operand Y>                                                                  \
  TL_INLINE auto name(const X& x, const Y& y) {                                                    \
    return detail::eagerElementwise(TL_BINARY_ELEMENT(expr), x, y);                                \
  }
TL_MATH_BINARY(atan2, std::atan2(a, b))
TL_MATH_BINARY(hypot, std::hypot(a, b))
TL_MATH_BINARY(fmod, std::fmod(a, b))
TL_MATH_BINARY(remainder, detail::remainderOf(a, b))
#undef TL_MATH_BINARY

// ldexp(x, n) = x * 2^n, rounded once (libdevice's ldexp: a float and an int32).
template <Operand X, Operand N>
TL_INLINE auto ldexp(const X& x, const N& n) {
  return detail::eagerElementwise(
      [](auto e, auto k) {
        using T = decltype(e);
        static_assert(std::is_floating_point_v<compute_t<T>> && std::is_integral_v<decltype(k)>,
                      "ldexp(float, int)");
        if constexpr (std::is_same_v<T, double>)
          return detail::ldexpDouble(e, static_cast<int64_t>(k));
        else
          return static_cast<T>(detail::ldexpFloat(static_cast<float>(e), static_cast<int64_t>(k)));
      },
      x, n);
}

// The lazy, operator-like functions.
#define TL_LAZY_BINARY(name, expr)                                                                 \
  template <class X, class Y>                                                                      \
    requires(Operand<std::remove_cvref_t<X>> && Operand<std::remove_cvref_t<Y>>)                   \
  TL_INLINE auto name(X&& x, Y&& y) {                                                              \
    return detail::lazyElementwise(TL_BINARY_ELEMENT(expr), std::forward<X>(x),                    \
                                   std::forward<Y>(y));                                            \
  }
TL_LAZY_BINARY(copysign, std::copysign(a, b))
// C's fdim: x - y where x > y, else +0; NaN where either is.
TL_LAZY_BINARY(fdim, (a != a || b != b) ? a + b : (a > b ? a - b : C(0)))
// C's fmax/fmin: a NaN operand gives the other (as maximum/minimum's default).
TL_LAZY_BINARY(fmax, std::fmax(a, b))
TL_LAZY_BINARY(fmin, std::fmin(a, b))
// tl.math.div_rn: IEEE's correctly rounded division, which `/` is on the CPU; for
// fp16 and bf16 the fp32 quotient rounds to the correctly rounded one (fp32 has
// more than twice their precision plus two bits).
TL_LAZY_BINARY(div_rn, detail::quotientOf(a, b))
// tl.umulhi: the high half of the 2N-bit product of N-bit integers. As Triton
// compiles it (__nv_umulhi, __nv_umul64hi), the operands' bits are multiplied as
// unsigned numbers whatever their type's signedness; the result has the
// operands' common type (integers are their own compute type). mulhi is
// libdevice's signed form (mulhi, mul64hi).
TL_LAZY_BINARY(umulhi, detail::umulhiOf(a, b))
TL_LAZY_BINARY(mulhi, detail::mulhiOf(a, b))
#undef TL_LAZY_BINARY
#undef TL_BINARY_ELEMENT

// tl.fdiv(x, y, ieee_rounding): Triton's fast division on a GPU (2 ULP unless
// ieee_rounding); the CPU's division is exact either way.
template <class X, class Y>
  requires(Operand<std::remove_cvref_t<X>> && Operand<std::remove_cvref_t<Y>>)
TL_INLINE auto fdiv(X&& x, Y&& y, bool /*ieee_rounding*/ = false) {
  return div_rn(std::forward<X>(x), std::forward<Y>(y));
}

// tl.clamp(x, min, max, propagate_nan): min(max(x, lo), hi) with maximum and
// minimum's NaN rule (by default a NaN x gives lo). Undefined where lo > hi, as
// in Triton.
template <class X, class L, class H>
  requires(Operand<std::remove_cvref_t<X>> && Operand<std::remove_cvref_t<L>> &&
           Operand<std::remove_cvref_t<H>>)
TL_INLINE auto clamp(X&& x, L&& lo, H&& hi, PropagateNan nan = PropagateNan::none) {
  return detail::lazyElementwise(
      [nan](auto v, auto l, auto h) { return detail::minOf(detail::maxOf(v, l, nan), h, nan); },
      std::forward<X>(x), std::forward<L>(lo), std::forward<H>(hi));
}

// Classification, as bool blocks (libdevice returns int32 0 or 1: `.to<int32>()`
// gives the same values). Integers are finite numbers.
namespace detail {
template <class T>
TL_INLINE bool negativeInteger(T x) {
  if constexpr (std::is_signed_v<T>)
    return x < 0;
  else
    return false;
}
} // namespace detail
#define TL_CLASSIFY(name, floating, integral)                                                      \
  template <class X>                                                                               \
    requires Operand<std::remove_cvref_t<X>>                                                       \
  TL_INLINE auto name(X&& x) {                                                                     \
    return detail::lazyElementwise(                                                                \
        [](auto e) -> bool {                                                                       \
          using C = compute_t<decltype(e)>;                                                        \
          if constexpr (std::is_floating_point_v<C>)                                               \
            return floating(static_cast<C>(e));                                                    \
          else                                                                                     \
            return integral(e);                                                                    \
        },                                                                                         \
        std::forward<X>(x));                                                                       \
  }
TL_CLASSIFY(isnan, std::isnan, [](auto) { return false; })
TL_CLASSIFY(isinf, std::isinf, [](auto) { return false; })
TL_CLASSIFY(isfinite, std::isfinite, [](auto) { return true; })
TL_CLASSIFY(signbit, std::signbit, detail::negativeInteger)
#undef TL_CLASSIFY

// x.to(U, bitcast=True): each element's bits as a U of the same width.
template <class U, class X>
  requires Operand<std::remove_cvref_t<X>>
TL_INLINE auto bitcast(X&& x) {
  return detail::lazyElementwise(
      [](auto e) {
        using T = decltype(e);
        static_assert(sizeof(U) == sizeof(T), "bitcast keeps the element's width");
        static_assert(!std::is_same_v<U, bool> && !std::is_same_v<T, bool>,
                      "bitcast of bool is not defined (its width is one bit in Triton)");
        return std::bit_cast<U>(e);
      },
      std::forward<X>(x));
}

// x.to(U, fp_downcast_rounding="rtz"): a float narrowed to fp32, fp16 or bf16
// rounds toward zero (finite values never become inf); every other cast is
// x.to<U>()'s.
template <class U, class X>
  requires Operand<std::remove_cvref_t<X>>
TL_INLINE auto cast_rtz(X&& x) {
  return detail::lazyElementwise([](auto e) { return detail::castTowardZero<U>(e); },
                                 std::forward<X>(x));
}

} // namespace tcpu::tl

#endif
