// tl's values: blocks of 1 or 2 dimensions with compile-time shapes, held in
// arrays, with numpy broadcasting, elementwise arithmetic, casts and math.
// Every operation is a loop of constant trip count over the block, so the
// optimizer turns it into vector code for the target (and SLEEF for math).
#ifndef TCPU_TL_CORE_H
#define TCPU_TL_CORE_H

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>

#include "tcpu/tl/fp8.h"
#include "tcpu/tl/integer_ops.h"
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

// A scalar operand: any number tl computes with, or an fp8 value it moves and converts.
template <class T>
concept Scalar = std::is_arithmetic_v<T> || is_half_v<T> || is_fp8_v<T>;

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

namespace detail {

// Conversions to bf16 round to nearest even and keep subnormals, as Triton's do. (x86's
// VCVTNEPS2BF16, which LLVM uses for fptrunc where AVX512-BF16 exists, flushes them to zero.)
TL_INLINE __bf16 bf16FromBits(uint16_t bits) {
  return std::bit_cast<__bf16>(bits);
}
TL_INLINE __bf16 floatToBf16(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: quiet, sign kept
    return bf16FromBits(static_cast<uint16_t>((u >> 16) | 0x0040u));
  u += 0x7fffu + ((u >> 16) & 1u);
  return bf16FromBits(static_cast<uint16_t>(u >> 16));
}
// fp64 -> bf16 in one rounding: fp64 -> fp32 rounded to odd (exact when it fits), then to
// nearest even (24 bits of an odd-rounded intermediate cannot round twice for 8).
TL_INLINE __bf16 doubleToBf16(double d) {
  float f = static_cast<float>(d);
  uint32_t u = std::bit_cast<uint32_t>(f);
  if (static_cast<double>(f) != d && d == d && (u & 1u) == 0 && (u & 0x7fffffffu) < 0x7f800000u)
    u += std::fabs(static_cast<double>(f)) < std::fabs(d) ? 1 : -1;
  return floatToBf16(std::bit_cast<float>(u));
}

// static_cast<U>(e) as Triton converts: through fp32 for 16-bit floats, exactly for bf16;
// fp8 only to and from fp16, bf16 and fp32 (Triton converts fp8 to no other type).
template <class U, class E>
TL_INLINE U convertTo(E e) {
  if constexpr (is_fp8_v<E> || is_fp8_v<U>) {
    static_assert(!std::is_integral_v<E> && !std::is_integral_v<U> &&
                      !std::is_same_v<std::remove_cv_t<E>, double> &&
                      !std::is_same_v<std::remove_cv_t<U>, double>,
                  "fp8 converts to and from fp16, bf16 and fp32 only, as in Triton");
    constexpr bool fromB15 = std::is_same_v<std::remove_cv_t<E>, float8e4b15>,
                   toB15 = std::is_same_v<std::remove_cv_t<U>, float8e4b15>;
    using Other = std::remove_cv_t<std::conditional_t<fromB15, U, E>>;
    static_assert(!(fromB15 || toB15) || std::is_same_v<std::remove_cv_t<E>, std::remove_cv_t<U>> ||
                      std::is_same_v<Other, _Float16> || std::is_same_v<Other, float>,
                  "float8e4b15 converts to and from fp16 and fp32 only, as in Triton");
    if constexpr (std::is_same_v<std::remove_cv_t<E>, std::remove_cv_t<U>>) {
      return e;
    } else if constexpr (fromB15) {
      return static_cast<U>(fp8e4b15ToHalf(e)); // exact in fp16 and fp32
    } else if constexpr (toB15 && std::is_same_v<std::remove_cv_t<E>, _Float16>) {
      return halfToFp8e4b15(e);
    } else if constexpr (std::is_same_v<std::remove_cv_t<E>, float8e5> &&
                         std::is_same_v<std::remove_cv_t<U>, __bf16>) {
      // sm_90's fp8e5 -> bf16 moves the exponent and mantissa fields without looking for inf
      // or NaN: exponent 31 is read as 2^16, so inf becomes 65536 and the NaNs 81920, 98304
      // and 114688, with their signs (measured with Triton 3.6 on an H200). Every other
      // value converts exactly.
      if ((e.bits & 0x7cu) != 0x7cu) return convertTo<U>(fp8ToFloat(e));
      const uint32_t sign = static_cast<uint32_t>(e.bits & 0x80u) << 24;
      return floatToBf16(std::bit_cast<float>(sign | (143u << 23) | ((e.bits & 3u) << 21)));
    } else if constexpr (is_fp8_v<E>) {
      return convertTo<U>(fp8ToFloat(e));
    } else {
      return floatToFp8<U>(static_cast<float>(e));
    }
  } else if constexpr (std::is_same_v<std::remove_cv_t<U>, __bf16> &&
                       !std::is_same_v<std::remove_cv_t<E>, __bf16>) {
    if constexpr (std::is_same_v<E, double> || (std::is_integral_v<E> && sizeof(E) >= 4))
      return doubleToBf16(static_cast<double>(e));
    else
      return floatToBf16(static_cast<float>(static_cast<compute_t<E>>(e)));
  } else {
    return static_cast<U>(static_cast<compute_t<E>>(e));
  }
}

} // namespace detail

