// Triton's operations that take a combine function: reduce (tl.reduce) and associative_scan
// (tl.associative_scan), on one block or on several at once (Triton's tuples, e.g. a value and
// its index, or Welford's mean, m2 and weight), and the scans built on them, cumsum and cumprod.
//
// Two operands are held as two arrays, not an array of pairs, so the loops over them vectorize
// like those over one; the combine function sees and returns scalars.
//
// Orders (Triton leaves both unspecified; tl fixes them, so results are the same on every
// target). A combine function must be associative; reductions also need it commutative, as in
// Triton, while scans never swap operands: the left operand always holds the earlier elements
// (the later ones for Reverse), so non-commutative scans (linear recurrences) are exact.
// - reduce: the order of tl::sum (reducePartials in reduce.h), so reduce(x, add) is sum(x) bit
//   for bit: along a row of N >= 16, partial l (of P = 16, 32 or 64) folds x[l], x[l + P], ...
//   left to right; the partials fold pairwise (l with l + P/2, then l + P/4, ..., 1); then the
//   last N % P elements, left to right. Shorter rows, and axis 0 of a 2-D block (per column,
//   vectorized across columns), fold left to right.
// - scan along a row (1-D, or axis 1): a Hillis-Steele scan within each run of 16 (steps 1, 2,
//   4, 8: element k becomes combine(element k - step, element k)), over the whole block at once
//   so that it vectorizes; then each run is combined with the last element of the run before it
//   (left to right). A row whose length is not a multiple of 16 is one run. Along axis 0 of a
//   2-D block, row i is combine(row i - 1, row i), vectorized across columns. Reverse scans
//   mirror all of this (combine(element k + step, element k), runs right to left).
// Integer results are exact; floating-point ones round in these orders.
#ifndef TCPU_TL_SCAN_H
#define TCPU_TL_SCAN_H

#include <tuple>
#include <utility>

#include "tcpu/tl/core.h"
#include "tcpu/tl/reduce.h"

namespace tcpu::tl {

namespace detail {

// Values of type V (an element type, or a std::pair for two operands) held as one array per
// operand, through pointers: get(k) gathers element k of each array, set(k, v) scatters it.
template <class V>
struct Lanes {
  V* a;
  TL_INLINE V get(int k) const { return a[k]; }
  TL_INLINE void set(int k, V x) const { a[k] = x; }
};
template <class A, class B>
struct Lanes<std::pair<A, B>> {
  A* a;
  B* b;
  TL_INLINE std::pair<A, B> get(int k) const { return {a[k], b[k]}; }
  TL_INLINE void set(int k, const std::pair<A, B>& x) const {
    a[k] = x.first;
    b[k] = x.second;
  }
};

template <class... Ts>
struct Lanes<std::tuple<Ts...>> {
  std::tuple<Ts*...> p;
  TL_INLINE std::tuple<Ts...> get(int k) const {
    return std::apply(
        [k](Ts*... q) __attribute__((always_inline)) { return std::tuple<Ts...>(q[k]...); }, p);
  }
  TL_INLINE void set(int k, const std::tuple<Ts...>& x) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) __attribute__((always_inline)) {
      ((std::get<I>(p)[k] = std::get<I>(x)), ...);
    }(std::index_sequence_for<Ts...>{});
  }
};

// N values V of working storage.
template <class V, int N>
struct Store {
  alignas(64) V a[N];
  TL_INLINE Lanes<V> lanes() { return {a}; }
};
template <class A, class B, int N>
struct Store<std::pair<A, B>, N> {
  alignas(64) A a[N];
  alignas(64) B b[N];
  TL_INLINE Lanes<std::pair<A, B>> lanes() { return {a, b}; }
};

template <class T, int N>
struct Lane {
  alignas(64) T a[N];
};
template <class... Ts, int N>
struct Store<std::tuple<Ts...>, N> {
  std::tuple<Lane<Ts, N>...> lane;
  TL_INLINE Lanes<std::tuple<Ts...>> lanes() {
    return {std::apply([](Lane<Ts, N>&... l) { return std::tuple<Ts*...>(l.a...); }, lane)};
  }
};

// What an operation on values V returns for the shape Sh: a block, or a std::pair of blocks
// for two operands (built in place by the caller, so that it is returned without a copy).
template <class V, class Sh>
struct Result {
  using type = std::conditional_t<Sh::rank == 2, Block<V, Sh::rows, Sh::cols>, Block<V, Sh::cols>>;
  static TL_INLINE Lanes<V> lanes(type& r) { return {r.v}; }
};
template <class A, class B, class Sh>
struct Result<std::pair<A, B>, Sh> {
  using type = std::pair<typename Result<A, Sh>::type, typename Result<B, Sh>::type>;
  static TL_INLINE Lanes<std::pair<A, B>> lanes(type& r) { return {r.first.v, r.second.v}; }
};

