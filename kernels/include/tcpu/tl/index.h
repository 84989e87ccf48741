// Index blocks that keep their structure, the way Triton's axis analysis
// does: arange and affine maps of it (Lin), rectangles of true lanes from
// comparing them (Rect), and per-row offsets plus an affine column (Outer).
// Pointer blocks built from these (memory.h) load and store whole contiguous
// rows with vector instructions instead of gathers; anything else falls back
// to an explicit Block.
#ifndef TCPU_TL_INDEX_H
#define TCPU_TL_INDEX_H

#include "tcpu/tl/core.h"

namespace tcpu::tl {

// value(i, j) = base + i * rowStep + j * colStep, as int32 (Triton's arange
// type). Rank 1 uses only colStep.
template <int D0, int D1 = -1>
struct Lin {
  using shape = Shape<D0, D1>;
  int64_t base = 0, rowStep = 0, colStep = 0;

  TL_INLINE Block<int32_t, D0, D1> eval() const {
    return detail::materialize<Block<int32_t, D0, D1>>(*this);
  }
  TL_INLINE int32_t at(int i, int j) const {
    return static_cast<int32_t>(base + i * rowStep + j * colStep);
  }
};

// tl.arange(START, END): END - START must be a power of two, as in Triton.
template <int Start, int End>
TL_INLINE Lin<End - Start> arange() {
  static_assert(End > Start && ((End - Start) & (End - Start - 1)) == 0,
                "arange: END - START must be a positive power of two");
  return {Start, 0, 1};
}

template <int D0, int D1>
struct is_lin : std::false_type {};

// Lanes (i, j) with rowLo <= i < rowHi and colLo <= j < colHi are true.
template <int D0, int D1 = -1>
struct Rect {
  using shape = Shape<D0, D1>;
  int64_t rowLo = 0, rowHi = shape::rows, colLo = 0, colHi = shape::cols;

  TL_INLINE Block<bool, D0, D1> eval() const {
    return detail::materialize<Block<bool, D0, D1>>(*this);
  }
  TL_INLINE bool at(int i, int j) const {
    return i >= rowLo && i < rowHi && j >= colLo && j < colHi;
  }
  TL_INLINE bool full() const {
    return rowLo <= 0 && rowHi >= shape::rows && colLo <= 0 && colHi >= shape::cols;
  }
};

// value(i, j) = row[i] + j * colStep, as int64 (the per-row part may be any
// block, e.g. Triton's `(pid_m * BM + arange(0, BM)) % M`).
template <int D0, int D1 = -1>
struct Outer {
  using shape = Shape<D0, D1>;
  int64_t row[shape::rows];
  int64_t colStep = 0;

