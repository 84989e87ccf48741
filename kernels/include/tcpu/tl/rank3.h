// Blocks of rank 3 for the Python front end. Triton's [D0, D1, D2] is held as tl's rank-2 block
// [D0 * D1, D2]: the same elements in the same row-major order. Elementwise operations, loads,
// stores, casts, reshapes, reductions, scans and sorts along the last dimension, and operands
// that broadcast only along it, act on that form unchanged. What needs the first two
// dimensions apart is here: broadcasting across them, permutations, the batched dot and block
// pointers of rank 3 (tl.make_block_ptr and tensor descriptors).
// (The front end keeps each value's Triton shape, so it knows when to call these.)
#ifndef TCPU_TL_RANK3_H
#define TCPU_TL_RANK3_H

#include "tcpu/tl/block_ptr.h"
#include "tcpu/tl/core.h"
#include "tcpu/tl/dot.h"

namespace tcpu::tl {

// broadcast3<D0, D1, D2, S0, S1, S2>(x): x, of Triton shape [S0, S1, S2] (held as any block of
// S0 * S1 * S2 elements in row-major order, or a scalar), broadcast to [D0, D1, D2].
template <int D0, int D1, int D2, int S0, int S1, int S2, Operand X>
TL_INLINE Block<element_t<X>, D0 * D1, D2> broadcast3(const X& x) {
  static_assert((S0 == 1 || S0 == D0) && (S1 == 1 || S1 == D1) && (S2 == 1 || S2 == D2),
                "broadcast3: only dimensions of size 1 grow");
  Block<element_t<X>, D0 * D1, D2> out;
  if constexpr (!Tensor<X>) {
    for (int k = 0; k < D0 * D1 * D2; ++k)
      out.v[k] = x;
  } else {
    static_assert(shape_of<X>::rows * shape_of<X>::cols == S0 * S1 * S2,
                  "broadcast3: the operand does not have S0 * S1 * S2 elements");
    const auto& b = eval(x);
    // A size-1 dimension has stride 0: every index along it reads its one element.
    constexpr int s0 = S0 == 1 ? 0 : S1 * S2, s1 = S1 == 1 ? 0 : S2, s2 = S2 == 1 ? 0 : 1;
    for (int i0 = 0; i0 < D0; ++i0)
      for (int i1 = 0; i1 < D1; ++i1)
        for (int i2 = 0; i2 < D2; ++i2)
          out.v[(i0 * D1 + i1) * D2 + i2] = b.v[i0 * s0 + i1 * s1 + i2 * s2];
  }
  return out;
}

namespace detail {
template <int P, int S0, int S1, int S2>
inline constexpr int dim3 = P == 0 ? S0 : (P == 1 ? S1 : S2);
template <int P, int S0, int S1, int S2>
inline constexpr int stride3 = P == 0 ? S1 * S2 : (P == 1 ? S2 : 1);
} // namespace detail

// permute3<P0, P1, P2, S0, S1, S2>(x): x, of Triton shape [S0, S1, S2], with its dimensions in
// the order (P0, P1, P2), as tl.permute(x, (P0, P1, P2)).
template <int P0, int P1, int P2, int S0, int S1, int S2, Tensor X>
TL_INLINE auto permute3(const X& x) {
  static_assert(P0 != P1 && P1 != P2 && P0 != P2 && P0 >= 0 && P1 >= 0 && P2 >= 0 && P0 < 3 &&
                    P1 < 3 && P2 < 3,
                "permute3: (P0, P1, P2) must be a permutation of (0, 1, 2)");
  static_assert(shape_of<X>::rows * shape_of<X>::cols == S0 * S1 * S2,
                "permute3: the operand does not have S0 * S1 * S2 elements");
  constexpr int D0 = detail::dim3<P0, S0, S1, S2>, D1 = detail::dim3<P1, S0, S1, S2>,
                D2 = detail::dim3<P2, S0, S1, S2>;
  constexpr int t0 = detail::stride3<P0, S0, S1, S2>, t1 = detail::stride3<P1, S0, S1, S2>,
                t2 = detail::stride3<P2, S0, S1, S2>;
  const auto& b = eval(x);
  Block<element_t<X>, D0 * D1, D2> out;
  for (int i0 = 0; i0 < D0; ++i0)
    for (int i1 = 0; i1 < D1; ++i1)
      for (int i2 = 0; i2 < D2; ++i2)
        out.v[(i0 * D1 + i1) * D2 + i2] = b.v[i0 * t0 + i1 * t1 + i2 * t2];
  return out;
}

// dot3<B>(a, b, acc): Triton's batched tl.dot, [B, M, K] x [B, K, N] (+ [B, M, N]), held as
// [B * M, K] x [B * K, N]: tl::dot on each of the B pairs of matrices, with its types and rules.
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

// A block pointer of rank 3 (block_ptr.h's rules): lane (i0, i1, i2) addresses
// base + (o0 + i0) * s0 + (o1 + i1) * s1 + (o2 + i2) * s2; its loads give [D0 * D1, D2].
template <class T, int D0, int D1, int D2>
struct BlockPtr3 {
  T* base;
  std::array<int64_t, 3> dims; // the parent tensor's shape
  std::array<int64_t, 3> strides;
  std::array<int32_t, 3> offsets;
};

template <int D0, int D1, int D2, class T>
TL_INLINE BlockPtr3<T, D0, D1, D2> make_block_ptr3(T* base, std::array<int64_t, 3> shape,
                                                   std::array<int64_t, 3> strides,
                                                   std::array<int32_t, 3> offsets) {
  return {base, shape, strides, offsets};
}

template <class T, int D0, int D1, int D2, std::integral O0, std::integral O1, std::integral O2>
TL_INLINE BlockPtr3<T, D0, D1, D2> advance(BlockPtr3<T, D0, D1, D2> p, O0 a, O1 b, O2 c) {
  const int32_t by[] = {static_cast<int32_t>(a), static_cast<int32_t>(b), static_cast<int32_t>(c)};
  for (int d = 0; d < 3; ++d)
    p.offsets[d] = static_cast<int32_t>(static_cast<uint32_t>(p.offsets[d]) +
                                        static_cast<uint32_t>(by[d])); // wraps, as i32 adds do
  return p;
}

namespace detail {

// Row r = (i0, i1) of the [D0 * D1, D2] form starts at (o0 + i0) * s0 + (o1 + i1) * s1 +
// o2 * s2 and steps by s2.
template <class T, int D0, int D1, int D2>
TL_INLINE Ptr<T, D0 * D1, D2> blockLanes(const BlockPtr3<T, D0, D1, D2>& p) {
  Ptr<T, D0 * D1, D2> out;
  out.base = p.base;
  const int64_t column0 = static_cast<int64_t>(p.offsets[2]) * p.strides[2];
  for (int i0 = 0; i0 < D0; ++i0)
    for (int i1 = 0; i1 < D1; ++i1)
      out.row[i0 * D1 + i1] = (static_cast<int64_t>(p.offsets[0]) + i0) * p.strides[0] +
                              (static_cast<int64_t>(p.offsets[1]) + i1) * p.strides[1] + column0;
  out.colStep = p.strides[2];
  return out;
}

// The lanes inside the parent tensor along the checked dimensions (bit d: dimension d). The
// last dimension is a column range; the rows that pass the first two checks are a row range
// when they are contiguous (a rectangle, as block_ptr.h's), else each lane is listed.
template <class T, int D0, int D1, int D2>
TL_INLINE LinMask<D0 * D1, D2> blockBounds(const BlockPtr3<T, D0, D1, D2>& p, int check) {
  LinMask<D0 * D1, D2> mask;
  Rect<D0 * D1, D2>& r = mask.rect;
  auto inside = [&](int d, int i) {
    return !(check & (1 << d)) ||
           (static_cast<int64_t>(p.offsets[d]) + i >= 0 && p.offsets[d] + i < p.dims[d]);
  };
  if (check & 4) r.colLo = -static_cast<int64_t>(p.offsets[2]), r.colHi = p.dims[2] - p.offsets[2];
  bool rowOk[D0 * D1];
  int first = D0 * D1, last = -1, count = 0;
  for (int k = 0; k < D0 * D1; ++k) {
    rowOk[k] = inside(0, k / D1) && inside(1, k % D1);
    if (rowOk[k]) first = first < k ? first : k, last = k, ++count;
  }
  if (count == 0 || last - first + 1 == count) { // none, or one run of rows
    r.rowLo = count == 0 ? 0 : first;
    r.rowHi = count == 0 ? 0 : last + 1;
    return mask;
  }
  mask.structured = false;
  for (int k = 0; k < D0 * D1; ++k)
    for (int j = 0; j < D2; ++j)
      mask.lanes.v[k * D2 + j] = rowOk[k] && j >= r.colLo && j < r.colHi;
  return mask;
}

} // namespace detail

template <class T, int D0, int D1, int D2>
TL_INLINE auto load(const BlockPtr3<T, D0, D1, D2>& p, int boundaryCheck = 0,
                    Padding padding = Padding::zero) {
  return load(detail::blockLanes(p), detail::blockBounds(p, boundaryCheck),
              detail::paddingValue<std::remove_const_t<T>>(padding));
}

template <class T, int D0, int D1, int D2, Operand V>
TL_INLINE void store(const BlockPtr3<T, D0, D1, D2>& p, const V& value, int boundaryCheck = 0) {
  store(detail::blockLanes(p), value, detail::blockBounds(p, boundaryCheck));
}

} // namespace tcpu::tl

#endif