template <class T, int D0, int D1 = -1>
struct Block {
  using value_type = T;
  using shape = Shape<D0, D1>;
  static constexpr int rank = shape::rank;
  static constexpr int rows = shape::rows;
  static constexpr int cols = shape::cols;
  static constexpr int size = shape::size;

  alignas(64) T v[size];

  Block() = default;
  // Materializes a lazy block (an expression, an index block, a load view)
  // of the same shape: `tl::Block<float, 64> y = x * 2;`.
  template <class X>
    requires requires(const X& x) { x.eval(); }
  TL_INLINE Block(const X& x) { // NOLINT: implicit, as a value converts to its type
    *this = x;
  }
  template <class X>
    requires requires(const X& x) { x.eval(); }
  TL_INLINE Block& operator=(const X& x);

  TL_INLINE T& operator[](int k) { return v[k]; }
  TL_INLINE const T& operator[](int k) const { return v[k]; }
  TL_INLINE T& at(int i, int j) { return v[i * cols + j]; }
  TL_INLINE const T& at(int i, int j) const { return v[i * cols + j]; }

  // x.to<tl::float16>(): Triton's x.to(tl.float16).
  template <class U>
  TL_INLINE Block<U, D0, D1> to() const {
    Block<U, D0, D1> out;
    for (int k = 0; k < size; ++k)
      out.v[k] = detail::convertTo<U>(v[k]);
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

// Element (i, j) of an operand, broadcasting size-1 dimensions. Dense: the caller has checked
// dense(x), or that (i, j) is inside its uniformOutside rectangle, so load views skip masks.
template <bool Dense = false, class X>
TL_INLINE auto get(const X& x, int i, int j) {
  if constexpr (Tensor<X>) {
    using S = shape_of<X>;
    const int r = S::rows == 1 ? 0 : i, c = S::cols == 1 ? 0 : j;
    if constexpr (is_block_v<X>)
      return x.v[r * S::cols + c];
    else if constexpr (requires { x.template element<Dense>(r, c); })
      return x.template element<Dense>(r, c);
    else
      return x.at(r, c);
  } else {
    return x;
  }
}

// Whether every lane of x can be read without a mask (false only for load
// views with a partial mask, and expressions over them).
template <class X>
TL_INLINE bool dense(const X& x) {
  if constexpr (requires { x.dense(); })
    return x.dense();
  else
    return true;
}

TL_INLINE int clampLane(int64_t x, int lo, int hi) {
  return x < lo ? lo : (x > hi ? hi : static_cast<int>(x));
}

// Lanes [rowLo, rowHi) x [colLo, colHi) of an operand of shape S that hold what memory holds,
// where every lane outside holds one and the same value: a masked load's `other`, or an
// expression of such loads (with one rectangle) and scalars. Such an operand is evaluated in two
// parts, a loop over the rectangle without masks and one value for the rest, instead of a
// masked loop over every lane; the values are the same either way.
struct LaneRect {
  int64_t rowLo = 0, rowHi = 0, colLo = 0, colHi = 0;
  bool set = false;
};
template <class S, class X>
TL_INLINE bool uniformOutside(const X& x, LaneRect& r) {
  if constexpr (requires { x.template uniformOutside<S>(r); })
    return x.template uniformOutside<S>(r);
  else
    return !Tensor<X>;
}

// Rows [r0, r1) and columns [c0, c1) of a rectangle, clamped to the shape S.
template <class S>
struct LaneBounds {
  int r0, r1, c0, c1;
  TL_INLINE explicit LaneBounds(const LaneRect& r)
      : r0(clampLane(r.rowLo, 0, S::rows)), r1(clampLane(r.rowHi, r0, S::rows)),
        c0(clampLane(r.colLo, 0, S::cols)), c1(clampLane(r.colHi, c0, S::cols)) {}
  TL_INLINE bool all() const { return r0 == 0 && r1 == S::rows && c0 == 0 && c1 == S::cols; }
  TL_INLINE bool rowInside(int i) const { return i >= r0 && i < r1; }
  TL_INLINE bool inside(int i, int j) const { return rowInside(i) && j >= c0 && j < c1; }
  // Whether the rectangle `o` (of the same shape) lies inside this one.
  TL_INLINE bool contains(const LaneBounds& o) const {
    return inside(o.r0, o.c0) && inside(o.r1 - 1, o.c1 - 1);
  }
  // A lane outside the rectangle (when there is one).
  TL_INLINE void outsideLane(int& i, int& j) const {
    i = r0 > 0 ? 0 : (r1 < S::rows ? r1 : r0);
    j = rowInside(i) ? (c0 > 0 ? 0 : c1) : 0;
  }
};

// uniformOutside for an operand uniform outside the rectangle m: the first such operand sets r,
// later ones must cover the same lanes of S. The lanes are compared, not the bounds: the same
// `cols < N` may bound a 1-D mask's rows by [0, 1) in one operand and not at all in another.
template <class S, class R>
TL_INLINE bool joinRect(LaneRect& r, const R& m) {
  const LaneRect own{m.rowLo, m.rowHi, m.colLo, m.colHi, true};
  if (!r.set) {
    r = own;
    return true;
  }
  const LaneBounds<S> a(r), b(own);
  return a.r0 == b.r0 && a.r1 == b.r1 && a.c0 == b.c0 && a.c1 == b.c1;
}

// How an expression holds an operand: a const Block that has a name is
// referenced (it cannot change, and it outlives the statement); a mutable or
// temporary Block is copied (so `d = m - n; m = n;` leaves d as it was);
// scalars and the other lazy blocks are held by value, except the large ones
// that say so (held_by_reference: masked loads and masks, which carry a block
// of explicit lanes), referenced when they have a const name as a Block is.
// Copying those into every expression that read them cost more than the
// arithmetic (1-4 KB a use in the layer norm tutorial's backward pass).
template <class X>
struct held_by_reference : std::false_type {};
template <class X>
inline constexpr bool capture_by_reference_v =
    std::is_lvalue_reference_v<X> && std::is_const_v<std::remove_reference_t<X>> &&
    (is_block_v<X> || held_by_reference<std::remove_cvref_t<X>>::value);
template <class X>
using capture_t = std::conditional_t<capture_by_reference_v<X>, X, std::remove_cvref_t<X>>;

template <class T, class... Ops>
struct broadcast_all;
template <class T, class X>
struct broadcast_all<T, X> {
  using SX = shape_of<X>;
  using type = std::conditional_t<SX::rank == 2, Block<T, SX::rows, SX::cols>, Block<T, SX::cols>>;
};
template <class T, class X, class Y, class... Rest>
struct broadcast_all<T, X, Y, Rest...> {
  using type = typename broadcast_all<T, typename broadcast_block<bool, X, Y>::type, Rest...>::type;
};

template <class B, class X>
TL_INLINE void assign(B& out, const X& x);
template <class B, class X>
TL_INLINE B materialize(const X& x);

} // namespace detail

// A lazy elementwise expression: f applied to its operands' elements, with
// broadcasting. Arithmetic builds these instead of blocks, and a store or a
// reduction evaluates the whole expression in one loop, reading each operand
// once (Triton's elementwise fusion). eval() materializes it.
template <class F, class... Ops>
struct Expr {
  F f;
  std::tuple<Ops...> ops;