  TL_INLINE Block<int64_t, D0, D1> eval() const {
    return detail::materialize<Block<int64_t, D0, D1>>(*this);
  }
  TL_INLINE int64_t at(int i, int j) const { return row[i] + j * colStep; }
};

namespace detail {

template <int D0, int D1>
TL_INLINE Outer<D0, D1> toOuter(Lin<D0, D1> x) {
  Outer<D0, D1> out;
  for (int i = 0; i < Shape<D0, D1>::rows; ++i)
    out.row[i] = x.base + i * x.rowStep;
  out.colStep = x.colStep;
  return out;
}

// The Lin/Rect/Outer type of the broadcast of shapes A and B.
template <template <int, int> class K, class A, class B>
struct broadcast_lazy {
  static constexpr int rank = A::rank > B::rank ? A::rank : B::rank;
  static constexpr int rows = broadcastDim(A::rows, B::rows);
  static constexpr int cols = broadcastDim(A::cols, B::cols);
  static_assert(broadcastable(A::rows, B::rows) && broadcastable(A::cols, B::cols),
                "block shapes do not broadcast");
  using type = std::conditional_t<rank == 2, K<rows, cols>, K<cols, -1>>;
};

// Rect bounds along one dimension after broadcasting it from size `from`:
// a size-1 dimension is all true or all false.
TL_INLINE void broadcastBounds(int from, int64_t& lo, int64_t& hi) {
  if (from != 1) return;
  const bool lane0 = lo <= 0 && hi > 0;
  lo = lane0 ? std::numeric_limits<int32_t>::min() : 0;
  hi = lane0 ? std::numeric_limits<int32_t>::max() : 0;
}

// [lo, hi) of the k with base + k * step (op) bound, for step 1.
enum class Compare { less, lessEqual, greater, greaterEqual };
TL_INLINE void solve(Compare c, int64_t base, int64_t bound, int64_t& lo, int64_t& hi) {
  const int64_t big = std::numeric_limits<int32_t>::max();
  switch (c) {
  case Compare::less:
    lo = -big, hi = bound - base;
    break;
  case Compare::lessEqual:
    lo = -big, hi = bound - base + 1;
    break;
  case Compare::greater:
    lo = bound - base + 1, hi = big;
    break;
  case Compare::greaterEqual:
    lo = bound - base, hi = big;
    break;
  }
}

// lin (op) bound as a Rect when lin moves by 1 along at most one dimension;
// otherwise an explicit mask.
template <int D0, int D1, std::integral S>
TL_INLINE Block<bool, D0, D1> compareExplicit(Lin<D0, D1> x, S bound, Compare c) {
  return zip(x.eval(), bound, [c](int32_t a, S b) -> bool {
    switch (c) {
    case Compare::less:
      return a < b;
    case Compare::lessEqual:
      return a <= b;
    case Compare::greater:
      return a > b;
    case Compare::greaterEqual:
      return a >= b;
    }
    return false;
  });
}

} // namespace detail

// The structured comparison result: a Rect when it can be one (checked at run
// time, folded away when the steps are constants), otherwise a Block<bool>.
template <int D0, int D1 = -1>
struct LinMask {
  Rect<D0, D1> rect;
  bool structured = true;
  Block<bool, D0, D1> lanes; // used when !structured

  // A copy takes the explicit lanes only when they are used. Masks are copied into every load
  // view and every expression that holds one by value; copying D0 x D1 unused lanes each time
  // cost more than the arithmetic (23 % of the layer norm tutorial's backward pass).
  LinMask() = default;
  TL_INLINE LinMask(const LinMask& o) : rect(o.rect), structured(o.structured) {
    if (!structured) lanes = o.lanes;
  }
  TL_INLINE LinMask& operator=(const LinMask& o) {
    rect = o.rect;
    structured = o.structured;
    if (!structured) lanes = o.lanes;
    return *this;
  }

  TL_INLINE Block<bool, D0, D1> eval() const { return structured ? rect.eval() : lanes; }
  TL_INLINE bool at(int i, int j) const { return structured ? rect.at(i, j) : lanes.at(i, j); }