template <class... Ts, class Sh>
struct Result<std::tuple<Ts...>, Sh> {
  using type = std::tuple<typename Result<Ts, Sh>::type...>;
  static TL_INLINE Lanes<std::tuple<Ts...>> lanes(type& r) {
    return {std::apply([](auto&... b) { return std::tuple<Ts*...>(b.v...); }, r)};
  }
};

// The user's combine function on values V, its result converted back to V (as Triton keeps
// the operands' types: int8 + int8 wraps to int8).
template <class V, class F>
struct Combiner {
  const F& f;
  TL_INLINE V operator()(V x, V y) const { return static_cast<V>(f(x, y)); }
};
// Two operands: f(x0, x1, y0, y1) as Triton's combine_fn(value1, index1, value2, index2),
// returning a std::pair or std::tuple.
template <class A, class B, class F>
struct Combiner<std::pair<A, B>, F> {
  const F& f;
  TL_INLINE std::pair<A, B> operator()(const std::pair<A, B>& x, const std::pair<A, B>& y) const {
    const auto r = f(x.first, x.second, y.first, y.second);
    return {static_cast<A>(std::get<0>(r)), static_cast<B>(std::get<1>(r))};
  }
};

// Three or more operands: f(x0, x1, ..., y0, y1, ...), returning a std::tuple.
template <class... Ts, class F>
struct Combiner<std::tuple<Ts...>, F> {
  const F& f;
  TL_INLINE std::tuple<Ts...> operator()(const std::tuple<Ts...>& x,
                                         const std::tuple<Ts...>& y) const {
    const auto r = std::apply(f, std::tuple_cat(x, y));
    return [&]<std::size_t... I>(std::index_sequence<I...>) __attribute__((always_inline)) {
      return std::tuple<Ts...>(static_cast<Ts>(std::get<I>(r))...);
    }(std::index_sequence_for<Ts...>{});
  }
};

// Calls g(read) with read(i, j) giving element (i, j) of the operands as a V. Dense operands
// are read where g uses them (an expression is evaluated inside g's loop); masked ones are
// evaluated into blocks first, as reduce.h's reductions do (the masked loop vectorizes there).
template <class V, class X, class G>
TL_INLINE auto withReader(const X& x, G g) {
  if (dense(x))
    return g([&](int i, int j)
                 __attribute__((always_inline)) { return static_cast<V>(get<true>(x, i, j)); });
  const auto& b = eval(x);
  return g([&](int i, int j)
               __attribute__((always_inline)) { return static_cast<V>(get<true>(b, i, j)); });
}
template <class V, class X, class Y, class G>
TL_INLINE auto withReader(const X& x, const Y& y, G g) {
  using A = typename V::first_type;
  using B = typename V::second_type;
  if (dense(x) && dense(y))
    return g([&](int i, int j) __attribute__((always_inline)) {
      return V(static_cast<A>(get<true>(x, i, j)), static_cast<B>(get<true>(y, i, j)));
    });
  const auto& bx = eval(x);
  const auto& by = eval(y);
  return g([&](int i, int j) __attribute__((always_inline)) {
    return V(static_cast<A>(get<true>(bx, i, j)), static_cast<B>(get<true>(by, i, j)));
  });
}

// Folds the N values read(0) .. read(N - 1) in tl::sum's order (reduceRow in reduce.h), with
// no identity: rows shorter than the lanes start from their first element.
template <class V, int N, class R, class C>
TL_INLINE V foldRow(R read, C combine) {
  constexpr int P = reducePartials(N);
  if constexpr (P == 1) {
    V acc = read(0);
    for (int j = 1; j < N; ++j)
      acc = combine(acc, read(j));
    return acc;
  } else {
    Store<V, P> store;
    const Lanes<V> lanes = store.lanes();
    for (int l = 0; l < P; ++l)
      lanes.set(l, read(l));
    for (int j = P; j + P <= N; j += P)
      for (int l = 0; l < P; ++l)
        lanes.set(l, combine(lanes.get(l), read(j + l)));
    for (int width = P / 2; width > 0; width /= 2)
      for (int l = 0; l < width; ++l)
        lanes.set(l, combine(lanes.get(l), lanes.get(l + width)));
    V acc = lanes.get(0);
    for (int j = N - N % P; j < N; ++j)
      acc = combine(acc, read(j));
    return acc;
  }
}

