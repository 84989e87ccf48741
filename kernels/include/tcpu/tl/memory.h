// Pointer blocks, load and store. A pointer plus a structured index (Lin or
// Outer, or a column of explicit offsets) is a Ptr: a base pointer, one offset
// per row and a column step. Loading or storing it moves each row as one
// contiguous run when the step is 1 (vector loads and stores, the mask reduced
// to a column window), and with a strided loop otherwise. Explicit column
// offsets make a PtrCols, which takes that path where they step evenly. Pointers
// plus arbitrary offsets become a block of pointers (gathers and scatters), as
// in Triton.
#ifndef TCPU_TL_MEMORY_H
#define TCPU_TL_MEMORY_H

#include "tcpu/tl/index.h"

namespace tcpu::tl {

template <class T, int D0, int D1 = -1>
struct Ptr {
  using shape = Shape<D0, D1>;
  T* base;
  int64_t row[shape::rows];
  int64_t colStep;

  TL_INLINE T* address(int i, int j) const { return base + row[i] + j * colStep; }
  TL_INLINE T* at(int i, int j) const { return address(i, j); }
  TL_INLINE Block<T*, D0, D1> eval() const { return detail::materialize<Block<T*, D0, D1>>(*this); }
  // Advancing every pointer by a scalar: Triton's `a_ptrs += BLOCK_K * stride`.
  template <std::integral S>
  TL_INLINE Ptr& operator+=(S s) {
    base += s;
    return *this;
  }
  template <std::integral S>
  TL_INLINE Ptr& operator-=(S s) {
    base -= s;
    return *this;
  }
};

template <class T, int D0, int D1>
TL_INLINE Ptr<T, D0, D1> operator+(T* p, Outer<D0, D1> x) {
  Ptr<T, D0, D1> out;
  out.base = p;
  for (int i = 0; i < Shape<D0, D1>::rows; ++i)
    out.row[i] = x.row[i];
  out.colStep = Shape<D0, D1>::cols == 1 ? 0 : x.colStep;
  return out;
}
template <class T, int D0, int D1>
TL_INLINE Ptr<T, D0, D1> operator+(T* p, Lin<D0, D1> x) {
  return p + detail::toOuter(x);
}
template <class T, int D0, int D1>
TL_INLINE Ptr<T, D0, D1> operator+(Lin<D0, D1> x, T* p) {
  return p + x;
}
template <class T, int D0, int D1, std::integral S>
TL_INLINE Ptr<T, D0, D1> operator+(Ptr<T, D0, D1> p, S s) {
  return p += s;
}
// Pointers plus an affine index, broadcasting either (Triton's `p + stride_m * offs_m[:, None]
// + stride_n * offs_n[None, :]`, which adds the column part to a block of row pointers).
template <class T, int A0, int A1, int B0, int B1>
TL_INLINE auto operator+(Ptr<T, A0, A1> p, Lin<B0, B1> x) {
  using SA = Shape<A0, A1>;
  using SB = Shape<B0, B1>;
  using R = typename detail::broadcast_lazy<Outer, SA, SB>::type;
  using RS = typename R::shape;
  Ptr<T, RS::rank == 2 ? RS::rows : RS::cols, RS::rank == 2 ? RS::cols : -1> out;
  out.base = p.base;
  for (int i = 0; i < RS::rows; ++i)
    out.row[i] = p.row[SA::rows == 1 ? 0 : i] + (SB::rows == 1 ? x.base : x.base + i * x.rowStep);
  out.colStep = (SA::cols == 1 ? 0 : p.colStep) + (SB::cols == 1 ? 0 : x.colStep);
  return out;
}
template <class T, int A0, int A1, int B0, int B1>
TL_INLINE auto operator+(Lin<B0, B1> x, Ptr<T, A0, A1> p) {
  return p + x;
}
// Pointer plus an explicit index block: a block of pointers.
template <class T, class I, int D0, int D1>
  requires std::is_integral_v<I>
TL_INLINE Block<T*, D0, D1> operator+(T* p, const Block<I, D0, D1>& offsets) {
  Block<T*, D0, D1> out;
  for (int k = 0; k < Block<I, D0, D1>::size; ++k)
    out.v[k] = p + offsets.v[k];
  return out;
}
template <class T, class I, int D0, int D1>
  requires std::is_integral_v<I>
TL_INLINE Block<T*, D0, D1> operator+(const Block<I, D0, D1>& offsets, T* p) {
  return p + offsets;
}

// Pointer plus a column of explicit offsets ([M, 1]): a Ptr, one offset per row. Triton's
// matmul tutorial wraps its row indices (`offs_am = (pid_m * BLOCK_M + arange) % M`) and a
// front end adds the two parts one at a time (`(a_ptr + offs_am[:, None] * stride_am) +
// offs_k[None, :] * stride_ak`): kept structured, the affine column part then makes a Ptr
// (rows as contiguous runs) and an explicit row part a PtrCols, where a block of pointers
// would turn every load of A into a gather (1.4x slower matmul, bench/RESULTS.md).
template <class T, class I, int M>
  requires std::is_integral_v<I>
TL_INLINE Ptr<T, M, 1> operator+(T* p, const Block<I, M, 1>& offsets) {
  Ptr<T, M, 1> out;
  out.base = p;
  for (int i = 0; i < M; ++i)
    out.row[i] = offsets.v[i];
  out.colStep = 0;
  return out;
}
template <class T, class I, int M>
  requires std::is_integral_v<I>
TL_INLINE Ptr<T, M, 1> operator+(const Block<I, M, 1>& offsets, T* p) {
  return p + offsets;
}

template <class T, class F, class... Ops>
  requires std::is_integral_v<typename Expr<F, Ops...>::value_type>
TL_INLINE auto operator+(T* p, Expr<F, Ops...> offsets) {
  return p + offsets.eval();
}
template <class T, class F, class... Ops>
  requires std::is_integral_v<typename Expr<F, Ops...>::value_type>
TL_INLINE auto operator+(Expr<F, Ops...> offsets, T* p) {
  return p + offsets.eval();
}

// ptrs[:, None] and ptrs[None, :] of a range of pointers (`tl.expand_dims(Z + offs, 1)`, as a
// reduction with keep_dims stores its column): still a Ptr, so the store keeps its runs.
template <int Axis, class T, int N>
TL_INLINE auto expand_dims(const Ptr<T, N>& p) {
  static_assert(Axis == 0 || Axis == 1, "expand_dims: axis is 0 or 1");
  if constexpr (Axis == 0) {
    Ptr<T, 1, N> out;
    out.base = p.base;
    out.row[0] = p.row[0];
    out.colStep = p.colStep;
    return out;
  } else {
    Ptr<T, N, 1> out;
    out.base = p.base;
    for (int i = 0; i < N; ++i)
      out.row[i] = p.row[0] + i * p.colStep;
    out.colStep = 0;
    return out;
  }
}

// Pointers with an explicit column part: base + row[i] + col[j]. Triton's matmul tutorial
// wraps its column indices (`offs_bn = (pid_n * BLOCK_N + arange) % N`) so that loads never
// leave B, and adds them as a row to per-row pointers (`b_ptr + offs_k[:, None] * stride_bk +
// offs_bn[None, :] * stride_bn`). Only the program at the right edge sees the wrap: for every
// other one the columns are contiguous after all. So loads and stores check the columns once
// at run time (`dense`) and go through the Ptr path (whole rows as vector runs) when they are
// affine, and gather otherwise; the result is the same either way, lane by lane.
template <class T, int D0, int D1>
struct PtrCols {
  using shape = Shape<D0, D1>;
  Ptr<T, D0, D1> rows; // the base and the per-row offsets (its column step unused)
  int64_t col[shape::cols];