  // The read protocol of core.h's get<Dense>: a rectangle that covers only part of the block is
  // not dense but uniform (false) outside itself, so an expression over it, such as Triton's
  // `where(cols < N, x - mean, 0.)` over a load masked by the same `cols < N`, is evaluated as
  // one unmasked loop over the rectangle and one value for the rest, instead of a comparison
  // and a select in every lane. Dense reads happen only where the mask is known to be true: a
  // whole rectangle, or lanes inside it. Explicit lanes are never dense, so that a dense read
  // is the constant true, which folds the `where` away.
  TL_INLINE bool dense() const { return structured && rect.full(); }
  template <bool Dense>
  TL_INLINE bool element(int i, int j) const {
    if constexpr (Dense)
      return true;
    else
      return at(i, j);
  }
  template <class S>
  TL_INLINE bool uniformOutside(detail::LaneRect& r) const {
    using Own = Shape<D0, D1>;
    if (S::rows != Own::rows || S::cols != Own::cols || !structured) return false;
    return detail::joinRect<S>(r, rect);
  }
};

namespace detail {
// A mask with its block of explicit lanes is large: expressions reference a named one.
template <int D0, int D1>
struct held_by_reference<LinMask<D0, D1>> : std::true_type {};

template <int D0, int D1, std::integral S>
TL_INLINE LinMask<D0, D1> compare(Lin<D0, D1> x, S bound, Compare c) {
  using Sh = Shape<D0, D1>;
  LinMask<D0, D1> out;
  const int64_t b = static_cast<int64_t>(bound);
  const int64_t rowStep = Sh::rows == 1 ? 0 : x.rowStep;
  const int64_t colStep = Sh::cols == 1 ? 0 : x.colStep;
  if (rowStep == 0 && colStep == 1) {
    solve(c, x.base, b, out.rect.colLo, out.rect.colHi);
  } else if (colStep == 0 && rowStep == 1) {
    solve(c, x.base, b, out.rect.rowLo, out.rect.rowHi);
  } else if (rowStep == 0 && colStep == 0) {
    int64_t lo, hi;
    solve(c, x.base, b, lo, hi);
    if (!(lo <= 0 && hi > 0)) out.rect.colHi = out.rect.colLo = 0;
  } else {
    out.structured = false;
    out.lanes = compareExplicit(x, bound, c);
  }
  return out;
}
} // namespace detail

template <int D0, int D1, std::integral S>
TL_INLINE auto operator<(Lin<D0, D1> x, S b) {
  return detail::compare(x, b, detail::Compare::less);
}
template <int D0, int D1, std::integral S>
TL_INLINE auto operator<=(Lin<D0, D1> x, S b) {
  return detail::compare(x, b, detail::Compare::lessEqual);
}
template <int D0, int D1, std::integral S>
TL_INLINE auto operator>(Lin<D0, D1> x, S b) {
  return detail::compare(x, b, detail::Compare::greater);
}
template <int D0, int D1, std::integral S>
TL_INLINE auto operator>=(Lin<D0, D1> x, S b) {
  return detail::compare(x, b, detail::Compare::greaterEqual);
}
template <int D0, int D1, std::integral S>
TL_INLINE auto operator>(S b, Lin<D0, D1> x) {
  return x < b;
}
template <int D0, int D1, std::integral S>
TL_INLINE auto operator>=(S b, Lin<D0, D1> x) {
  return x <= b;
}
template <int D0, int D1, std::integral S>
TL_INLINE auto operator<(S b, Lin<D0, D1> x) {
  return x > b;
}
template <int D0, int D1, std::integral S>
TL_INLINE auto operator<=(S b, Lin<D0, D1> x) {
  return x >= b;
}

// Mask conjunction keeps rectangles; anything else is explicit.
template <int A0, int A1, int B0, int B1>
TL_INLINE auto operator&(LinMask<A0, A1> a, LinMask<B0, B1> b) {
  using R = typename detail::broadcast_lazy<LinMask, Shape<A0, A1>, Shape<B0, B1>>::type;
  R out;
  if (a.structured && b.structured) {
    Rect<A0, A1> x = a.rect;
    Rect<B0, B1> y = b.rect;
    detail::broadcastBounds(Shape<A0, A1>::rows, x.rowLo, x.rowHi);
    detail::broadcastBounds(Shape<A0, A1>::cols, x.colLo, x.colHi);
    detail::broadcastBounds(Shape<B0, B1>::rows, y.rowLo, y.rowHi);
    detail::broadcastBounds(Shape<B0, B1>::cols, y.colLo, y.colHi);
    out.rect.rowLo = x.rowLo > y.rowLo ? x.rowLo : y.rowLo;
    out.rect.rowHi = x.rowHi < y.rowHi ? x.rowHi : y.rowHi;
    out.rect.colLo = x.colLo > y.colLo ? x.colLo : y.colLo;
    out.rect.colHi = x.colHi < y.colHi ? x.colHi : y.colHi;
  } else {
    out.structured = false;
    out.lanes = zip(a.eval(), b.eval(), [](bool p, bool q) -> bool { return p && q; });
  }
  return out;
}

// Affine arithmetic on Lin stays Lin.
template <int D0, int D1, std::integral S>
TL_INLINE Lin<D0, D1> operator+(Lin<D0, D1> x, S s) {
  return {x.base + static_cast<int64_t>(s), x.rowStep, x.colStep};
}
template <int D0, int D1, std::integral S>
TL_INLINE Lin<D0, D1> operator+(S s, Lin<D0, D1> x) {
  return x + s;
}
template <int D0, int D1, std::integral S>
TL_INLINE Lin<D0, D1> operator-(Lin<D0, D1> x, S s) {
  return {x.base - static_cast<int64_t>(s), x.rowStep, x.colStep};
}
template <int D0, int D1, std::integral S>
TL_INLINE Lin<D0, D1> operator-(S s, Lin<D0, D1> x) {
  return {static_cast<int64_t>(s) - x.base, -x.rowStep, -x.colStep};
}
template <int D0, int D1, std::integral S>
TL_INLINE Lin<D0, D1> operator*(Lin<D0, D1> x, S s) {
  const auto k = static_cast<int64_t>(s);
  return {x.base * k, x.rowStep * k, x.colStep * k};
}
template <int D0, int D1, std::integral S>
TL_INLINE Lin<D0, D1> operator*(S s, Lin<D0, D1> x) {
  return x * s;
}
template <int D0, int D1>
TL_INLINE Lin<D0, D1> operator-(Lin<D0, D1> x) {
  return {-x.base, -x.rowStep, -x.colStep};
}
template <int A0, int A1, int B0, int B1>
TL_INLINE auto operator+(Lin<A0, A1> a, Lin<B0, B1> b) {
  using R = typename detail::broadcast_lazy<Lin, Shape<A0, A1>, Shape<B0, B1>>::type;
  auto step = [](int size, int64_t s) { return size == 1 ? int64_t{0} : s; };
  return R{a.base + b.base,
           step(Shape<A0, A1>::rows, a.rowStep) + step(Shape<B0, B1>::rows, b.rowStep),
           step(Shape<A0, A1>::cols, a.colStep) + step(Shape<B0, B1>::cols, b.colStep)};
}
template <int A0, int A1, int B0, int B1>
TL_INLINE auto operator-(Lin<A0, A1> a, Lin<B0, B1> b) {
  return a + (-b);
}

// Outer: per-row offsets (an explicit column block, shape [M, 1]) plus an
// affine row. Built by adding such a column block to a Lin.
template <class T, int M, int N, int N1>
  requires std::is_integral_v<T>
TL_INLINE auto operator+(Block<T, M, 1> rows, Lin<N, N1> x) {
  using R = typename detail::broadcast_lazy<Outer, Shape<M, 1>, Shape<N, N1>>::type;
  static_assert(R::shape::rank == 2, "Outer is two-dimensional");
  R out;
  const Outer<N, N1> lin = detail::toOuter(x);
  for (int i = 0; i < R::shape::rows; ++i) // M may be 1 while x has rows: both broadcast
    out.row[i] =
        static_cast<int64_t>(rows.v[M == 1 ? 0 : i]) + lin.row[Shape<N, N1>::rows == 1 ? 0 : i];
  out.colStep = Shape<N, N1>::cols == 1 ? 0 : x.colStep;
  return out;
}
template <class T, int M, int N, int N1>
  requires std::is_integral_v<T>
TL_INLINE auto operator+(Lin<N, N1> x, const Block<T, M, 1>& rows) {
  return rows + x;
}
// An integer column computed by an expression, e.g. `col(offs) * stride`.
template <class F, class... Ops, int N, int N1>
  requires(std::is_integral_v<typename Expr<F, Ops...>::value_type> &&
           Expr<F, Ops...>::block_type::rank == 2 && Expr<F, Ops...>::block_type::cols == 1)
TL_INLINE auto operator+(Expr<F, Ops...> rows, Lin<N, N1> x) {
  return rows.eval() + x;
}
template <class F, class... Ops, int N, int N1>
  requires(std::is_integral_v<typename Expr<F, Ops...>::value_type> &&
           Expr<F, Ops...>::block_type::rank == 2 && Expr<F, Ops...>::block_type::cols == 1)
TL_INLINE auto operator+(Lin<N, N1> x, Expr<F, Ops...> rows) {
  return rows.eval() + x;
}
template <int D0, int D1, std::integral S>
TL_INLINE Outer<D0, D1> operator+(Outer<D0, D1> x, S s) {
  Outer<D0, D1> out = x;
  for (int i = 0; i < Shape<D0, D1>::rows; ++i)
    out.row[i] += static_cast<int64_t>(s);
  return out;
}
template <int D0, int D1, std::integral S>
TL_INLINE Outer<D0, D1> operator+(S s, Outer<D0, D1> x) {
  return x + s;
}
template <int D0, int D1, std::integral S>
TL_INLINE Outer<D0, D1> operator*(Outer<D0, D1> x, S s) {
  Outer<D0, D1> out = x;
  const auto k = static_cast<int64_t>(s);
  for (int i = 0; i < Shape<D0, D1>::rows; ++i)
    out.row[i] *= k;
  out.colStep *= k;
  return out;
}
template <int D0, int D1, std::integral S>
TL_INLINE Outer<D0, D1> operator*(S s, Outer<D0, D1> x) {
  return x * s;
}
// The Lin may grow the Outer: a column of offsets plus a row ([M, 1] + [1, N]), or one offset
// plus a column ([1, 1] + [M, 1], as a rank-3 index block's tl form gives).
template <int D0, int D1, int B0, int B1>
TL_INLINE auto operator+(Outer<D0, D1> x, Lin<B0, B1> y) {
  using R = typename detail::broadcast_lazy<Outer, Shape<D0, D1>, Shape<B0, B1>>::type;
  R out;
  for (int i = 0; i < R::shape::rows; ++i)
    out.row[i] = x.row[Shape<D0, D1>::rows == 1 ? 0 : i] +
                 (y.base + (Shape<B0, B1>::rows == 1 ? 0 : i * y.rowStep));
  out.colStep =
      (Shape<D0, D1>::cols == 1 ? 0 : x.colStep) + (Shape<B0, B1>::cols == 1 ? 0 : y.colStep);
  return out;
}
template <int D0, int D1, int B0, int B1>
TL_INLINE auto operator+(Lin<B0, B1> y, Outer<D0, D1> x) {
  return x + y;
}

// OuterCols: an affine column ([M, 1]) plus an explicit row of offsets ([1, N]): value(i, j) =
// row[i] + col[j], as int64 (as Outer). Triton's matmul tutorial builds B's offsets this way,
// `offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn` with `offs_bn` wrapped `% N`;
// a pointer plus it is a PtrCols (memory.h), which loads whole rows where the columns turn out
// contiguous.
template <int D0, int D1 = -1>
struct OuterCols {
  using shape = Shape<D0, D1>;
  Outer<D0, D1> rows; // the per-row offsets (its column step 0)
  int64_t col[shape::cols];