// A reduction of values V over Axis of a block of shape S (-1: every element): a V, or a
// Result of the remaining dimension.
template <class V, int Axis, class S, class R, class C>
TL_INLINE auto foldAxis(R read, C combine) {
  if constexpr (S::rank == 1) {
    static_assert(Axis == 0 || Axis == -1, "a 1-D block reduces over axis 0 (or -1, everything)");
    return foldRow<V, S::cols>([&](int j) __attribute__((always_inline)) { return read(0, j); },
                               combine);
  } else if constexpr (Axis == -1) {
    return foldRow<V, S::rows * S::cols>(
        [&](int k) __attribute__((always_inline)) { return read(k / S::cols, k % S::cols); },
        combine);
  } else if constexpr (Axis == 1) {
    using Out = Result<V, Shape<S::rows>>;
    typename Out::type out;
    const Lanes<V> o = Out::lanes(out);
    for (int i = 0; i < S::rows; ++i)
      o.set(i, foldRow<V, S::cols>([&](int j) __attribute__((always_inline)) { return read(i, j); },
                                   combine));
    return out;
  } else {
    static_assert(Axis == 0, "reduction axis is 0, 1 or -1 (everything)");
    using Out = Result<V, Shape<S::cols>>;
    typename Out::type out;
    const Lanes<V> o = Out::lanes(out);
    for (int j = 0; j < S::cols; ++j)
      o.set(j, read(0, j));
    for (int i = 1; i < S::rows; ++i)
      for (int j = 0; j < S::cols; ++j)
        o.set(j, combine(o.get(j), read(i, j)));
    return out;
  }
}

// Scans run over runs of this many elements at a time (a 512-bit vector of fp32).
constexpr int kScanLanes = 16;

// The Hillis-Steele steps Step, 2 Step, ... (< Run) over Size values in runs of Run, from
// `from` into `to`, then back, alternating: after the step of s, element k holds the
// combination of the 2s elements of its run that end at k (start at k, Reverse). Each pass
// reads one array and writes the other, so its loop has no dependence between lanes.
template <int Step, int Run, int Size, bool Reverse, class L, class C>
TL_INLINE void hillisSteele(L from, L to, C combine) {
  if constexpr (Step < Run) {
    if constexpr (!Reverse) {
      for (int k = 0; k < Step; ++k)
        to.set(k, from.get(k));
      for (int k = Step; k < Size; ++k)
        to.set(k, k % Run >= Step ? combine(from.get(k - Step), from.get(k)) : from.get(k));
    } else {
      for (int k = 0; k < Size - Step; ++k)
        to.set(k, k % Run < Run - Step ? combine(from.get(k + Step), from.get(k)) : from.get(k));
      for (int k = Size - Step; k < Size; ++k)
        to.set(k, from.get(k));
    }
    hillisSteele<2 * Step, Run, Size, Reverse>(to, from, combine);
  }
}

constexpr int hillisSteeleSteps(int run) {
  int steps = 0;
  for (int step = 1; step < run; step *= 2)
    ++steps;
  return steps;
}

// The scan of each row (Rows rows of Cols) of read(i, j), into out: Hillis-Steele within runs
// of 16 (or the whole row, when 16 does not divide it), over the whole block at once; then
// each run takes in the last element of the run before it (after it, Reverse).
template <class V, int Rows, int Cols, bool Reverse, class R, class C>
TL_INLINE void scanRows(Lanes<V> out, R read, C combine) {
  constexpr int size = Rows * Cols;
  constexpr int run = Cols % kScanLanes == 0 ? kScanLanes : Cols;
  constexpr int steps = hillisSteeleSteps(run);
  Store<V, size> scratch;
  // The steps alternate between the two arrays; starting in the right one ends in `out`.
  const Lanes<V> first = steps % 2 == 0 ? out : scratch.lanes();
  const Lanes<V> second = steps % 2 == 0 ? scratch.lanes() : out;
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j)
      first.set(i * Cols + j, read(i, j));
  hillisSteele<1, run, size, Reverse>(first, second, combine);
  if constexpr (Cols > run)
    for (int i = 0; i < Rows; ++i) {
      if constexpr (!Reverse) {
        for (int r = run; r < Cols; r += run) {
          const V carry = out.get(i * Cols + r - 1); // complete: its run is done
          for (int l = 0; l < run; ++l)
            out.set(i * Cols + r + l, combine(carry, out.get(i * Cols + r + l)));
        }
      } else {
        for (int r = Cols - 2 * run; r >= 0; r -= run) {
          const V carry = out.get(i * Cols + r + run);
          for (int l = 0; l < run; ++l)
            out.set(i * Cols + r + l, combine(carry, out.get(i * Cols + r + l)));
        }
      }
    }
}

