// Blocks of rank 3 and more for the Python front end. Triton's [D0, ..., Dn-1] is held as tl's
// rank-2 block [D0 * ... * Dn-2, Dn-1]: the same elements in the same row-major order.
// Elementwise operations, loads, stores, casts, reshapes, reductions, scans and sorts along the
// last dimension, and operands that broadcast only along it, act on that form unchanged. What
// needs the leading dimensions apart is here, for any rank: broadcasting across them,
// permutations, the batched dot and block pointers (tl.make_block_ptr and tensor descriptors).
// (The front end keeps each value's Triton shape, so it knows when to call these.)
#ifndef TCPU_TL_RANK_N_H
#define TCPU_TL_RANK_N_H

#include <array>
#include <concepts>
#include <utility>

#include "tcpu/tl/block_ptr.h"
#include "tcpu/tl/core.h"
#include "tcpu/tl/dot.h"

namespace tcpu::tl {

// A Triton shape (or a permutation) as a type: dims<2, 4, 8>.
template <int... D>
struct dims {
  static constexpr int rank = sizeof...(D);
  static constexpr std::array<int, rank> at{D...};
  static constexpr int size = (1 * ... * D);
};

// The tl block that holds a block of Triton shape S (rank 2 and more): [D0 * ... * Dn-2, Dn-1].
template <class T, class S>
using block_of_shape = Block<T, S::size / S::at[S::rank - 1], S::at[S::rank - 1]>;

namespace detail {

// The row-major strides of a shape.
template <std::size_t N>
constexpr std::array<int, N> rowMajorStrides(const std::array<int, N>& shape) {
  std::array<int, N> s{};
  int step = 1;
  for (std::size_t d = N; d-- > 0;) {
    s[d] = step;
    step *= shape[d];
  }
  return s;
}

// out[k] = in[i . Stride] for every index i of shape Extent (k its row-major position): the
// element moves of broadcasting (stride 0 along a dimension that grows) and permuting. Both
// positions are carried down the loops, as hand-written nested loops compute them.
template <auto Extent, auto Stride, std::size_t Dim = 0, class Out, class In>
TL_INLINE void gatherStrided(Out& out, const In& in, int k = 0, int from = 0) {
  if constexpr (Dim == Extent.size()) {
    out.v[k] = in.v[from];
  } else {
    for (int x = 0; x < Extent[Dim]; ++x)
      gatherStrided<Extent, Stride, Dim + 1>(out, in, k * Extent[Dim] + x, from + x * Stride[Dim]);
  }
}

// Whether each dimension of From is 1 or To's.
template <class To, class From>
constexpr bool broadcasts() {
  for (int d = 0; d < From::rank; ++d)
    if (From::at[d] != To::at[d] && From::at[d] != 1) return false;
  return true;
}

// From's strides with 0 along its size-1 dimensions: every index along one reads its element.
template <class From>
constexpr std::array<int, From::rank> broadcastStrides() {
  auto s = rowMajorStrides(From::at);
  for (int d = 0; d < From::rank; ++d)
    if (From::at[d] == 1) s[d] = 0;
  return s;
}

template <class Order>
constexpr bool isPermutation() {
  std::array<bool, Order::rank> seen{};
  for (int d = 0; d < Order::rank; ++d) {
    const int p = Order::at[d];
    if (p < 0 || p >= Order::rank || seen[p]) return false;
    seen[p] = true;
  }
  return true;
}

// The shape of From permuted by Order, and the stride in From of each of its dimensions.
template <class Order, class From>
constexpr std::array<std::array<int, From::rank>, 2> permuted() {
  const auto from = rowMajorStrides(From::at);
  std::array<std::array<int, From::rank>, 2> out{};
  for (int d = 0; d < From::rank; ++d) {
    out[0][d] = From::at[Order::at[d]];
    out[1][d] = from[Order::at[d]];
  }
  return out;
}

} // namespace detail

// broadcast_nd<dims<D...>, dims<S...>>(x): x, of Triton shape [S...] (held as any block of that
// many elements in row-major order, or a scalar), broadcast to [D...] (the same rank).
template <class To, class From, Operand X>
TL_INLINE auto broadcast_nd(const X& x) {
  static_assert(To::rank == From::rank, "broadcast_nd: pad the operand's shape to the rank");
  static_assert(detail::broadcasts<To, From>(), "broadcast_nd: only dimensions of size 1 grow");
  block_of_shape<element_t<X>, To> out;
  if constexpr (!Tensor<X>) {
    for (int k = 0; k < To::size; ++k)
      out.v[k] = x;
  } else {
    static_assert(shape_of<X>::rows * shape_of<X>::cols == From::size,
                  "broadcast_nd: the operand does not have the elements of its shape");
    const auto& b = eval(x);
    detail::gatherStrided<To::at, detail::broadcastStrides<From>()>(out, b);
  }
  return out;
}

// permute_nd<dims<P...>, dims<S...>>(x): x, of Triton shape [S...], with its dimensions in the
// order (P...), as tl.permute(x, (P...)).
template <class Order, class From, Tensor X>
TL_INLINE auto permute_nd(const X& x) {
  static_assert(Order::rank == From::rank && detail::isPermutation<Order>(),
                "permute_nd: the order must be a permutation of 0 .. rank-1");
  static_assert(shape_of<X>::rows * shape_of<X>::cols == From::size,
                "permute_nd: the operand does not have the elements of its shape");
  constexpr auto moved = detail::permuted<Order, From>();
  constexpr int cols = moved[0][From::rank - 1];
  const auto& b = eval(x);
  Block<element_t<X>, From::size / cols, cols> out;
  detail::gatherStrided<moved[0], moved[1]>(out, b);
  return out;
}

// dot3<B>(a, b, acc): Triton's batched tl.dot, [B, M, K] x [B, K, N] (+ [B, M, N]), held as
// [B * M, K] x [B * K, N]: tl::dot on each of the B pairs of matrices, with its types and rules.
// More batch dimensions are one of B = their product (Triton's tl.dot reshapes them so).
template <int B, Tensor X, Tensor Y, Tensor Z>
TL_INLINE auto dot3(const X& a, const Y& b, const Z& acc) {
  using SA = shape_of<X>;
  using SB = shape_of<Y>;
  static_assert(SA::rows % B == 0 && SB::rows % B == 0, "dot3: B does not divide the rows");
  constexpr int M = SA::rows / B, K = SA::cols, N = SB::cols;
  static_assert(SB::rows / B == K, "dot3: [B, M, K] x [B, K, N]");
  static_assert(shape_of<Z>::rows == B * M && shape_of<Z>::cols == N,
                "dot3: the accumulator is [B, M, N]");
  const auto& ea = eval(a);
  const auto& eb = eval(b);
  const auto& ec = eval(acc);
  using R = evaluated_t<decltype(dot(Block<element_t<X>, M, K>{}, Block<element_t<Y>, K, N>{},
                                     Block<element_t<Z>, M, N>{}))>;
  Block<element_t<R>, B * M, N> out;
  for (int p = 0; p < B; ++p) {
    Block<element_t<X>, M, K> ap;
    Block<element_t<Y>, K, N> bp;
    Block<element_t<Z>, M, N> cp;
    for (int k = 0; k < M * K; ++k)
      ap.v[k] = ea.v[p * M * K + k];
    for (int k = 0; k < K * N; ++k)
      bp.v[k] = eb.v[p * K * N + k];
    for (int k = 0; k < M * N; ++k)
      cp.v[k] = ec.v[p * M * N + k];
    const R r = dot(ap, bp, cp);
    for (int k = 0; k < M * N; ++k)
      out.v[p * M * N + k] = r.v[k];
  }
  return out;
}

template <int B, Tensor X, Tensor Y>
TL_INLINE auto dot3(const X& a, const Y& b) {
  return dot3<B>(a, b,
                 zeros<detail::dot_acc_t<element_t<X>>, shape_of<X>::rows, shape_of<Y>::cols>());
}

// A block pointer of rank 3 or more (block_ptr.h's rules): lane (i0, ..., in-1) addresses
// base + (o0 + i0) * s0 + ... + (on-1 + in-1) * sn-1; its loads give the tl form
// [D0 * ... * Dn-2, Dn-1].
template <class T, int... D>
struct BlockPtrN {
  using shape = tl::dims<D...>;
  static constexpr int rank = shape::rank;
  // The tl form of its blocks: [D0 * ... * Dn-2, Dn-1].
  static constexpr int rows = shape::size / shape::at[rank - 1], cols = shape::at[rank - 1];
  T* base;
  std::array<int64_t, rank> dims; // the parent tensor's shape
  std::array<int64_t, rank> strides;
  std::array<int32_t, rank> offsets;
};

template <int... D, class T>
TL_INLINE BlockPtrN<T, D...> make_block_ptr_nd(T* base, std::array<int64_t, sizeof...(D)> shape,
                                               std::array<int64_t, sizeof...(D)> strides,
                                               std::array<int32_t, sizeof...(D)> offsets) {
  static_assert(sizeof...(D) >= 3, "make_block_ptr_nd: ranks 1 and 2 are make_block_ptr's");
  return {base, shape, strides, offsets};
}

template <class T, int... D, std::integral... O>
  requires(sizeof...(O) == sizeof...(D))
TL_INLINE BlockPtrN<T, D...> advance(BlockPtrN<T, D...> p, O... by) {
  detail::advanceOffsets(p.offsets, by...);
  return p;
}

namespace detail {

// The row offsets of a block pointer's lanes: for row (i0, ..., in-2) of the tl form,
// sum (od + id) * sd over the leading dimensions, carried down one loop per dimension.
template <std::size_t Dim = 0, class T, int... D, class Lanes>
TL_INLINE void rowOffsets(const BlockPtrN<T, D...>& p, Lanes& out, int64_t column0, int row = 0,
                          int64_t at = 0) {
  using S = tl::dims<D...>;
  if constexpr (Dim + 1 == S::rank) {
    out.row[row] = at + column0;
  } else {
    constexpr int size = S::at[Dim];
    for (int i = 0; i < size; ++i)
      rowOffsets<Dim + 1>(p, out, column0, row * size + i,
                          at + (static_cast<int64_t>(p.offsets[Dim]) + i) * p.strides[Dim]);
  }
}

// The leading dimensions of a block pointer's shape: those its tl form's rows run over.
template <class P>
inline constexpr auto leadingDims = [] {
  std::array<int, P::rank - 1> lead{};
  for (int d = 0; d + 1 < P::rank; ++d)
    lead[d] = P::shape::at[d];
  return lead;
}();

// Row k's index along leading dimension Lead of a block pointer P's tl form.
template <class P, std::size_t Lead>
TL_INLINE int rowIndex(int k) {
  constexpr int step = rowMajorStrides(leadingDims<P>)[Lead], size = P::shape::at[Lead];
  if constexpr (Lead == 0)
    return k / step;
  else if constexpr (step == 1)
    return k % size;
  else
    return k / step % size;
}

// Row r = (i0, ..., in-2) of the tl form starts at sum (od + id) * sd + on-1 * sn-1 and steps
// by sn-1.
template <class T, int... D>
TL_INLINE Ptr<T, BlockPtrN<T, D...>::rows, BlockPtrN<T, D...>::cols>
blockLanes(const BlockPtrN<T, D...>& p) {
  using P = BlockPtrN<T, D...>;
  Ptr<T, P::rows, P::cols> out;
  out.base = p.base;
  const int64_t column0 = static_cast<int64_t>(p.offsets[P::rank - 1]) * p.strides[P::rank - 1];
  rowOffsets(p, out, column0);
  out.colStep = p.strides[P::rank - 1];
  return out;
}

// The lanes inside the parent tensor along the checked dimensions (bit d: dimension d). The
// last dimension is a column range; the rows that pass the other checks are a row range when
// they are contiguous (a rectangle, as block_ptr.h's), else each lane is listed. Lead is
// 0 .. rank-2, so that each row's check is one && over them. (The return types of these
// helpers are spelled out and their loops written without lambdas around `inside`: either
// changes LLVM's inlining and the code of rank 3's block pointers.)
template <class T, int... D, std::size_t... Lead>
TL_INLINE LinMask<BlockPtrN<T, D...>::rows, BlockPtrN<T, D...>::cols>
blockBounds(const BlockPtrN<T, D...>& p, int check, std::index_sequence<Lead...>) {
  using P = BlockPtrN<T, D...>;
  using B = block_of_shape<T, typename P::shape>;
  constexpr int last = P::rank - 1;
  LinMask<B::rows, B::cols> mask;
  Rect<B::rows, B::cols>& r = mask.rect;
  if (check & (1 << last))
    r.colLo = -static_cast<int64_t>(p.offsets[last]), r.colHi = p.dims[last] - p.offsets[last];
  bool rowOk[B::rows];
  int first = B::rows, lastRow = -1, count = 0;
  auto inside = [&](int d, int i) {
    return !(check & (1 << d)) ||
           (static_cast<int64_t>(p.offsets[d]) + i >= 0 && p.offsets[d] + i < p.dims[d]);
  };
  for (int k = 0; k < B::rows; ++k) {
    rowOk[k] = (inside(Lead, rowIndex<P, Lead>(k)) && ...);
    if (rowOk[k]) first = first < k ? first : k, lastRow = k, ++count;
  }
  if (count == 0 || lastRow - first + 1 == count) { // none, or one run of rows
    r.rowLo = count == 0 ? 0 : first;
    r.rowHi = count == 0 ? 0 : lastRow + 1;
    return mask;
  }
  mask.structured = false;
  for (int k = 0; k < B::rows; ++k)
    for (int j = 0; j < B::cols; ++j)
      mask.lanes.v[k * B::cols + j] = rowOk[k] && j >= r.colLo && j < r.colHi;
  return mask;
}

} // namespace detail

template <class T, int... D>
TL_INLINE auto load(const BlockPtrN<T, D...>& p, int boundaryCheck = 0,
                    Padding padding = Padding::zero) {
  return load(detail::blockLanes(p),
              detail::blockBounds(p, boundaryCheck, std::make_index_sequence<sizeof...(D) - 1>()),
              detail::paddingValue<std::remove_const_t<T>>(padding));
}

template <class T, int... D, Operand V>
TL_INLINE void store(const BlockPtrN<T, D...>& p, const V& value, int boundaryCheck = 0) {
  store(detail::blockLanes(p), value,
        detail::blockBounds(p, boundaryCheck, std::make_index_sequence<sizeof...(D) - 1>()));
}

} // namespace tcpu::tl

#endif
