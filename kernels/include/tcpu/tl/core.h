// tl's values: blocks of 1 or 2 dimensions with compile-time shapes, held in
// arrays, with numpy broadcasting, elementwise arithmetic, casts and math.
// Every operation is a loop of constant trip count over the block, so the
// optimizer turns it into vector code for the target (and SLEEF for math).
#ifndef TCPU_TL_CORE_H
#define TCPU_TL_CORE_H

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tcpu/tl/platform.h"

namespace tcpu::tl {

// Triton's dtypes. fp16 and bf16 are the compiler's own types, so converting
// to them rounds to nearest even, as Triton's casts do.
using int1 = bool;
using int8 = int8_t;
using int16 = int16_t;
using int32 = int32_t;
using int64 = int64_t;
using uint8 = uint8_t;
using uint16 = uint16_t;
using uint32 = uint32_t;
using uint64 = uint64_t;
using float16 = _Float16;
using bfloat16 = __bf16;
using float32 = float;
using float64 = double;

template <class T>
inline constexpr bool is_half_v =
    std::is_same_v<std::remove_cv_t<T>, _Float16> || std::is_same_v<std::remove_cv_t<T>, __bf16>;

// A scalar operand: any number tl computes with.
template <class T>
concept Scalar = std::is_arithmetic_v<T> || is_half_v<T>;

// The type a value is computed in: 16-bit floats widen to fp32, as in Triton's
// math and reductions.
template <class T>
using compute_t = std::conditional_t<is_half_v<T>, float, T>;

// The static shape of a block: rank 1 is [D0]; rank 2 is [D0, D1]. A rank-1
// block broadcasts as a row ([1, D0]), as numpy aligns trailing dimensions.
template <int D0, int D1 = -1>
struct Shape {
  static_assert(D0 > 0 && (D1 > 0 || D1 == -1), "block dimensions must be positive");
  static constexpr int rank = D1 < 0 ? 1 : 2;
  static constexpr int rows = rank == 1 ? 1 : D0;
  static constexpr int cols = rank == 1 ? D0 : D1;
  static constexpr int size = rows * cols;
};

template <class T, int D0, int D1 = -1>
struct Block {
  using value_type = T;
  using shape = Shape<D0, D1>;
  static constexpr int rank = shape::rank;
  static constexpr int rows = shape::rows;
  static constexpr int cols = shape::cols;
  static constexpr int size = shape::size;

  alignas(64) T v[size];

  TL_INLINE T& operator[](int k) { return v[k]; }
  TL_INLINE const T& operator[](int k) const { return v[k]; }
  TL_INLINE T& at(int i, int j) { return v[i * cols + j]; }
  TL_INLINE const T& at(int i, int j) const { return v[i * cols + j]; }