// The scan of each column of read(i, j), into out: one row at a time, vectorized across the
// columns; row i is combine(row i - 1, row i) (row i + 1, Reverse).
template <class V, int Rows, int Cols, bool Reverse, class R, class C>
TL_INLINE void scanColumns(Lanes<V> out, R read, C combine) {
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j)
      out.set(i * Cols + j, read(i, j));
  if constexpr (!Reverse) {
    for (int i = 1; i < Rows; ++i)
      for (int j = 0; j < Cols; ++j)
        out.set(i * Cols + j, combine(out.get((i - 1) * Cols + j), out.get(i * Cols + j)));
  } else {
    for (int i = Rows - 2; i >= 0; --i)
      for (int j = 0; j < Cols; ++j)
        out.set(i * Cols + j, combine(out.get((i + 1) * Cols + j), out.get(i * Cols + j)));
  }
}

// The inclusive scan of values V along Axis (-1: the last) of a block of shape Sh; Reverse
// scans from the end (Triton's reverse=True: the flipped scan of the flipped block).
template <class V, int Axis, bool Reverse, class Sh, class R, class C>
TL_INLINE auto scanAxis(R read, C combine) {
  constexpr int axis = Axis < 0 ? Sh::rank + Axis : Axis;
  static_assert(axis >= 0 && axis < Sh::rank, "scan: no such axis");
  typename Result<V, Sh>::type out;
  if constexpr (Sh::rank == 1 || axis == 1)
    scanRows<V, Sh::rows, Sh::cols, Reverse>(Result<V, Sh>::lanes(out), read, combine);
  else
    scanColumns<V, Sh::rows, Sh::cols, Reverse>(Result<V, Sh>::lanes(out), read, combine);
  return out;
}

// Any number of operands (as a std::tuple V): dense ones read in place, others evaluated first.
template <class V, class G, class... Xs>
TL_INLINE auto withReaderN(G g, const Xs&... xs) {
  if ((dense(xs) && ...))
    return g([&](int i, int j)
                 __attribute__((always_inline)) { return V(get<true>(xs, i, j)...); });
  const auto evaluated = std::make_tuple(eval(xs)...);
  return g([&](int i, int j) __attribute__((always_inline)) {
    return std::apply([&](const auto&... b)
                          __attribute__((always_inline)) { return V(get<true>(b, i, j)...); },
                      evaluated);
  });
}

} // namespace detail

// reduce<Axis>(x, combine), as tl.reduce(x, axis, combine_fn): combine(a, b) of two elements
// returns their combination (converted to x's element type). Axis -1 reduces every element to
// a scalar (Triton's axis=None, as tl::sum); 0 or 1 reduce one axis of a 2-D block to a 1-D
// block; a 1-D block reduces to a scalar. Order: see the top of this file.
template <int Axis = -1, Tensor X, class F>
TL_INLINE auto reduce(const X& x, F combine) {
  using V = element_t<X>;
  const detail::Combiner<V, F> c{combine};
  return detail::withReader<V>(x, [&](auto read) __attribute__((always_inline)) {
    return detail::foldAxis<V, Axis, shape_of<X>>(read, c);
  });
}

// reduceN<Axis>(combine, x, y, z, ...): tl.reduce over three or more blocks of one shape, as
// reduce2 for two; combine(x0, y0, z0, ..., x1, y1, z1, ...) returns a std::tuple. Returns a
// std::tuple of scalars or of 1-D blocks, in the operands' element types.
template <int Axis, class F, Tensor... Xs>
TL_INLINE auto reduceN(F combine, const Xs&... xs) {
  using V = std::tuple<element_t<Xs>...>;
  const detail::Combiner<V, F> c{combine};
  return detail::withReaderN<V>(
      [&](auto read) __attribute__((always_inline)) {
        using S = shape_of<std::tuple_element_t<0, std::tuple<Xs...>>>;
        return detail::foldAxis<V, Axis, S>(read, c);
      },
      xs...);
}

