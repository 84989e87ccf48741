// Reductions over an axis: sum, max, min, argmax, argmin, as triton.language.
// Sums and extrema along a row keep 16 partial results (one per lane of a
// 512-bit vector of fp32) and combine them at the end, so they vectorize on
// any target and give the same answer everywhere; Triton leaves the order
// unspecified, tl fixes it.
#ifndef TCPU_TL_REDUCE_H
#define TCPU_TL_REDUCE_H

#include "tcpu/tl/core.h"

namespace tcpu::tl {

namespace detail {

constexpr int kReduceLanes = 16;

// Triton's accumulation types: ints narrower than 32 bits sum in 32 bits;
// 16-bit floats reduce in fp32.
template <class T>
using sum_t = std::conditional_t<std::is_integral_v<T> && (sizeof(T) < 4), int32_t, compute_t<T>>;

struct SumOp {
  template <class A>
  static TL_INLINE A identity() {
    return A(0);
  }
  template <class A>
  static TL_INLINE A combine(A a, A b) {
    return a + b;
  }
};
struct MaxOp {
  template <class A>
  static TL_INLINE A identity() {
    if constexpr (std::is_floating_point_v<A>)
      return -std::numeric_limits<A>::infinity();
    else
      return std::numeric_limits<A>::lowest();
  }
  template <class A>
  static TL_INLINE A combine(A a, A b) {
    return maxOf(a, b, PropagateNan::none);
  }
};
struct MinOp {
  template <class A>
  static TL_INLINE A identity() {
    if constexpr (std::is_floating_point_v<A>)
      return std::numeric_limits<A>::infinity();
    else
      return std::numeric_limits<A>::max();
  }
  template <class A>
  static TL_INLINE A combine(A a, A b) {
    return minOf(a, b, PropagateNan::none);
  }
};

// Bitwise reductions of integers (and bools), in the element type, as Triton's xor_sum,
// reduce_or and reduce_and. Bitwise results do not depend on the order.
struct XorOp {
  template <class A>
  static TL_INLINE A identity() {
    return A(0);
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
  static TL_INLINE A combine(A a, A b) {
    return static_cast<A>(a & b);
  }
};

// Reduces the N values x(0) .. x(N - 1) with kReduceLanes partials.
template <class Op, class A, int N, class X>
TL_INLINE A reduceRow(X x) {
  if constexpr (N < kReduceLanes) {
    A acc = Op::template identity<A>();
    for (int j = 0; j < N; ++j)
      acc = Op::combine(acc, static_cast<A>(x(j)));
    return acc;
  } else {
    A lanes[kReduceLanes];
    for (int l = 0; l < kReduceLanes; ++l)
      lanes[l] = static_cast<A>(x(l));
    for (int j = kReduceLanes; j + kReduceLanes <= N; j += kReduceLanes)
      for (int l = 0; l < kReduceLanes; ++l)
        lanes[l] = Op::combine(lanes[l], static_cast<A>(x(j + l)));
    for (int width = kReduceLanes / 2; width > 0; width /= 2)
      for (int l = 0; l < width; ++l)
        lanes[l] = Op::combine(lanes[l], lanes[l + width]);
    A acc = lanes[0];
    for (int j = N - N % kReduceLanes; j < N; ++j)
      acc = Op::combine(acc, static_cast<A>(x(j)));
    return acc;
  }
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
    Block<A, S::rows> out;
    for (int i = 0; i < S::rows; ++i)
      out.v[i] = reduceRow<Op, A, S::cols>([&](int j) { return get<Dense>(x, i, j); });
    return out;
  } else {
    static_assert(Axis == 0, "reduction axis is 0 or 1");
    Block<A, S::cols> out;
    for (int j = 0; j < S::cols; ++j)
      out.v[j] = static_cast<A>(get<Dense>(x, 0, j));
    for (int i = 1; i < S::rows; ++i)
      for (int j = 0; j < S::cols; ++j)
        out.v[j] = Op::combine(out.v[j], static_cast<A>(get<Dense>(x, i, j)));
    return out;
  }
}

template <class Op, class A, int Axis, class X>
TL_INLINE auto reduce(const X& x) {
  if (dense(x)) return reduceDense<Op, A, Axis, true>(x);
  // Masked lanes are evaluated into a block first: that loop vectorizes (masked vector loads),
  // while reading them lane by lane inside the reduction leaves a branch per lane. The values
  // and the order they are combined in are the same either way.
  return reduceDense<Op, A, Axis, true>(eval(x));
}

// argmax/argmin along a row: first index of the extreme; a NaN counts as
// greater than everything for argmax and smaller for argmin, as Triton's
// combine functions treat `a != a`.
template <bool Max, class T, int N>
TL_INLINE int32_t argRow(const T* x, int64_t stride) {
  using C = compute_t<T>;
  C best = static_cast<C>(x[0]);
  int32_t index = 0;
  for (int j = 1; j < N; ++j) {
    const C e = static_cast<C>(x[j * stride]);
    bool better;
    if constexpr (std::is_floating_point_v<C>)
      better = best == best && (e != e || (Max ? e > best : e < best));
    else
      better = Max ? e > best : e < best;
    if (better) best = e, index = j;
  }
  return index;
}

template <bool Max, int Axis, class X>
TL_INLINE auto argReduce(const X& x) {
  const auto& b = eval(x);
  using B = std::remove_cvref_t<decltype(b)>;
  using T = element_t<B>;
  if constexpr (B::rank == 1) {
    return argRow<Max, T, B::cols>(b.v, 1);
  } else if constexpr (Axis == 1) {
    Block<int32_t, B::rows> out;
    for (int i = 0; i < B::rows; ++i)
      out.v[i] = argRow<Max, T, B::cols>(b.v + i * B::cols, 1);
    return out;
  } else {
    static_assert(Axis == 0, "argmax/argmin of a 2-D block needs axis 0 or 1");
    Block<int32_t, B::cols> out;
    for (int j = 0; j < B::cols; ++j)
      out.v[j] = argRow<Max, T, B::rows>(b.v + j, B::cols);
    return out;
  }
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

template <int Axis = 0, Tensor X>
TL_INLINE auto argmax(const X& x) {
  return detail::argReduce<true, Axis>(x);
}
template <int Axis = 0, Tensor X>
TL_INLINE auto argmin(const X& x) {
  return detail::argReduce<false, Axis>(x);
}

// trans(x): the transpose of a 2-D block.
template <class T, int M, int N>
TL_INLINE Block<T, N, M> trans(const Block<T, M, N>& x) {
  Block<T, N, M> out;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      out.v[j * M + i] = x.v[i * N + j];
  return out;
}

template <Tensor X>
  requires(!is_block_v<X>)
TL_INLINE auto trans(const X& x) {
  return trans(x.eval());
}

} // namespace tcpu::tl

#endif