  TL_INLINE Block<int64_t, D0, D1> eval() const {
    return detail::materialize<Block<int64_t, D0, D1>>(*this);
  }
  TL_INLINE int64_t at(int i, int j) const { return rows.row[i] + col[j]; }
};

namespace detail {
// OuterCols with row[i] = rowAt(i) and the columns of `cols`.
template <int M, int N, class RowAt, class I>
TL_INLINE OuterCols<M, N> outerCols(RowAt rowAt, const Block<I, 1, N>& cols) {
  OuterCols<M, N> out;
  for (int i = 0; i < M; ++i)
    out.rows.row[i] = rowAt(i);
  out.rows.colStep = 0;
  for (int j = 0; j < N; ++j)
    out.col[j] = static_cast<int64_t>(cols.v[j]);
  return out;
}
} // namespace detail

// (N > 1: a [1, 1] block is a column too, which Outer takes.)
template <int M, class I, int N>
  requires(std::is_integral_v<I> && N > 1)
TL_INLINE OuterCols<M, N> operator+(Lin<M, 1> rows, Block<I, 1, N> cols) {
  return detail::outerCols<M, N>([&](int i) { return rows.base + i * rows.rowStep; }, cols);
}
template <int M, class I, int N>
  requires(std::is_integral_v<I> && N > 1)
TL_INLINE OuterCols<M, N> operator+(Block<I, 1, N> cols, Lin<M, 1> rows) {
  return rows + cols;
}
// (By value, as the operators above: the forwarding elementwise operator+ would otherwise win.)
template <int M, class F, class... Ops>
  requires(std::is_integral_v<typename Expr<F, Ops...>::value_type> &&
           Expr<F, Ops...>::block_type::rank == 2 && Expr<F, Ops...>::block_type::rows == 1 &&
           Expr<F, Ops...>::block_type::cols > 1)
TL_INLINE auto operator+(Lin<M, 1> rows, Expr<F, Ops...> cols) {
  return rows + cols.eval();
}
template <int M, class F, class... Ops>
  requires(std::is_integral_v<typename Expr<F, Ops...>::value_type> &&
           Expr<F, Ops...>::block_type::rank == 2 && Expr<F, Ops...>::block_type::rows == 1 &&
           Expr<F, Ops...>::block_type::cols > 1)
TL_INLINE auto operator+(Expr<F, Ops...> cols, Lin<M, 1> rows) {
  return rows + cols.eval();
}
template <int D0, int D1, std::integral S>
TL_INLINE OuterCols<D0, D1> operator+(OuterCols<D0, D1> x, S s) {
  x.rows = x.rows + s;
  return x;
}
template <int D0, int D1, std::integral S>
TL_INLINE OuterCols<D0, D1> operator+(S s, OuterCols<D0, D1> x) {
  return x + s;
}

// reshape<D0, D1>(x) of an index block with one dimension of more than one element (a range,
// a row or a column): element k is base + k * step whatever the shape, so the result is an
// index block too (the front end's rank-3 indices reshape rows into columns this way).
template <int D0, int D1 = -1, int A0, int A1>
  requires(Shape<A0, A1>::rows == 1 || Shape<A0, A1>::cols == 1)
TL_INLINE Lin<D0, D1> reshape(Lin<A0, A1> x) {
  static_assert(Shape<D0, D1>::size == Shape<A0, A1>::size,
                "reshape: the number of elements must not change");
  const int64_t step = Shape<A0, A1>::cols == 1 ? x.rowStep : x.colStep;
  return Lin<D0, D1>{x.base, Shape<D0, D1>::cols * step, step};
}

// x[:, None] is expand_dims<1>(x); x[None, :] is expand_dims<0>(x).
template <int Axis, class T, int N>
TL_INLINE auto expand_dims(const Block<T, N>& x) {
  static_assert(Axis == 0 || Axis == 1, "expand_dims: axis is 0 or 1");
  if constexpr (Axis == 0) {
    Block<T, 1, N> out;
    for (int k = 0; k < N; ++k)
      out.v[k] = x.v[k];
    return out;
  } else {
    Block<T, N, 1> out;
    for (int k = 0; k < N; ++k)
      out.v[k] = x.v[k];
    return out;
  }
}
template <int Axis, int N>
TL_INLINE auto expand_dims(Lin<N> x) {
  static_assert(Axis == 0 || Axis == 1, "expand_dims: axis is 0 or 1");
  if constexpr (Axis == 0)
    return Lin<1, N>{x.base, 0, x.colStep};
  else
    return Lin<N, 1>{x.base, x.colStep, 0};
}
template <int Axis, int N>
TL_INLINE auto expand_dims(LinMask<N> x) {
  static_assert(Axis == 0 || Axis == 1, "expand_dims: axis is 0 or 1");
  using R = std::conditional_t<Axis == 0, LinMask<1, N>, LinMask<N, 1>>;
  R out;
  out.structured = x.structured;
  if (Axis == 0) {
    out.rect.colLo = x.rect.colLo, out.rect.colHi = x.rect.colHi;
  } else {
    out.rect.rowLo = x.rect.colLo, out.rect.rowHi = x.rect.colHi;
  }
  if (!x.structured)
    for (int k = 0; k < N; ++k)
      out.lanes.v[k] = x.lanes.v[k];
  return out;
}

template <int Axis, class F, class... Ops>
TL_INLINE auto expand_dims(const Expr<F, Ops...>& x) {
  return expand_dims<Axis>(x.eval());
}

// Sugar for the two expand_dims: col(x) is x[:, None], row(x) is x[None, :].
template <class X>
TL_INLINE auto col(const X& x) {
  return expand_dims<1>(x);
}
template <class X>
TL_INLINE auto row(const X& x) {
  return expand_dims<0>(x);
}

} // namespace tcpu::tl

#endif