// associative_scanN<Axis, Reverse>(combine, x, y, z, ...): the scan of three or more blocks
// together, combine as in reduceN; a std::tuple of blocks.
template <int Axis, bool Reverse, class F, Tensor... Xs>
TL_INLINE auto associative_scanN(F combine, const Xs&... xs) {
  using V = std::tuple<element_t<Xs>...>;
  const detail::Combiner<V, F> c{combine};
  return detail::withReaderN<V>(
      [&](auto read) __attribute__((always_inline)) {
        using S = shape_of<std::tuple_element_t<0, std::tuple<Xs...>>>;
        return detail::scanAxis<V, Axis, Reverse, S>(read, c);
      },
      xs...);
}

// reduce2<Axis>(x, y, combine): the reduction of two blocks of one shape together, as
// tl.reduce((x, y), axis, combine_fn): combine(x0, y0, x1, y1) combines (x0, y0) with (x1, y1)
// and returns a std::pair (or std::tuple) of the two results. Returns a std::pair of scalars
// or of 1-D blocks, in x's and y's element types.
template <int Axis = -1, Tensor X, Tensor Y, class F>
TL_INLINE auto reduce2(const X& x, const Y& y, F combine) {
  static_assert(shape_of<X>::rank == shape_of<Y>::rank && shape_of<X>::rows == shape_of<Y>::rows &&
                    shape_of<X>::cols == shape_of<Y>::cols,
                "reduce2: both blocks must have the same shape");
  using V = std::pair<element_t<X>, element_t<Y>>;
  const detail::Combiner<V, F> c{combine};
  return detail::withReader<V>(x, y, [&](auto read) __attribute__((always_inline)) {
    return detail::foldAxis<V, Axis, shape_of<X>>(read, c);
  });
}

// associative_scan<Axis, Reverse>(x, combine), as tl.associative_scan(x, axis, combine_fn,
// reverse): the inclusive scan along Axis (-1: the last), a block of x's shape and type.
// combine(a, b) gets the combination of the earlier elements as a (the later ones, Reverse).
template <int Axis, bool Reverse = false, Tensor X, class F>
TL_INLINE auto associative_scan(const X& x, F combine) {
  using V = element_t<X>;
  const detail::Combiner<V, F> c{combine};
  return detail::withReader<V>(x, [&](auto read) __attribute__((always_inline)) {
    return detail::scanAxis<V, Axis, Reverse, shape_of<X>>(read, c);
  });
}

// associative_scan2<Axis, Reverse>(x, y, combine): the scan of two blocks together, combine
// as in reduce2; a std::pair of blocks.
template <int Axis, bool Reverse = false, Tensor X, Tensor Y, class F>
TL_INLINE auto associative_scan2(const X& x, const Y& y, F combine) {
  static_assert(shape_of<X>::rank == shape_of<Y>::rank && shape_of<X>::rows == shape_of<Y>::rows &&
                    shape_of<X>::cols == shape_of<Y>::cols,
                "associative_scan2: both blocks must have the same shape");
  using V = std::pair<element_t<X>, element_t<Y>>;
  const detail::Combiner<V, F> c{combine};
  return detail::withReader<V>(x, y, [&](auto read) __attribute__((always_inline)) {
    return detail::scanAxis<V, Axis, Reverse, shape_of<X>>(read, c);
  });
}

// cumsum<Axis, Reverse>(x): in sum's type (reduce.h's sum_t: integers narrower than 32 bits in
// int32, 16-bit floats in fp32), integers wrapping.
template <int Axis = 0, bool Reverse = false, Tensor X>
TL_INLINE auto cumsum(const X& x) {
  using A = detail::sum_t<element_t<X>>;
  const auto add = [](A a, A b)
                       __attribute__((always_inline)) { return detail::wrappingAdd(a, b); };
  return detail::withReader<A>(x, [&](auto read) __attribute__((always_inline)) {
    return detail::scanAxis<A, Axis, Reverse, shape_of<X>>(read, add);
  });
}

// cumprod<Axis, Reverse>(x): in the element type (16-bit floats in fp32, as max), integers
// wrapping, as Triton's cumprod.
template <int Axis = 0, bool Reverse = false, Tensor X>
TL_INLINE auto cumprod(const X& x) {
  using A = compute_t<element_t<X>>;
  const auto mul = [](A a, A b)
                       __attribute__((always_inline)) { return detail::wrappingMul(a, b); };
  return detail::withReader<A>(x, [&](auto read) __attribute__((always_inline)) {
    return detail::scanAxis<A, Axis, Reverse, shape_of<X>>(read, mul);
  });
}

} // namespace tcpu::tl

#endif