  // x.to<tl::float16>(): Triton's x.to(tl.float16).
  template <class U>
  TL_INLINE Block<U, D0, D1> to() const {
    Block<U, D0, D1> out;
    for (int k = 0; k < size; ++k)
      out.v[k] = static_cast<U>(static_cast<compute_t<T>>(v[k]));
    return out;
  }
};

template <class X>
struct is_block : std::false_type {};
template <class T, int D0, int D1>
struct is_block<Block<T, D0, D1>> : std::true_type {};
template <class X>
inline constexpr bool is_block_v = is_block<std::remove_cvref_t<X>>::value;

// Lazy blocks (index ranges, rectangle masks, ...) say how to become a Block:
// a member eval(). Everything that is a block or can become one is a Tensor.
template <class X>
concept Lazy = requires(const X& x) {
  { x.eval() };
};
template <class X>
concept Tensor = is_block_v<X> || Lazy<X>;
template <class X>
concept Operand = Tensor<X> || Scalar<X>;

template <class X>
TL_INLINE decltype(auto) eval(const X& x) {
  if constexpr (Lazy<X>)
    return x.eval();
  else
    return (x);
}

template <class X>
using evaluated_t = std::remove_cvref_t<decltype(eval(std::declval<X>()))>;

// Shape of an operand: scalars are rank 0, 1 x 1.
template <class X, class = void>
struct shape_of {
  static constexpr int rank = 0, rows = 1, cols = 1;
};
template <class X>
struct shape_of<X, std::enable_if_t<Tensor<X>>> {
  using B = evaluated_t<X>;
  static constexpr int rank = B::rank, rows = B::rows, cols = B::cols;
};

template <class X>
struct element {
  using type = X;
};
template <class T, int D0, int D1>
struct element<Block<T, D0, D1>> {
  using type = T;
};
template <class X>
using element_t = typename element<evaluated_t<X>>::type;

namespace detail {

constexpr int broadcastDim(int a, int b) {
  return a == b ? a : (a == 1 ? b : a);
}
constexpr bool broadcastable(int a, int b) {
  return a == b || a == 1 || b == 1;
}

// The block type of broadcasting shapes X and Y with elements of type T.
template <class T, class X, class Y>
struct broadcast_block {
  using SX = shape_of<X>;
  using SY = shape_of<Y>;
  static_assert(broadcastable(SX::rows, SY::rows) && broadcastable(SX::cols, SY::cols),
                "block shapes do not broadcast");
  static constexpr int rank = SX::rank > SY::rank ? SX::rank : SY::rank;
  static constexpr int rows = broadcastDim(SX::rows, SY::rows);
  static constexpr int cols = broadcastDim(SX::cols, SY::cols);
  using type = std::conditional_t<rank == 2, Block<T, rows, cols>, Block<T, cols>>;
};

// Element (i, j) of an evaluated operand, broadcasting size-1 dimensions.
template <class X>
TL_INLINE auto get(const X& x, int i, int j) {
  if constexpr (is_block_v<X>)
    return x.v[(X::rows == 1 ? 0 : i) * X::cols + (X::cols == 1 ? 0 : j)];
  else
    return x;
}

} // namespace detail

// Elementwise map and zip with broadcasting (the building blocks of every
// operator): the inner loop runs along the contiguous dimension.
template <class X, class F>
TL_INLINE auto map(const X& x, F f) {
  const auto& a = eval(x);
  using A = std::remove_cvref_t<decltype(a)>;
  using U = decltype(f(a.v[0]));
  Block<U, A::rank == 2 ? A::rows : A::cols, A::rank == 2 ? A::cols : -1> out;
  for (int k = 0; k < A::size; ++k)
    out.v[k] = f(a.v[k]);
  return out;
}

template <class X, class Y, class F>
TL_INLINE auto zip(const X& x, const Y& y, F f) {
  const auto& a = eval(x);
  const auto& b = eval(y);
  using A = std::remove_cvref_t<decltype(a)>;
  using B = std::remove_cvref_t<decltype(b)>;
  using U = decltype(f(detail::get(a, 0, 0), detail::get(b, 0, 0)));
  using Out = typename detail::broadcast_block<U, A, B>::type;
  Out out;
  for (int i = 0; i < Out::rows; ++i)
    for (int j = 0; j < Out::cols; ++j)
      out.v[i * Out::cols + j] = f(detail::get(a, i, j), detail::get(b, i, j));
  return out;
}

template <class C, class X, class Y, class F>
TL_INLINE auto zip3(const C& c, const X& x, const Y& y, F f) {
  const auto& a = eval(c);
  const auto& b = eval(x);
  const auto& d = eval(y);
  using A = std::remove_cvref_t<decltype(a)>;
  using B = std::remove_cvref_t<decltype(b)>;
  using D = std::remove_cvref_t<decltype(d)>;
  using U = decltype(f(detail::get(a, 0, 0), detail::get(b, 0, 0), detail::get(d, 0, 0)));
  using AB = typename detail::broadcast_block<bool, A, B>::type;
  using Out = typename detail::broadcast_block<U, AB, D>::type;
  Out out;
  for (int i = 0; i < Out::rows; ++i)
    for (int j = 0; j < Out::cols; ++j)
      out.v[i * Out::cols + j] =
          f(detail::get(a, i, j), detail::get(b, i, j), detail::get(d, i, j));
  return out;
}

// Constructors.
template <class T, int D0, int D1 = -1>
TL_INLINE Block<T, D0, D1> full(T value) {
  Block<T, D0, D1> out;
  for (int k = 0; k < Block<T, D0, D1>::size; ++k)
    out.v[k] = value;
  return out;
}
template <class T, int D0, int D1 = -1>
TL_INLINE Block<T, D0, D1> zeros() {
  return full<T, D0, D1>(T(0));
}

template <class T>
TL_INLINE constexpr T cdiv(T x, T d) {
  return (x + d - 1) / d;
}

// Casts: tl::cast<tl::float16>(x) is Triton's x.to(tl.float16).
template <class U, class X>
TL_INLINE auto cast(const X& x) {
  if constexpr (Tensor<X>)
    return map(x, [](auto e) { return static_cast<U>(static_cast<compute_t<decltype(e)>>(e)); });
  else
    return static_cast<U>(x);
}

// Operators. Bool blocks combine to bool blocks; everything else follows C++
// promotion (Triton's rules for the cases the tutorials use; `/` on integers
// truncates like C and like Triton's `//`).
namespace detail {
template <class A, class B>
TL_INLINE auto logical(A a, B b, auto f) {
  if constexpr (std::is_same_v<A, bool> && std::is_same_v<B, bool>)
    return static_cast<bool>(f(a, b));
  else
    return f(a, b);
}
} // namespace detail

#define TL_BINARY_OPERATOR(op)                                                                     \
  template <Operand X, Operand Y>                                                                  \
    requires(Tensor<X> || Tensor<Y>)                                                               \
  TL_INLINE auto operator op(const X& x, const Y& y) {                                             \
    return zip(x, y, [](auto a, auto b) {                                                          \
      return detail::logical(a, b, [](auto p, auto q) { return p op q; });                         \
    });                                                                                            \
  }
TL_BINARY_OPERATOR(+)
TL_BINARY_OPERATOR(-)
TL_BINARY_OPERATOR(*)
TL_BINARY_OPERATOR(/)
TL_BINARY_OPERATOR(%)
TL_BINARY_OPERATOR(&)
TL_BINARY_OPERATOR(|)
TL_BINARY_OPERATOR(^)
TL_BINARY_OPERATOR(<<)
TL_BINARY_OPERATOR(>>)
#undef TL_BINARY_OPERATOR

#define TL_COMPARISON(op)                                                                          \
  template <Operand X, Operand Y>                                                                  \
    requires(Tensor<X> || Tensor<Y>)                                                               \
  TL_INLINE auto operator op(const X& x, const Y& y) {                                             \
    return zip(x, y, [](auto a, auto b) -> bool { return a op b; });                               \
  }
TL_COMPARISON(<)
TL_COMPARISON(<=)
TL_COMPARISON(>)
TL_COMPARISON(>=)
TL_COMPARISON(==)
TL_COMPARISON(!=)
#undef TL_COMPARISON

template <Tensor X>
TL_INLINE auto operator-(const X& x) {
  return map(x, [](auto a) { return -a; });
}
template <Tensor X>
TL_INLINE auto operator!(const X& x) {
  return map(x, [](auto a) -> bool { return !a; });
}
template <Tensor X>
TL_INLINE auto operator~(const X& x) {
  return map(x, [](auto a) { return ~a; });
}

#define TL_COMPOUND_ASSIGNMENT(op)                                                                 \
  template <class T, int D0, int D1, Operand Y>                                                    \
  TL_INLINE Block<T, D0, D1>& operator op##=(Block<T, D0, D1>& x, const Y & y) {                   \
    x = cast<T>(x op y);                                                                           \
    return x;                                                                                      \
  }
