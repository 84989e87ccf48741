// Shape manipulation, as triton.language: reshape/view/ravel, broadcast_to, permute, join/split,
// interleave, cat, flip and gather. Each returns a Block: the element order changes, so a lazy
// form would recompute index arithmetic at every use instead of once. Every loop has a constant
// trip count over the block, so the moves become vector loads, stores and shuffles.
#ifndef TCPU_TL_SHAPE_H
#define TCPU_TL_SHAPE_H

#include <utility>

#include "tcpu/tl/core.h"
#include "tcpu/tl/reduce.h"

namespace tcpu::tl {

namespace detail {

// The block of rank Rank with that many rows and columns (rank 1 uses only Cols).
template <class T, int Rows, int Cols, int Rank>
using rank_block_t = std::conditional_t<Rank == 2, Block<T, Rows, Cols>, Block<T, Cols>>;

// An axis as tl writes it, -1 being the last one (Python's negative axis).
template <int Rank, int Axis>
inline constexpr int normalized_axis = Axis < 0 ? Rank + Axis : Axis;

// The element type of an operation on two operands that must agree on it (join, interleave,
// cat): a scalar takes the block's type, as a Python number does in Triton.
template <class X, class Y>
struct agreed_element {
  static_assert(Tensor<X> || Tensor<Y> || std::is_same_v<X, Y>,
                "two scalars must have the same type");
  static_assert(!Tensor<X> || !Tensor<Y> || std::is_same_v<element_t<X>, element_t<Y>>,
                "both blocks must have the same element type (cast one with .to<T>())");
  using type = element_t<std::conditional_t<Tensor<X>, X, Y>>;
};

} // namespace detail

// reshape<D0, D1>(x): the same elements in row-major order, in a block of shape [D0, D1] (or
// [D0]). Triton's view and reshape(can_reorder=True) may reorder; tl never does.
template <int D0, int D1 = -1, Tensor X>
TL_INLINE Block<element_t<X>, D0, D1> reshape(const X& x) {
  using S = shape_of<X>;
  static_assert(Shape<D0, D1>::size == S::rows * S::cols,
                "reshape: the number of elements must not change");
  const auto& b = eval(x);
  Block<element_t<X>, D0, D1> out;
  for (int k = 0; k < Shape<D0, D1>::size; ++k)
    out.v[k] = b.v[k];
  return out;
}
template <int D0, int D1 = -1, Tensor X>
TL_INLINE Block<element_t<X>, D0, D1> view(const X& x) {
  return reshape<D0, D1>(x);
}
// ravel(x): a rank-1 block of every element, row-major.
template <Tensor X>
TL_INLINE auto ravel(const X& x) {
  return reshape<shape_of<X>::rows * shape_of<X>::cols>(x);
}

// broadcast_to<D0, D1>(x), numpy's rules: trailing dimensions align, and only dimensions of
// size 1 grow; a scalar fills the block.
template <int D0, int D1 = -1, Operand X>
TL_INLINE Block<element_t<X>, D0, D1> broadcast_to(const X& x) {
  using S = shape_of<X>;
  using R = Shape<D0, D1>;
  static_assert(S::rank <= R::rank, "broadcast_to: a block cannot lose a dimension");
  static_assert((S::rows == 1 || S::rows == R::rows) && (S::cols == 1 || S::cols == R::cols),
                "broadcast_to: only dimensions of size 1 grow");
  Block<element_t<X>, D0, D1> out;
  detail::assign(out, x); // reads (i, j) of x with its size-1 dimensions broadcast
  return out;
}

// permute<A0, A1>(x): the dimensions of a 2-D block in the order (A0, A1): <1, 0> is trans,
// <0, 1> a copy. permute<0>(x) of a 1-D block is a copy.
template <int A0, int A1 = -1, Tensor X>
TL_INLINE auto permute(const X& x) {
  if constexpr (shape_of<X>::rank == 1) {
    static_assert(A0 == 0 && A1 == -1, "permute of a 1-D block: permute<0>");
    return evaluated_t<X>(eval(x));
  } else {
    static_assert((A0 == 0 && A1 == 1) || (A0 == 1 && A1 == 0),
                  "permute of a 2-D block: <0, 1> or <1, 0>");
    if constexpr (A0 == 0)
      return evaluated_t<X>(eval(x));
    else
      return trans(x);
  }
}

// join(a, b): a new last dimension of size 2, a in lane 0: [N] and [N] give [N, 2] (after
// broadcasting a and b against each other); two scalars give [2]. tl blocks have at most two
// dimensions, so 2-D operands (Triton's [M, N, 2]) do not join.
template <Operand X, Operand Y>
TL_INLINE auto join(const X& a, const Y& b) {
  using T = typename detail::agreed_element<X, Y>::type;
  if constexpr (!Tensor<X> && !Tensor<Y>) {
    Block<T, 2> out;
    out.v[0] = a;
    out.v[1] = b;
    return out;
  } else {
    using S = typename detail::broadcast_block<T, X, Y>::type;
    static_assert(S::rank == 1, "join: tl blocks have at most 2 dimensions, so join takes 1-D "
                                "blocks (or scalars)");
    const auto& ea = eval(a);
    const auto& eb = eval(b);
    Block<T, S::cols, 2> out;
    for (int j = 0; j < S::cols; ++j) {
      out.v[2 * j] = static_cast<T>(detail::get(ea, 0, j));
      out.v[2 * j + 1] = static_cast<T>(detail::get(eb, 0, j));
    }
    return out;
  }
}

// split(x): the two halves of a last dimension of size 2, as a pair (`auto [a, b] =
// tl::split(x);`): [M, 2] gives two [M] blocks, [2] two scalars. The inverse of join.
template <Tensor X>
TL_INLINE auto split(const X& x) {
  using S = shape_of<X>;
  using T = element_t<X>;
  static_assert(S::cols == 2, "split: the last dimension must have size 2");
  const auto& b = eval(x);
  if constexpr (S::rank == 1) {
    return std::pair<T, T>(b.v[0], b.v[1]);
  } else {
    std::pair<Block<T, S::rows>, Block<T, S::rows>> out;
    for (int i = 0; i < S::rows; ++i) {
      out.first.v[i] = b.v[2 * i];
      out.second.v[i] = b.v[2 * i + 1];
    }
    return out;
  }
}

// interleave(a, b): a0 b0 a1 b1 ... along the last dimension: [N], [N] give [2N]; [M, N],
// [M, N] give [M, 2N] (a and b broadcast against each other first); two scalars give [2].
template <Operand X, Operand Y>
TL_INLINE auto interleave(const X& a, const Y& b) {
  using T = typename detail::agreed_element<X, Y>::type;
  if constexpr (!Tensor<X> && !Tensor<Y>) {
    return join(a, b);
  } else {
    using S = typename detail::broadcast_block<T, X, Y>::type;
    const auto& ea = eval(a);
    const auto& eb = eval(b);
    detail::rank_block_t<T, S::rows, 2 * S::cols, S::rank> out;
    for (int i = 0; i < S::rows; ++i)
      for (int j = 0; j < S::cols; ++j) {
        out.v[i * 2 * S::cols + 2 * j] = static_cast<T>(detail::get(ea, i, j));
        out.v[i * 2 * S::cols + 2 * j + 1] = static_cast<T>(detail::get(eb, i, j));
      }
    return out;
  }
}

// cat(a, b): b after a along dimension 0: [Na] and [Nb] give [Na + Nb]; [Ma, N] and [Mb, N]
// give [Ma + Mb, N]. Triton only has cat(can_reorder=True), which may reorder; tl keeps the
// order, which is one of the orders Triton allows.
template <Tensor X, Tensor Y>
TL_INLINE auto cat(const X& a, const Y& b) {
  using SA = shape_of<X>;
  using SB = shape_of<Y>;
  using T = typename detail::agreed_element<X, Y>::type;
  static_assert(SA::rank == SB::rank, "cat: both blocks must have the same rank");
  static_assert(SA::rank == 1 || SA::cols == SB::cols,
                "cat: 2-D blocks must have the same number of columns");
  constexpr int sizeA = SA::rows * SA::cols, sizeB = SB::rows * SB::cols;
  const auto& ea = eval(a);
  const auto& eb = eval(b);
  // Rows of a, then rows of b: in row-major order, b's elements follow a's.
  using R = std::conditional_t<SA::rank == 2, Block<T, SA::rows + SB::rows, SA::cols>,
                               Block<T, sizeA + sizeB>>;
  R out;
  for (int k = 0; k < sizeA; ++k)
    out.v[k] = ea.v[k];
  for (int k = 0; k < sizeB; ++k)
    out.v[sizeA + k] = eb.v[k];
  return out;
}

// flip<Axis>(x): the elements in reverse order along Axis (-1, the default, is the last
// dimension, as Triton's dim=None).
template <int Axis = -1, Tensor X>
TL_INLINE auto flip(const X& x) {
  using B = evaluated_t<X>;
  constexpr int axis = detail::normalized_axis<B::rank, Axis>;
  static_assert(axis >= 0 && axis < B::rank, "flip: no such axis");
  constexpr bool alongRows = B::rank == 1 || axis == 1; // reverse within each row
  const auto& b = eval(x);
  B out;
  for (int i = 0; i < B::rows; ++i)
    for (int j = 0; j < B::cols; ++j)
      out.v[i * B::cols + j] =
          alongRows ? b.v[i * B::cols + (B::cols - 1 - j)] : b.v[(B::rows - 1 - i) * B::cols + j];
  return out;
}

namespace detail {
// An index clamped to [0, n): Triton leaves an out-of-range gather index undefined; clamping
// keeps the read inside the block for the price of a min and a max.
template <int N, class I>
TL_INLINE int clampIndex(I index) {
  const int64_t i = static_cast<int64_t>(index);
  return static_cast<int>(i < 0 ? 0 : (i > N - 1 ? N - 1 : i));
}
} // namespace detail

// gather<Axis>(src, index), as tl.gather: out has index's shape, and out[i][j] =
// src[index[i][j]][j] for Axis 0, src[i][index[i][j]] for Axis 1 (out[i] = src[index[i]] for
// 1-D). index must match src in the other dimension. An index outside src reads the nearest
// element (Triton leaves it undefined).
template <int Axis, Tensor X, Tensor I>
TL_INLINE auto gather(const X& src, const I& index) {
  using S = shape_of<X>;
  using SI = shape_of<I>;
  using T = element_t<X>;
  constexpr int axis = detail::normalized_axis<S::rank, Axis>;
  static_assert(std::is_integral_v<element_t<I>>, "gather: index must hold integers");
  static_assert(S::rank == SI::rank, "gather: index must have src's rank");
  static_assert(axis >= 0 && axis < S::rank, "gather: no such axis");
  static_assert(S::rank == 1 || (axis == 0 ? SI::cols == S::cols : SI::rows == S::rows),
                "gather: index must match src in the dimension that is not gathered");
  const auto& s = eval(src);
  const auto& idx = eval(index);
  detail::rank_block_t<T, SI::rows, SI::cols, SI::rank> out;
  for (int i = 0; i < SI::rows; ++i)
    for (int j = 0; j < SI::cols; ++j) {
      const auto k = idx.v[i * SI::cols + j];
      if constexpr (S::rank == 1 || axis == 1)
        out.v[i * SI::cols + j] = s.v[i * S::cols + detail::clampIndex<S::cols>(k)];
      else
        out.v[i * SI::cols + j] = s.v[detail::clampIndex<S::rows>(k) * S::cols + j];
    }
  return out;
}

} // namespace tcpu::tl

#endif