  using value_type =
      decltype(f(detail::get(std::declval<const std::remove_cvref_t<Ops>&>(), 0, 0)...));
  using block_type = typename detail::broadcast_all<value_type, std::remove_cvref_t<Ops>...>::type;

  template <bool Dense>
  TL_INLINE value_type element(int i, int j) const {
    return std::apply([&](const auto&... o) { return f(detail::get<Dense>(o, i, j)...); }, ops);
  }
  TL_INLINE bool dense() const {
    return std::apply([](const auto&... o) { return (detail::dense(o) && ...); }, ops);
  }
  template <class S>
  TL_INLINE bool uniformOutside(detail::LaneRect& r) const {
    return std::apply([&](const auto&... o) { return (detail::uniformOutside<S>(o, r) && ...); },
                      ops);
  }
  TL_INLINE block_type eval() const { return detail::materialize<block_type>(*this); }
  template <class U>
  TL_INLINE auto to() const;
};

namespace detail {

// forEachRow<Rows, Cols>(body): body(i) for each row i of a block whose rows are Cols wide, for
// loops whose body walks one row. LLVM fully unrolls a short loop over a row and then vectorizes
// the loop over rows, one row per vector lane: gathers and scatters with a stride of a row (in
// the attention tutorial, on blocks of 64 x 32, they were 39 % of its time). Rows of 8 elements
// or more keep the loop over rows scalar, so that each row is vectorized along itself; narrower
// rows may still be vectorized across.
template <int Rows, int Cols, class F>
TL_INLINE void forEachRow(F&& body) {
  if constexpr (Cols >= 8) {
#pragma clang loop vectorize(disable) interleave(disable)
    for (int i = 0; i < Rows; ++i)
      body(i);
  } else {
    for (int i = 0; i < Rows; ++i)
      body(i);
  }
}

// out = x where x is uniform outside the rectangle r (uniformOutside).
template <class B, class X>
TL_INLINE void assignSplit(B& out, const X& x, const LaneRect& r) {
  using V = typename B::value_type;
  const LaneBounds<B> b(r);
  V outside{};
  if (!b.all()) {
    int i, j;
    b.outsideLane(i, j);
    outside = static_cast<V>(get<false>(x, i, j));
  }
  forEachRow<B::rows, B::cols>([&](int i) TL_INLINE_LAMBDA {
    V* row = out.v + i * B::cols;
    const bool on = b.rowInside(i);
    if (on && b.c0 == 0 && b.c1 == B::cols) {
      // A whole row: a constant trip count, which a copy turns into inline vector moves rather
      // than a call to memcpy of a run-time size.
      for (int j = 0; j < B::cols; ++j)
        row[j] = static_cast<V>(get<true>(x, i, j));
      return;
    }
    const int c0 = on ? b.c0 : B::cols, c1 = on ? b.c1 : B::cols;
    for (int j = 0; j < c0; ++j)
      row[j] = outside;
    for (int j = c0; j < c1; ++j)
      row[j] = static_cast<V>(get<true>(x, i, j));
    for (int j = c1; j < B::cols; ++j)
      row[j] = outside;
  });
}

// out = x, elementwise: one loop, unmasked when x is dense; split in two where x is uniform
// outside a rectangle; else one masked loop.
template <class B, class X>
TL_INLINE void assign(B& out, const X& x) {
  LaneRect r;
  if (dense(x)) {
    forEachRow<B::rows, B::cols>([&](int i) TL_INLINE_LAMBDA {
      for (int j = 0; j < B::cols; ++j)
        out.v[i * B::cols + j] = static_cast<typename B::value_type>(get<true>(x, i, j));
    });
  } else if (uniformOutside<B>(x, r) && r.set) {
    assignSplit(out, x, r);
  } else {
    forEachRow<B::rows, B::cols>([&](int i) TL_INLINE_LAMBDA {
      for (int j = 0; j < B::cols; ++j)
        out.v[i * B::cols + j] = static_cast<typename B::value_type>(get<false>(x, i, j));
    });
  }
}

// A lazy block's eval(): a B holding its elements.
template <class B, class X>
TL_INLINE B materialize(const X& x) {
  B out;
  assign(out, x);
  return out;
}

template <class F, class... X>
TL_INLINE auto makeExpr(F f, X&&... x) {
  return Expr<F, capture_t<X&&>...>{f, {std::forward<X>(x)...}};
}

} // namespace detail

template <class T, int D0, int D1>
template <class X>
  requires requires(const X& x) { x.eval(); }
TL_INLINE Block<T, D0, D1>& Block<T, D0, D1>::operator=(const X& x) {
  using S = shape_of<X>;
  static_assert(S::rows == rows && S::cols == cols, "assigning a block of another shape");
  detail::assign(*this, x);
  return *this;
}

// Elementwise map and zip with broadcasting (the building blocks of every
// operator), lazy.
template <class X, class F>
TL_INLINE auto map(X&& x, F f) {
  return detail::makeExpr(f, std::forward<X>(x));
}
template <class X, class Y, class F>
TL_INLINE auto zip(X&& x, Y&& y, F f) {
  return detail::makeExpr(f, std::forward<X>(x), std::forward<Y>(y));
}
template <class C, class X, class Y, class F>
TL_INLINE auto zip3(C&& c, X&& x, Y&& y, F f) {
  return detail::makeExpr(f, std::forward<C>(c), std::forward<X>(x), std::forward<Y>(y));
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
TL_INLINE auto cast(X&& x) {
  if constexpr (Tensor<std::remove_cvref_t<X>>)
    return map(std::forward<X>(x), [](auto e) { return detail::convertTo<U>(e); });
  else
    return detail::convertTo<U>(x);
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

// Operands of an elementwise operator: numbers or blocks, at least one block.
template <class X, class Y>
concept BlockOperands = Operand<std::remove_cvref_t<X>> && Operand<std::remove_cvref_t<Y>> &&
                        (Tensor<std::remove_cvref_t<X>> || Tensor<std::remove_cvref_t<Y>>);

#define TL_ZIP_OPERATOR(op, ...)                                                                   \
  template <class X, class Y>                                                                      \
    requires BlockOperands<X, Y>                                                                   \
  TL_INLINE auto operator op(X&& x, Y&& y) {                                                       \
    return zip(std::forward<X>(x), std::forward<Y>(y), __VA_ARGS__);                               \
  }
#define TL_BINARY_OPERATOR(op)                                                                     \
  TL_ZIP_OPERATOR(op, [](auto a, auto b) {                                                         \
    return detail::logical(a, b, [](auto p, auto q) { return p op q; });                           \
  })
#define TL_COMPARISON(op) TL_ZIP_OPERATOR(op, [](auto a, auto b) -> bool { return a op b; })
TL_BINARY_OPERATOR(+)
TL_BINARY_OPERATOR(-)
TL_BINARY_OPERATOR(*)
TL_ZIP_OPERATOR(/, [](auto a, auto b) { return detail::divideOp(a, b); })
TL_ZIP_OPERATOR(%, [](auto a, auto b) { return detail::remainderOp(a, b); })
TL_BINARY_OPERATOR(&)
TL_BINARY_OPERATOR(|)
TL_BINARY_OPERATOR(^)
TL_ZIP_OPERATOR(<<, [](auto a, auto b) { return detail::shiftLeftOp(a, b); })
TL_ZIP_OPERATOR(>>, [](auto a, auto b) { return detail::shiftRightOp(a, b); })
TL_COMPARISON(<)
TL_COMPARISON(<=)
TL_COMPARISON(>)
TL_COMPARISON(>=)
TL_COMPARISON(==)
TL_COMPARISON(!=)
#undef TL_COMPARISON
#undef TL_BINARY_OPERATOR
#undef TL_ZIP_OPERATOR

// Triton's `//`, `%`, `<<` and `>>` on integer scalars or blocks (integer_ops.h: the GPU's values
// where C++'s are undefined), for the front end's generated code: blocks through the operators
// above, scalars through the same elementwise functions.
#define TL_SCALAR_OR_BLOCK(name, op, scalar)                                                       \
  template <class X, class Y>                                                                      \
    requires(Operand<std::remove_cvref_t<X>> && Operand<std::remove_cvref_t<Y>>)                   \
  TL_INLINE auto name(X&& x, Y&& y) {                                                              \
    if constexpr (Tensor<std::remove_cvref_t<X>> || Tensor<std::remove_cvref_t<Y>>)                \
      return std::forward<X>(x) op std::forward<Y>(y);                                             \
    else                                                                                           \
      return scalar(x, y);                                                                         \
  }
TL_SCALAR_OR_BLOCK(int_div, /, detail::divideOp)
TL_SCALAR_OR_BLOCK(int_rem, %, detail::remainderOp)
TL_SCALAR_OR_BLOCK(shift_left, <<, detail::shiftLeftOp)
TL_SCALAR_OR_BLOCK(shift_right, >>, detail::shiftRightOp)
#undef TL_SCALAR_OR_BLOCK

template <class X>
  requires Tensor<std::remove_cvref_t<X>>
TL_INLINE auto operator-(X&& x) {
  return map(std::forward<X>(x), [](auto a) { return -a; });
}
template <class X>
  requires Tensor<std::remove_cvref_t<X>>
TL_INLINE auto operator!(X&& x) {
  return map(std::forward<X>(x), [](auto a) -> bool { return !a; });
}
template <class X>
  requires Tensor<std::remove_cvref_t<X>>
TL_INLINE auto operator~(X&& x) {
  return map(std::forward<X>(x), [](auto a) { return ~a; });
}

// In place, one loop: y holds copies of any mutable block it reads (see
// capture_t), and otherwise reads element (i, j) only while writing (i, j).
#define TL_COMPOUND_ASSIGNMENT(op, combine)                                                        \
  template <class T, int D0, int D1, Operand Y>                                                    \
  TL_INLINE Block<T, D0, D1>& operator op##=(Block<T, D0, D1>& x, const Y & y) {                   \
    using B = Block<T, D0, D1>;                                                                    \
    static_assert(detail::broadcast_block<bool, B, Y>::type::size == B::size,                      \
                  "compound assignment would change the block's shape");                           \
    auto update = [&]<bool Dense>() {                                                              \
      detail::forEachRow<B::rows, B::cols>([&](int i) TL_INLINE_LAMBDA {                           \
        for (int j = 0; j < B::cols; ++j)                                                          \
          x.v[i * B::cols + j] = static_cast<T>(combine(                                           \
              static_cast<compute_t<T>>(x.v[i * B::cols + j]), detail::get<Dense>(y, i, j)));      \
      });                                                                                          \
    };                                                                                             \
    if (detail::dense(y))                                                                          \
      update.template operator()<true>();                                                          \
    else                                                                                           \
      update.template operator()<false>();                                                         \
    return x;                                                                                      \
  }
TL_COMPOUND_ASSIGNMENT(+, [](auto a, auto b) { return a + b; })
TL_COMPOUND_ASSIGNMENT(-, [](auto a, auto b) { return a - b; })
TL_COMPOUND_ASSIGNMENT(*, [](auto a, auto b) { return a * b; })
TL_COMPOUND_ASSIGNMENT(/, detail::divideOp)
#undef TL_COMPOUND_ASSIGNMENT

// where(condition, x, y), broadcasting all three.
template <class C, class X, class Y>
  requires(Operand<std::remove_cvref_t<C>> && Operand<std::remove_cvref_t<X>> &&
           Operand<std::remove_cvref_t<Y>>)
TL_INLINE auto where(C&& c, X&& x, Y&& y) {
  if constexpr (!Tensor<std::remove_cvref_t<C>> && !Tensor<std::remove_cvref_t<X>> &&
                !Tensor<std::remove_cvref_t<Y>>)
    return c ? x : y;
  else
    return zip3(std::forward<C>(c), std::forward<X>(x), std::forward<Y>(y),
                [](bool p, auto a, auto b) {
                  using U = std::common_type_t<decltype(a), decltype(b)>;
                  return p ? static_cast<U>(a) : static_cast<U>(b);
                });
}

// maximum/minimum: a NaN operand is ignored (Triton's default,
// propagate_nan=NONE); pass PropagateNan::all to return NaN instead.
enum class PropagateNan { none, all };

namespace detail {
// The larger (Max) or smaller of a and b, in their common type.
template <bool Max, class A, class B>
TL_INLINE auto extremeOf(A a, B b, PropagateNan nan) {
  using U = std::common_type_t<A, B>;
  using C = compute_t<U>;
  const C x = static_cast<C>(a), y = static_cast<C>(b);
  if constexpr (std::is_floating_point_v<C>) {
    if (nan == PropagateNan::all && (x != x || y != y)) return static_cast<U>(x + y);
    return static_cast<U>(Max ? std::fmax(x, y) : std::fmin(x, y));
  } else {
    return static_cast<U>((Max ? x > y : x < y) ? x : y);
  }
}
template <class A, class B>
TL_INLINE auto maxOf(A a, B b, PropagateNan nan) {
  return extremeOf<true>(a, b, nan);
}
template <class A, class B>
TL_INLINE auto minOf(A a, B b, PropagateNan nan) {
  return extremeOf<false>(a, b, nan);
}

template <bool Max, class X, class Y>
TL_INLINE auto extreme(X&& x, Y&& y, PropagateNan nan) {
  if constexpr (!Tensor<std::remove_cvref_t<X>> && !Tensor<std::remove_cvref_t<Y>>)
    return extremeOf<Max>(x, y, nan);
  else
    return zip(std::forward<X>(x), std::forward<Y>(y),
               [nan](auto a, auto b) { return extremeOf<Max>(a, b, nan); });
}
} // namespace detail

template <class X, class Y>
  requires(Operand<std::remove_cvref_t<X>> && Operand<std::remove_cvref_t<Y>>)
TL_INLINE auto maximum(X&& x, Y&& y, PropagateNan nan = PropagateNan::none) {
  return detail::extreme<true>(std::forward<X>(x), std::forward<Y>(y), nan);
}
template <class X, class Y>
  requires(Operand<std::remove_cvref_t<X>> && Operand<std::remove_cvref_t<Y>>)
TL_INLINE auto minimum(X&& x, Y&& y, PropagateNan nan = PropagateNan::none) {
  return detail::extreme<false>(std::forward<X>(x), std::forward<Y>(y), nan);
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
      return map(x, f).eval();                                                                     \
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
    return zip(x, y, f).eval();
}

// Fused multiply-add, as tl.fma.
template <class X, class Y, class Z>
  requires(Operand<std::remove_cvref_t<X>> && Operand<std::remove_cvref_t<Y>> &&
           Operand<std::remove_cvref_t<Z>>)
TL_INLINE auto fma(X&& x, Y&& y, Z&& z) {
  auto f = [](auto a, auto b, auto c) {
    using C = compute_t<std::common_type_t<decltype(a), decltype(b), decltype(c)>>;
    return std::fma(static_cast<C>(a), static_cast<C>(b), static_cast<C>(c));
  };
  if constexpr (!Tensor<std::remove_cvref_t<X>> && !Tensor<std::remove_cvref_t<Y>> &&
                !Tensor<std::remove_cvref_t<Z>>)
    return f(x, y, z);
  else
    return zip3(std::forward<X>(x), std::forward<Y>(y), std::forward<Z>(z), f);
}

template <class F, class... Ops>
template <class U>
TL_INLINE auto Expr<F, Ops...>::to() const {
  return cast<U>(*this); // held by value: expressions are not held_by_reference
}

} // namespace tcpu::tl

#endif