TL_COMPOUND_ASSIGNMENT(+)
TL_COMPOUND_ASSIGNMENT(-)
TL_COMPOUND_ASSIGNMENT(*)
TL_COMPOUND_ASSIGNMENT(/)
#undef TL_COMPOUND_ASSIGNMENT

// where(condition, x, y), broadcasting all three.
template <Operand C, Operand X, Operand Y>
TL_INLINE auto where(const C& c, const X& x, const Y& y) {
  if constexpr (!Tensor<C> && !Tensor<X> && !Tensor<Y>)
    return c ? x : y;
  else
    return zip3(c, x, y, [](bool p, auto a, auto b) {
      using U = std::common_type_t<decltype(a), decltype(b)>;
      return p ? static_cast<U>(a) : static_cast<U>(b);
    });
}

// maximum/minimum: a NaN operand is ignored (Triton's default,
// propagate_nan=NONE); pass PropagateNan::all to return NaN instead.
enum class PropagateNan { none, all };

namespace detail {
template <class A, class B>
TL_INLINE auto maxOf(A a, B b, PropagateNan nan) {
  using U = std::common_type_t<A, B>;
  using C = compute_t<U>;
  const C x = static_cast<C>(a), y = static_cast<C>(b);
  if constexpr (std::is_floating_point_v<C>) {
    if (nan == PropagateNan::all && (x != x || y != y)) return static_cast<U>(x + y);
    return static_cast<U>(std::fmax(x, y));
  } else {
    return static_cast<U>(x > y ? x : y);
  }
}
template <class A, class B>
TL_INLINE auto minOf(A a, B b, PropagateNan nan) {
  using U = std::common_type_t<A, B>;
  using C = compute_t<U>;
  const C x = static_cast<C>(a), y = static_cast<C>(b);
  if constexpr (std::is_floating_point_v<C>) {
    if (nan == PropagateNan::all && (x != x || y != y)) return static_cast<U>(x + y);
    return static_cast<U>(std::fmin(x, y));
  } else {
    return static_cast<U>(x < y ? x : y);
  }
}
} // namespace detail