  TL_INLINE T* address(int i, int j) const { return rows.base + rows.row[i] + col[j]; }
  TL_INLINE T* at(int i, int j) const { return address(i, j); }
  TL_INLINE Block<T*, D0, D1> eval() const { return detail::materialize<Block<T*, D0, D1>>(*this); }
  template <std::integral S>
  TL_INLINE PtrCols& operator+=(S s) {
    rows += s;
    return *this;
  }
  template <std::integral S>
  TL_INLINE PtrCols& operator-=(S s) {
    rows -= s;
    return *this;
  }
  // The same pointers as a Ptr when the columns step evenly (col[j] = col[0] + j * step).
  TL_INLINE bool dense(Ptr<T, D0, D1>& out) const {
    const int64_t step = shape::cols > 1 ? col[1] - col[0] : 0;
    bool even = true;
    for (int j = 1; j < shape::cols; ++j)
      even &= col[j] == col[0] + j * step;
    out = rows;
    out.base += col[0];
    out.colStep = step;
    return even;
  }
};

template <class T, int D0, int D1, std::integral S>
TL_INLINE PtrCols<T, D0, D1> operator+(PtrCols<T, D0, D1> p, S s) {
  return p += s;
}
template <class T, int D0, int D1, std::integral S>
TL_INLINE PtrCols<T, D0, D1> operator-(PtrCols<T, D0, D1> p, S s) {
  return p -= s;
}
// A column of pointers ([M, 1]) plus a row of integer offsets ([1, N]).
template <class T, int M, class I, int N>
  requires(std::is_integral_v<I> && N > 1)
TL_INLINE PtrCols<T, M, N> operator+(Ptr<T, M, 1> p, Block<I, 1, N> cols) {
  return p.base + detail::outerCols<M, N>([&](int i) { return p.row[i]; }, cols);
}
template <class T, int M, class F, class... Ops>
  requires(std::is_integral_v<typename Expr<F, Ops...>::value_type> &&
           Expr<F, Ops...>::block_type::rank == 2 && Expr<F, Ops...>::block_type::rows == 1 &&
           Expr<F, Ops...>::block_type::cols > 1)
TL_INLINE auto operator+(Ptr<T, M, 1> p, Expr<F, Ops...> cols) {
  // (By value, as the other structured operators: a forwarding operator+ would otherwise win.)
  return p + cols.eval();
}

template <class T, int D0, int D1>
TL_INLINE PtrCols<T, D0, D1> operator+(T* p, OuterCols<D0, D1> x) {
  PtrCols<T, D0, D1> out;
  out.rows = p + x.rows;
  for (int j = 0; j < Shape<D0, D1>::cols; ++j)
    out.col[j] = x.col[j];
  return out;
}
template <class T, int D0, int D1>
TL_INLINE PtrCols<T, D0, D1> operator+(OuterCols<D0, D1> x, T* p) {
  return p + x;
}

namespace detail {

// One row of a structured access: lanes [lo, hi) touch memory.
template <class T, class U, int N>
TL_INLINE void loadRow(U* out, const T* p, int64_t step, int64_t lo, int64_t hi, U other) {
  if (lo <= 0 && hi >= N) {
    if (step == 1)
      for (int j = 0; j < N; ++j)
        out[j] = static_cast<U>(p[j]);
    else
      for (int j = 0; j < N; ++j)
        out[j] = static_cast<U>(p[j * step]);
    return;
  }
  const int first = lo < 0 ? 0 : (lo > N ? N : static_cast<int>(lo));
  const int last = hi > N ? N : (hi < first ? first : static_cast<int>(hi));
  for (int j = 0; j < first; ++j)
    out[j] = other;
  if (step == 1)
    for (int j = first; j < last; ++j)
      out[j] = static_cast<U>(p[j]);
  else
    for (int j = first; j < last; ++j)
      out[j] = static_cast<U>(p[j * step]);
  for (int j = last; j < N; ++j)
    out[j] = other;
}

// Stores lanes [rowLo, rowHi) x [colLo, colHi) of value through p, evaluating
// value (a block, an expression or a scalar) in the same loop.
template <class T, int D0, int D1, class V>
TL_INLINE void storeRect(const Ptr<T, D0, D1>& p, const V& value, int64_t rowLo, int64_t rowHi,
                         int64_t colLo, int64_t colHi) {
  using Sh = Shape<D0, D1>;
  const LaneBounds<Sh> store(LaneRect{rowLo, rowHi, colLo, colHi, true});
  const int r0 = store.r0, r1 = store.r1, c0 = store.c0, c1 = store.c1;
  const int64_t step = p.colStep;
  auto rows = [&]<bool Dense>() {
    for (int i = r0; i < r1; ++i) {
      T* q = p.base + p.row[i];
      // A whole row gets its own loop: a constant trip count vectorizes
      // without a remainder.
      if (step == 1 && c0 == 0 && c1 == Sh::cols)
        for (int j = 0; j < Sh::cols; ++j)
          q[j] = static_cast<T>(get<Dense>(value, i, j));
      else if (step == 1)
        for (int j = c0; j < c1; ++j)
          q[j] = static_cast<T>(get<Dense>(value, i, j));
      else
        for (int j = c0; j < c1; ++j)
          q[j * step] = static_cast<T>(get<Dense>(value, i, j));
    }
  };
  // Lanes inside the value's rectangle need no mask (uniformOutside).
  LaneRect valueRect;
  if (dense(value) || (uniformOutside<Sh>(value, valueRect) && valueRect.set &&
                       LaneBounds<Sh>(valueRect).contains(store)))
    rows.template operator()<true>();
  else
    rows.template operator()<false>();
}

} // namespace detail

// A load through a pointer to const is lazy: its lanes are read where the
// value is used, inside the store, reduction or expression that consumes it,
// so `store(out, x + y, mask)` is one pass over memory, as in Triton's
// compiled code, instead of copying x and y into blocks first. That relies on
// the promise a pointer to const makes: the program does not write that
// memory while the loaded value is in use (kernels/README.md, "Loads").
// Loads through pointers to mutable memory are copied into a Block at once.
template <class T, int D0, int D1, int M0, int M1>
struct LoadView {
  using U = std::remove_const_t<T>;
  using shape = Shape<D0, D1>;
  Ptr<T, D0, D1> p;
  LinMask<M0, M1> mask; // rectangle bounds already broadcast to the pointer's shape
  U other;
  bool contiguous; // every lane on, unit column step

