// Reductions over an axis: sum, max, min, as triton.language (argmax and argmin: arg_reduce.h).
// Sums and extrema along a row keep up to 64 partial results (four 512-bit
// vectors of fp32) and combine them at the end, so they vectorize on any
// target and give the same answer everywhere; Triton leaves the order
// unspecified, tl fixes it (reducePartials).
#ifndef TCPU_TL_REDUCE_H
#define TCPU_TL_REDUCE_H

#include <limits>
#include <utility>

#include "tcpu/tl/arg_reduce.h"
#include "tcpu/tl/core.h"

namespace tcpu::tl {

namespace detail {

// tl's reduction order along a row of N values: P = reducePartials(N) partial results, partial l
// folding values l, l + P, l + 2P, ... left to right; then the partials fold pairwise (l with
// l + P/2, then l + P/4, ..., 1); then the last N % P values, left to right. Rows shorter than 16
// fold left to right. 64 partials are four independent chains of 512-bit vectors (eight of
// 256-bit ones), so a long row is summed at the adder's throughput rather than at its latency:
// with 16 (one vector: tl's earlier order) the sum of a 4096-wide softmax row was a chain of 256
// dependent adds. Rows of 16 to 63 keep the order they had with 16 lanes when their
// length is a power of two.
constexpr int reducePartials(int n) {
  return n >= 64 ? 64 : (n >= 32 ? 32 : (n >= 16 ? 16 : 1));
}

// Sums and products of integers wrap, as in Triton (and without C++'s signed overflow).
template <class A>
TL_INLINE A wrappingAdd(A a, A b) {
  if constexpr (std::is_integral_v<A> && !std::is_same_v<A, bool>) {
    using U = std::make_unsigned_t<std::common_type_t<A, unsigned>>;
    return static_cast<A>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return static_cast<A>(a + b);
  }
}
template <class A>
TL_INLINE A wrappingMul(A a, A b) {
  if constexpr (std::is_same_v<A, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<A>) {
    using U = std::make_unsigned_t<std::common_type_t<A, unsigned>>;
    return static_cast<A>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return static_cast<A>(a * b);
  }
}

// Triton's accumulation types: ints narrower than 32 bits sum in 32 bits;
// 16-bit floats reduce in fp32.
template <class T>
using sum_t = std::conditional_t<std::is_integral_v<T> && (sizeof(T) < 4), int32_t, compute_t<T>>;

// absorbs(v): whether combining v into a partial a second time leaves it as the first time did,
// and combine(v, v) == v (so a run of lanes that all hold v can be combined once).
struct SumOp {
  template <class A>
  static TL_INLINE A identity() {
    return A(0);
  }
  template <class A>
  static TL_INLINE bool absorbs(A v) {
    return v == A(0); // (a + 0) + 0 == a + 0 bit for bit, for either zero and every a
  }
  template <class A>
  static TL_INLINE A combine(A a, A b) {
    return wrappingAdd(a, b);
  }
};
// max and min ignore NaN (Triton's maxnum), and are NaN only where every value is. Their
// partials never hold a NaN: a partial starts from its first value with a NaN replaced by the
// identity (enter), so folding a value into it is one compare-and-select (a vmaxps), where
// fmax's NaN checks on both operands took three instructions (a fifth of softmax's time on one
// thread). Where every value is NaN the partials end at the identity, and reduce() puts the NaN
// back (restoreAllNan). Ties (-0 and +0) keep the partial's value, on every target.
template <bool Max>
struct ExtremeOp {
  template <class A>
  static TL_INLINE bool absorbs(A) {
    return true; // the result is one of the two operands
  }
  template <class A>
  static TL_INLINE A identity() {
    if constexpr (std::is_floating_point_v<A>)
      return Max ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::infinity();
    else
      return Max ? std::numeric_limits<A>::lowest() : std::numeric_limits<A>::max();
  }
  template <class A>
  static TL_INLINE A enter(A v) {
    if constexpr (std::is_floating_point_v<A>)
      return v == v ? v : identity<A>();
    else
      return v;
  }
  // a: a partial (never NaN); b: the value folded in.
  template <class A>
  static TL_INLINE A combine(A a, A b) {
    if constexpr (std::is_floating_point_v<A>)
      return (Max ? b > a : b < a) ? b : a;
    else
      return extremeOf<Max>(a, b, PropagateNan::none);
  }
};
using MaxOp = ExtremeOp<true>;
using MinOp = ExtremeOp<false>;

// The value a partial starts from: Op::enter(v) where the operation has one, else v.
template <class Op, class A>
TL_INLINE A enter(A v) {
  if constexpr (requires { Op::template enter<A>(v); })
    return Op::template enter<A>(v);
  else
    return v;
}

// Bitwise reductions of integers (and bools), in the element type, as Triton's xor_sum,
// reduce_or and reduce_and. Bitwise results do not depend on the order.
struct XorOp {
  template <class A>
  static TL_INLINE A identity() {
    return A(0);
  }
  template <class A>
  static TL_INLINE bool absorbs(A v) {
    return v == A(0);
  }
  template <class A>
  static TL_INLINE A combine(A a, A b) {
    return static_cast<A>(a ^ b);
  }
};
struct OrOp {
  template <class A>
  static TL_INLINE A identity() {
    return A(0);
  }
  template <class A>
  static TL_INLINE bool absorbs(A) {
    return true;
  }
  template <class A>
  static TL_INLINE A combine(A a, A b) {
    return static_cast<A>(a | b);
  }
};
struct AndOp {
  template <class A>
  static TL_INLINE A identity() {
    return static_cast<A>(~A(0)); // every bit set (true for bool)
  }
  template <class A>
  static TL_INLINE bool absorbs(A) {
    return true;
  }
  template <class A>
  static TL_INLINE A combine(A a, A b) {
    return static_cast<A>(a & b);
  }
};

// Transposes of 16 x 16 tiles in vector registers: element-by-element copies became inserts and
// extracts of single lanes (11 % of the attention tutorial's time, for k.T). Four steps, each
// swapping the off-diagonal H x H blocks of every 2H x 2H block (H = 8, 4, 2, 1), each a
// two-vector shuffle per row.
constexpr int kTransposeTile = 16;
template <class T>
using TileRow = T __attribute__((ext_vector_type(kTransposeTile)));

// Vectors are passed by reference: by value they would change the ABI of a call between targets
// with and without 512-bit registers (-Wpsabi), although every call is inlined.
template <int H, class V, int... C>
TL_INLINE void tileSwap(const V& x, const V& y, V& low, V& high, std::integer_sequence<int, C...>) {
  low = __builtin_shufflevector(x, y, ((C & H) == 0 ? C : kTransposeTile + C - H)...);
  high = __builtin_shufflevector(x, y, ((C & H) == 0 ? C + H : kTransposeTile + C)...);
}
template <int H, class V>
TL_INLINE void tileTransposeStep(V (&r)[kTransposeTile]) {
  constexpr auto lanes = std::make_integer_sequence<int, kTransposeTile>{};
  for (int a = 0; a < kTransposeTile; ++a)
    if ((a & H) == 0) {
      const V x = r[a], y = r[a + H];
      tileSwap<H>(x, y, r[a], r[a + H], lanes);
    }
}

// Whether trans of an M x N block of T goes through tiles: 2- and 4-byte elements, whole tiles.
template <class T, int M, int N>
inline constexpr bool kTiledTranspose =
    (sizeof(T) == 2 || sizeof(T) == 4) && M % kTransposeTile == 0 && N % kTransposeTile == 0;

template <class T, int M, int N>
TL_INLINE void transposeTiles(const T* x, T* out) {
  using V = TileRow<T>;
  for (int i0 = 0; i0 < M; i0 += kTransposeTile)
    for (int j0 = 0; j0 < N; j0 += kTransposeTile) {
      V r[kTransposeTile];
      for (int a = 0; a < kTransposeTile; ++a)
        __builtin_memcpy(&r[a], x + (i0 + a) * N + j0, sizeof(V));
      tileTransposeStep<8>(r);
      tileTransposeStep<4>(r);
      tileTransposeStep<2>(r);
      tileTransposeStep<1>(r);
      for (int a = 0; a < kTransposeTile; ++a)
        __builtin_memcpy(out + (j0 + a) * M + i0, &r[a], sizeof(V));
    }
}

// The steps of reducePartials' order on P partials. foldChunks: partial l folds x(l), x(l + P),
// ... of the N values. foldPairwise: the pairwise steps of widths P/2, P/4, ..., Last.
template <class Op, int N, class X, class A, int P>
TL_INLINE void foldChunks(X x, A (&lanes)[P]) {
  for (int l = 0; l < P; ++l)
    lanes[l] = enter<Op>(static_cast<A>(x(l)));
  for (int j = P; j + P <= N; j += P)
    for (int l = 0; l < P; ++l)
      lanes[l] = Op::combine(lanes[l], static_cast<A>(x(j + l)));
}
template <class Op, int Last = 1, class A, int P>
TL_INLINE void foldPairwise(A (&lanes)[P]) {
  for (int width = P / 2; width >= Last; width /= 2)
    for (int l = 0; l < width; ++l)
      lanes[l] = Op::combine(lanes[l], lanes[l + width]);
}

// Reduces the N values x(0) .. x(N - 1) in reducePartials' order.
template <class Op, class A, int N, class X>
TL_INLINE A reduceRow(X x) {
  constexpr int P = reducePartials(N);
  if constexpr (P == 1) {
    A acc = Op::template identity<A>();
    for (int j = 0; j < N; ++j)
      acc = Op::combine(acc, static_cast<A>(x(j)));
    return acc;
  } else {
    A lanes[P];
    foldChunks<Op, N>(x, lanes);
    foldPairwise<Op>(lanes);
    A acc = lanes[0];
    for (int j = N - N % P; j < N; ++j)
      acc = Op::combine(acc, static_cast<A>(x(j)));
    return acc;
  }
}

// reduceRow over N values of which those in [c0, c1) are inside(k), read without a mask, and the
// rest are `outside`: the same values combined in the same order, without reading the lanes
// outside. A run of chunks of `outside` is combined once where the operation absorbs it (a
// masked row's -inf for max, its 0 for sum), so a row padded to a power of two costs what its
// own columns do.
template <class Op, class A, int N, class In>
TL_INLINE A reduceRowSplit(In inside, int c0, int c1, A outside) {
  constexpr int P = reducePartials(N);
  auto value = [&](int k) { return k >= c0 && k < c1 ? static_cast<A>(inside(k)) : outside; };
  if constexpr (P == 1) {
    return reduceRow<Op, A, N>(value);
  } else {
    constexpr int chunks = N / P;
    const bool empty = c0 >= c1;
    // Chunks [qa, qb) hold the lanes inside; the others hold only `outside`.
    const int lastInside = (c1 + P - 1) / P;
    const int qa = empty ? chunks : c0 / P;
    const int qb = empty ? chunks : (lastInside < chunks ? lastInside : chunks);
    const bool absorbs = Op::absorbs(outside);
    auto whole = [&](int q) { return q * P >= c0 && q * P + P <= c1; };
    A lanes[P];
    auto foldOutside = [&](int runs) {
      for (int t = 0; t < (absorbs && runs > 0 ? 1 : runs); ++t)
        for (int l = 0; l < P; ++l)
          lanes[l] = Op::combine(lanes[l], outside);
    };
    auto foldPart = [&](int q) {
      for (int l = 0; l < P; ++l)
        lanes[l] = Op::combine(lanes[l], value(q * P + l));
    };
    int q = 1;
    if (qa > 0) {
      for (int l = 0; l < P; ++l)
        lanes[l] = enter<Op>(outside);
      foldOutside(qa - 1);
      q = qa;
    } else if (whole(0)) {
      for (int l = 0; l < P; ++l)
        lanes[l] = enter<Op>(static_cast<A>(inside(l)));
    } else {
      for (int l = 0; l < P; ++l)
        lanes[l] = enter<Op>(value(l));
    }
    if (q < qb && !whole(q)) foldPart(q++);
    const bool lastPart = q < qb && !whole(qb - 1);
    const int denseEnd = lastPart ? qb - 1 : qb;
    for (; q < denseEnd; ++q)
      for (int l = 0; l < P; ++l)
        lanes[l] = Op::combine(lanes[l], static_cast<A>(inside(q * P + l)));
    if (lastPart) foldPart(q++);
    if (q < chunks) foldOutside(chunks - (q > qb ? q : qb));
    foldPairwise<Op>(lanes);
    A acc = lanes[0];
    for (int j = N - N % P; j < N; ++j)
      acc = Op::combine(acc, value(j));
    return acc;
  }
}

// A reduction along rows of an operand uniform outside the rectangle r (uniformOutside): rows
// through the rectangle read only its columns, and the rest are `outside` throughout.
template <class Op, class A, int Axis, class B, class X>
TL_INLINE auto reduceSplit(const X& x, const LaneRect& r) {
  const LaneBounds<B> b(r);
  A outside{}; // unread when the rectangle covers the block
  if (!b.all()) {
    int i, j;
    b.outsideLane(i, j);
    outside = static_cast<A>(get<false>(x, i, j));
  }
  auto row = [&](int i) {
    const int c0 = b.rowInside(i) ? b.c0 : 0, c1 = b.rowInside(i) ? b.c1 : 0;
    return reduceRowSplit<Op, A, B::cols>([&](int j) { return get<true>(x, i, j); }, c0, c1,
                                          outside);
  };
  if constexpr (B::rank == 1) {
    return row(0);
  } else {
    static_assert(Axis == 1, "split reductions run along rows");
    Block<A, B::rows> out;
    forEachRow<B::rows, B::cols>([&](int i) TL_INLINE_LAMBDA { out.v[i] = row(i); });
    return out;
  }
}

// Each row of an R x C operand reduced in reduceRow's order, with the last steps taken across
// rows: every row folds its values into 16 partials along itself (vector operations on one row),
// those R x 16 partials are transposed, and the pairwise steps 8, 4, 2, 1 run on rows of R
// partials. Taken one row at a time, those last steps are shuffles within a vector (scalar code
// with fmax's NaN checks for max: 8 % of the attention tutorial's time, on 64 x 32 blocks).
template <class A, int R, int C>
inline constexpr bool kRowsFoldedAcross =
    reducePartials(C) >= kTransposeTile && R % kTransposeTile == 0 && sizeof(A) == 4;

template <class Op, class A, int R, int C, class X>
TL_INLINE Block<A, R> reduceRowsAcross(X x) {
  constexpr int P = reducePartials(C), T = kTransposeTile;
  alignas(64) A partials[R * T];
  forEachRow<R, C>([&](int i) TL_INLINE_LAMBDA {
    A lanes[P];
    foldChunks<Op, C>([&](int j) TL_INLINE_LAMBDA { return x(i, j); }, lanes);
    foldPairwise<Op, T>(lanes);
    for (int l = 0; l < T; ++l)
      partials[i * T + l] = lanes[l];
  });
  alignas(64) A across[T * R]; // across[l * R + i]: partial l of row i
  transposeTiles<A, R, T>(partials, across);
  for (int width = T / 2; width > 0; width /= 2)
    for (int l = 0; l < width; ++l)
      for (int i = 0; i < R; ++i)
        across[l * R + i] = Op::combine(across[l * R + i], across[(l + width) * R + i]);
  Block<A, R> out;
  for (int i = 0; i < R; ++i) {
    A acc = across[i];
    for (int j = C - C % P; j < C; ++j)
      acc = Op::combine(acc, static_cast<A>(x(i, j)));
    out.v[i] = acc;
  }
  return out;
}

// Reads the operand's elements as it reduces them, so an expression is
// evaluated inside the reduction loop.
template <class Op, class A, int Axis, bool Dense, class X>
TL_INLINE auto reduceDense(const X& x) {
  using S = shape_of<X>;
  if constexpr (S::rank == 1) {
    static_assert(Axis == 0 || Axis == -1, "a 1-D block reduces over axis 0");
    return reduceRow<Op, A, S::cols>([&](int j) { return get<Dense>(x, 0, j); });
  } else if constexpr (Axis == -1) {
    return reduceRow<Op, A, S::rows * S::cols>(
        [&](int k) { return get<Dense>(x, k / S::cols, k % S::cols); });
  } else if constexpr (Axis == 1) {
    if constexpr (kRowsFoldedAcross<A, S::rows, S::cols>) {
      return reduceRowsAcross<Op, A, S::rows, S::cols>(
          [&](int i, int j) TL_INLINE_LAMBDA { return get<Dense>(x, i, j); });
    } else {
      Block<A, S::rows> out;
      forEachRow<S::rows, S::cols>([&](int i) TL_INLINE_LAMBDA {
        out.v[i] = reduceRow<Op, A, S::cols>([&](int j) { return get<Dense>(x, i, j); });
      });
      return out;
    }
  } else {
    static_assert(Axis == 0, "reduction axis is 0 or 1");
    Block<A, S::cols> out;
    for (int j = 0; j < S::cols; ++j)
      out.v[j] = enter<Op>(static_cast<A>(get<Dense>(x, 0, j)));
    for (int i = 1; i < S::rows; ++i)
      for (int j = 0; j < S::cols; ++j)
        out.v[j] = Op::combine(out.v[j], static_cast<A>(get<Dense>(x, i, j)));
    return out;
  }
}

template <class Op, class A, int Axis, class X>
TL_INLINE auto reduceInOrder(const X& x) {
  if (dense(x)) return reduceDense<Op, A, Axis, true>(x);
  using B = evaluated_t<X>;
  if constexpr (B::rank == 1 || Axis == 1) {
    // A masked row (a load, or an expression of loads under one mask): only its own columns are
    // read, in place.
    LaneRect r;
    if (uniformOutside<B>(x, r) && r.set) return reduceSplit<Op, A, Axis, B>(x, r);
  }
  // Other masked lanes are evaluated into a block first: that loop vectorizes (masked vector
  // loads), while reading them lane by lane inside the reduction leaves a branch per lane. The
  // values and the order they are combined in are the same either way.
  return reduceDense<Op, A, Axis, true>(eval(x));
}

// The results of a float max or min that every value was NaN for: the partials, which skip NaN,
// ended at the identity; the answer is NaN. Only results equal to the identity are checked.
template <class Op, class A, int Axis, class X, class R>
TL_INLINE R restoreAllNan(const X& x, R result) {
  using S = shape_of<X>;
  const A identity = Op::template identity<A>();
  const A nan = std::numeric_limits<A>::quiet_NaN();
  auto allNan = [&](int i0, int i1, int j0, int j1) {
    for (int i = i0; i < i1; ++i)
      for (int j = j0; j < j1; ++j) {
        const A v = static_cast<A>(get<false>(x, i, j));
        if (v == v) return false;
      }
    return true;
  };
  if constexpr (S::rank == 1 || Axis == -1) {
    if (result == identity && allNan(0, S::rows, 0, S::cols)) [[unlikely]]
      return nan;
  } else if constexpr (Axis == 1) {
    for (int i = 0; i < S::rows; ++i)
      if (result.v[i] == identity && allNan(i, i + 1, 0, S::cols)) [[unlikely]]
        result.v[i] = nan;
  } else {
    for (int j = 0; j < S::cols; ++j)
      if (result.v[j] == identity && allNan(0, S::rows, j, j + 1)) [[unlikely]]
        result.v[j] = nan;
  }
  return result;
}

template <class Op, class A, int Axis, class X>
TL_INLINE auto reduce(const X& x) {
  if constexpr (std::is_floating_point_v<A> && requires { Op::template enter<A>(A{}); })
    return restoreAllNan<Op, A, Axis>(x, reduceInOrder<Op, A, Axis>(x));
  else
    return reduceInOrder<Op, A, Axis>(x);
}

} // namespace detail

// sum<axis>(x); sum(x) reduces a 1-D block, or every element of a 2-D one.
template <int Axis = -1, Tensor X>
TL_INLINE auto sum(const X& x) {
  return detail::reduce<detail::SumOp, detail::sum_t<element_t<X>>, Axis>(x);
}
template <int Axis = -1, Tensor X>
TL_INLINE auto max(const X& x) {
  return detail::reduce<detail::MaxOp, compute_t<element_t<X>>, Axis>(x);
}
template <int Axis = -1, Tensor X>
TL_INLINE auto min(const X& x) {
  return detail::reduce<detail::MinOp, compute_t<element_t<X>>, Axis>(x);
}
// xor_sum<axis>(x), reduce_or<axis>(x), reduce_and<axis>(x): integers (or bools), in their
// own type; axis -1 reduces every element, as sum.
template <int Axis = -1, Tensor X>
TL_INLINE auto xor_sum(const X& x) {
  static_assert(std::is_integral_v<element_t<X>>, "xor_sum: integers only, as in Triton");
  return detail::reduce<detail::XorOp, element_t<X>, Axis>(x);
}
template <int Axis = -1, Tensor X>
TL_INLINE auto reduce_or(const X& x) {
  static_assert(std::is_integral_v<element_t<X>>, "reduce_or: integers only, as in Triton");
  return detail::reduce<detail::OrOp, element_t<X>, Axis>(x);
}
template <int Axis = -1, Tensor X>
TL_INLINE auto reduce_and(const X& x) {
  static_assert(std::is_integral_v<element_t<X>>, "reduce_and: integers only, as in Triton");
  return detail::reduce<detail::AndOp, element_t<X>, Axis>(x);
}

// trans(x): the transpose of a 2-D block.
template <class T, int M, int N>
TL_INLINE Block<T, N, M> trans(const Block<T, M, N>& x) {
  Block<T, N, M> out;
  if constexpr (detail::kTiledTranspose<T, M, N>) {
    detail::transposeTiles<T, M, N>(x.v, out.v);
  } else {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        out.v[j * M + i] = x.v[i * N + j];
  }
  return out;
}

template <Tensor X>
  requires(!is_block_v<X>)
TL_INLINE auto trans(const X& x) {
  return trans(x.eval());
}

} // namespace tcpu::tl

#endif