template <Operand X, Operand Y>
TL_INLINE auto maximum(const X& x, const Y& y, PropagateNan nan = PropagateNan::none) {
  if constexpr (!Tensor<X> && !Tensor<Y>)
    return detail::maxOf(x, y, nan);
  else
    return zip(x, y, [nan](auto a, auto b) { return detail::maxOf(a, b, nan); });
}
template <Operand X, Operand Y>
TL_INLINE auto minimum(const X& x, const Y& y, PropagateNan nan = PropagateNan::none) {
  if constexpr (!Tensor<X> && !Tensor<Y>)
    return detail::minOf(x, y, nan);
  else
    return zip(x, y, [nan](auto a, auto b) { return detail::minOf(a, b, nan); });
}

// Math, elementwise, computed in fp32 for 16-bit floats. The calls become
// LLVM intrinsics or libm names that codegen maps to SLEEF vector functions.
#define TL_UNARY_MATH(name, expr)                                                                  \
  template <Operand X>                                                                             \
  TL_INLINE auto name(const X& x) {                                                                \
    auto f = [](auto e) {                                                                          \
      using C = compute_t<decltype(e)>;                                                            \
      const C a = static_cast<C>(e);                                                               \
      return static_cast<decltype(e)>(expr);                                                       \
    };                                                                                             \
    if constexpr (Tensor<X>)                                                                       \
      return map(x, f);                                                                            \
    else                                                                                           \
      return f(x);                                                                                 \
  }
TL_UNARY_MATH(exp, std::exp(a))
TL_UNARY_MATH(exp2, std::exp2(a))
TL_UNARY_MATH(log, std::log(a))
TL_UNARY_MATH(log2, std::log2(a))
TL_UNARY_MATH(log10, std::log10(a))
TL_UNARY_MATH(log1p, std::log1p(a))
TL_UNARY_MATH(expm1, std::expm1(a))
TL_UNARY_MATH(sqrt, std::sqrt(a))
TL_UNARY_MATH(rsqrt, C(1) / std::sqrt(a))
TL_UNARY_MATH(sin, std::sin(a))
TL_UNARY_MATH(cos, std::cos(a))
TL_UNARY_MATH(tan, std::tan(a))
TL_UNARY_MATH(asin, std::asin(a))
TL_UNARY_MATH(acos, std::acos(a))
TL_UNARY_MATH(atan, std::atan(a))
TL_UNARY_MATH(sinh, std::sinh(a))
TL_UNARY_MATH(cosh, std::cosh(a))
TL_UNARY_MATH(tanh, std::tanh(a))
TL_UNARY_MATH(erf, std::erf(a))
TL_UNARY_MATH(cbrt, std::cbrt(a))
TL_UNARY_MATH(abs, std::abs(a))
TL_UNARY_MATH(floor, std::floor(a))
TL_UNARY_MATH(ceil, std::ceil(a))
TL_UNARY_MATH(sigmoid, C(1) / (C(1) + std::exp(-a)))
#undef TL_UNARY_MATH

template <Operand X, Operand Y>
TL_INLINE auto pow(const X& x, const Y& y) {
  auto f = [](auto a, auto b) {
    using C = compute_t<std::common_type_t<decltype(a), decltype(b)>>;
    return std::pow(static_cast<C>(a), static_cast<C>(b));
  };
  if constexpr (!Tensor<X> && !Tensor<Y>)
    return f(x, y);
  else
    return zip(x, y, f);
}

// Fused multiply-add, as tl.fma.
template <Operand X, Operand Y, Operand Z>
TL_INLINE auto fma(const X& x, const Y& y, const Z& z) {
  auto f = [](auto a, auto b, auto c) {
    using C = compute_t<std::common_type_t<decltype(a), decltype(b), decltype(c)>>;
    return std::fma(static_cast<C>(a), static_cast<C>(b), static_cast<C>(c));
  };
  if constexpr (!Tensor<X> && !Tensor<Y> && !Tensor<Z>)
    return f(x, y, z);
  else
    return zip3(x, y, z, f);
}

} // namespace tcpu::tl

#endif