  TL_INLINE bool on(int i, int j) const {
    return mask.structured ? mask.rect.at(i, j) : detail::get(mask.lanes, i, j);
  }
  template <bool Dense>
  TL_INLINE U element(int i, int j) const {
    if constexpr (Dense) {
      return p.base[p.row[i] + j];
    } else {
      // `other` is read before the branch, so that the two sides do not both end in a load,
      // which the optimizer would merge into one load from a select of the two addresses (a
      // gather once vectorized); a load on one side only becomes a masked vector load.
      const U fallback = other;
      return on(i, j) ? static_cast<U>(*p.address(i, j)) : fallback;
    }
  }
  TL_INLINE bool dense() const { return contiguous; }
  // Lanes outside the mask's rectangle all hold `other`; inside it, unit column steps read
  // memory as the dense path does. Only where the view is not broadcast in the expression.
  template <class S>
  TL_INLINE bool uniformOutside(detail::LaneRect& r) const {
    if (S::rows != shape::rows || S::cols != shape::cols || !mask.structured ||
        (shape::cols != 1 && p.colStep != 1))
      return false;
    return detail::joinRect<S>(r, mask.rect);
  }
  TL_INLINE Block<U, D0, D1> eval() const { return detail::materialize<Block<U, D0, D1>>(*this); }
  // A copy: *this is an lvalue even in a temporary view (`tl::load(...).to<float>()`), and a
  // named view is held by reference.
  template <class V>
  TL_INLINE auto to() const {
    return cast<V>(LoadView(*this));
  }
};

namespace detail {
// A masked load holds its mask's block of explicit lanes: expressions reference a named one.
template <class T, int D0, int D1, int M0, int M1>
struct held_by_reference<LoadView<T, D0, D1, M0, M1>> : std::true_type {};

template <class T, int D0, int D1, int M0, int M1, class O>
TL_INLINE LoadView<T, D0, D1, M0, M1> view(Ptr<T, D0, D1> p, LinMask<M0, M1> mask, O other) {
  using Sh = Shape<D0, D1>;
  LoadView<T, D0, D1, M0, M1> out{p, mask, static_cast<std::remove_const_t<T>>(other), false};
  if (mask.structured) {
    Rect<M0, M1>& r = out.mask.rect;
    broadcastBounds(Shape<M0, M1>::rows, r.rowLo, r.rowHi);
    broadcastBounds(Shape<M0, M1>::cols, r.colLo, r.colHi);
    out.contiguous = (Sh::cols == 1 || p.colStep == 1) && r.rowLo <= 0 && r.rowHi >= Sh::rows &&
                     r.colLo <= 0 && r.colHi >= Sh::cols;
  }
  return out;
}
} // namespace detail

// A load without a mask reads every lane.
template <class T, int D0, int D1>
  requires std::is_const_v<T>
TL_INLINE auto load(Ptr<T, D0, D1> p) {
  return detail::view(p, LinMask<D0, D1>{}, 0);
}
template <class T, int D0, int D1>
TL_INLINE Block<std::remove_const_t<T>, D0, D1> load(Ptr<T, D0, D1> p) {
  using U = std::remove_const_t<T>;
  using Sh = Shape<D0, D1>;
  Block<U, D0, D1> out;
  for (int i = 0; i < Sh::rows; ++i)
    detail::loadRow<T, U, Sh::cols>(out.v + i * Sh::cols, p.base + p.row[i], p.colStep, 0, Sh::cols,
                                    U(0));
  return out;
}

// load(ptr, mask, other): masked-off lanes are `other` (0 when not given).
template <class T, int D0, int D1, int M0, int M1, class O = int>
  requires std::is_const_v<T>
TL_INLINE auto load(Ptr<T, D0, D1> p, LinMask<M0, M1> mask, O other = 0) {
  return detail::view(p, mask, other);
}
template <class T, int D0, int D1, int M0, int M1, class O = int>
TL_INLINE Block<std::remove_const_t<T>, D0, D1> load(Ptr<T, D0, D1> p, LinMask<M0, M1> mask,
                                                     O other = 0) {
  using U = std::remove_const_t<T>;
  using Sh = Shape<D0, D1>;
  Block<U, D0, D1> out;
  const U fill = static_cast<U>(other);
  if (!mask.structured) {
    for (int i = 0; i < Sh::rows; ++i)
      for (int j = 0; j < Sh::cols; ++j)
        out.v[i * Sh::cols + j] =
            detail::get(mask.lanes, i, j) ? static_cast<U>(*p.address(i, j)) : fill;
    return out;
  }
  Rect<M0, M1> r = mask.rect;
  detail::broadcastBounds(Shape<M0, M1>::rows, r.rowLo, r.rowHi);
  detail::broadcastBounds(Shape<M0, M1>::cols, r.colLo, r.colHi);
  for (int i = 0; i < Sh::rows; ++i) {
    const bool rowOn = i >= r.rowLo && i < r.rowHi;
    detail::loadRow<T, U, Sh::cols>(out.v + i * Sh::cols, p.base + p.row[i], p.colStep,
                                    rowOn ? r.colLo : 0, rowOn ? r.colHi : 0, fill);
  }
  return out;
}

// Any other mask block over a structured pointer.
template <class T, int D0, int D1, Tensor M, class O = int>
TL_INLINE Block<std::remove_const_t<T>, D0, D1> load(Ptr<T, D0, D1> p, const M& mask, O other = 0) {
  using U = std::remove_const_t<T>;
  using Sh = Shape<D0, D1>;
  Block<U, D0, D1> out;
  const U fill = static_cast<U>(other);
  for (int i = 0; i < Sh::rows; ++i)
    for (int j = 0; j < Sh::cols; ++j)
      out.v[i * Sh::cols + j] = detail::get(mask, i, j) ? static_cast<U>(*p.address(i, j)) : fill;
  return out;
}

// Gathers through a block of pointers.
template <class T, int D0, int D1>
TL_INLINE Block<std::remove_const_t<T>, D0, D1> load(const Block<T*, D0, D1>& p) {
  Block<std::remove_const_t<T>, D0, D1> out;
  for (int k = 0; k < Block<T*, D0, D1>::size; ++k)
    out.v[k] = *p.v[k];
  return out;
}
template <class T, int D0, int D1, Tensor M, class O = int>
TL_INLINE Block<std::remove_const_t<T>, D0, D1> load(const Block<T*, D0, D1>& p, const M& mask,
                                                     O other = 0) {
  using U = std::remove_const_t<T>;
  const auto& m = eval(mask);
  Block<U, D0, D1> out;
  const U fill = static_cast<U>(other);
  for (int i = 0; i < Shape<D0, D1>::rows; ++i)
    for (int j = 0; j < Shape<D0, D1>::cols; ++j) {
      const int k = i * Shape<D0, D1>::cols + j;
      out.v[k] = detail::get(m, i, j) ? static_cast<U>(*p.v[k]) : fill;
    }
  return out;
}

// Pointers computed elementwise (an expression, not an affine index): a block of pointers
// first, then a gather, as Triton does for pointers it cannot prove contiguous.
template <class F, class... Ops>
  requires std::is_pointer_v<typename Expr<F, Ops...>::value_type>
TL_INLINE auto load(const Expr<F, Ops...>& p) {
  return load(p.eval());
}
template <class F, class... Ops, Tensor M, class O = int>
  requires std::is_pointer_v<typename Expr<F, Ops...>::value_type>
TL_INLINE auto load(const Expr<F, Ops...>& p, const M& mask, O other = 0) {
  return load(p.eval(), mask, other);
}

// PtrCols: the Ptr path where the columns are contiguous, else gathers (see PtrCols).
template <class T, int D0, int D1, class... MaskAndOther>
TL_INLINE Block<std::remove_const_t<T>, D0, D1> load(const PtrCols<T, D0, D1>& p,
                                                     const MaskAndOther&... maskAndOther) {
  static_assert(sizeof...(MaskAndOther) <= 2, "load(pointer, mask, other)");
  Ptr<T, D0, D1> dense;
  if (p.dense(dense)) return load(dense, maskAndOther...);
  return load(p.eval(), maskAndOther...);
}

// Scalar pointers: tl.load(ptr) on a single address.
template <class T>
TL_INLINE std::remove_const_t<T> load(T* p) {
  return *p;
}

// store(ptr, value, mask): value is cast to the pointee type and broadcast;
// an expression is evaluated as it is stored.
template <class T, int D0, int D1, Operand V>
TL_INLINE void store(Ptr<T, D0, D1> p, const V& value) {
  using Sh = Shape<D0, D1>;
  detail::storeRect(p, value, 0, Sh::rows, 0, Sh::cols);
}

template <class T, int D0, int D1, Operand V, int M0, int M1>
TL_INLINE void store(Ptr<T, D0, D1> p, const V& value, LinMask<M0, M1> mask) {
  using Sh = Shape<D0, D1>;
  if (!mask.structured) {
    for (int i = 0; i < Sh::rows; ++i)
      for (int j = 0; j < Sh::cols; ++j)
        if (detail::get(mask.lanes, i, j))
          *p.address(i, j) = static_cast<T>(detail::get(value, i, j));
    return;
  }
  Rect<M0, M1> r = mask.rect;
  detail::broadcastBounds(Shape<M0, M1>::rows, r.rowLo, r.rowHi);
  detail::broadcastBounds(Shape<M0, M1>::cols, r.colLo, r.colHi);
  detail::storeRect(p, value, r.rowLo, r.rowHi, r.colLo, r.colHi);
}

// Any other mask over a structured pointer.
template <class T, int D0, int D1, Operand V, Tensor M>
TL_INLINE void store(Ptr<T, D0, D1> p, const V& value, const M& mask) {
  for (int i = 0; i < Shape<D0, D1>::rows; ++i)
    for (int j = 0; j < Shape<D0, D1>::cols; ++j)
      if (detail::get(mask, i, j)) *p.address(i, j) = static_cast<T>(detail::get(value, i, j));
}

// Scatters through a block of pointers.
template <class T, int D0, int D1, Operand V>
TL_INLINE void store(const Block<T*, D0, D1>& p, const V& value) {
  for (int i = 0; i < Shape<D0, D1>::rows; ++i)
    for (int j = 0; j < Shape<D0, D1>::cols; ++j)
      *p.v[i * Shape<D0, D1>::cols + j] = static_cast<T>(detail::get(value, i, j));
}
template <class T, int D0, int D1, Operand V, Tensor M>
TL_INLINE void store(const Block<T*, D0, D1>& p, const V& value, const M& mask) {
  for (int i = 0; i < Shape<D0, D1>::rows; ++i)
    for (int j = 0; j < Shape<D0, D1>::cols; ++j)
      if (detail::get(mask, i, j))
        *p.v[i * Shape<D0, D1>::cols + j] = static_cast<T>(detail::get(value, i, j));
}

template <class F, class... Ops, Operand V>
  requires std::is_pointer_v<typename Expr<F, Ops...>::value_type>
TL_INLINE void store(const Expr<F, Ops...>& p, const V& value) {
  store(p.eval(), value);
}
template <class F, class... Ops, Operand V, Tensor M>
  requires std::is_pointer_v<typename Expr<F, Ops...>::value_type>
TL_INLINE void store(const Expr<F, Ops...>& p, const V& value, const M& mask) {
  store(p.eval(), value, mask);
}
template <class T, int D0, int D1, class V, class... Mask>
TL_INLINE void store(const PtrCols<T, D0, D1>& p, const V& value, const Mask&... mask) {
  static_assert(sizeof...(Mask) <= 1, "store(pointer, value, mask)");
  Ptr<T, D0, D1> dense;
  if (p.dense(dense))
    store(dense, value, mask...);
  else
    store(p.eval(), value, mask...);
}

// Scalar store.
template <class T, Scalar V>
TL_INLINE void store(T* p, V value) {
  *p = static_cast<T>(value);
}

} // namespace tcpu::tl

#endif
