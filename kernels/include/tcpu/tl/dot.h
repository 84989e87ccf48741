// dot(a, b, acc): block matrix product with fp32 accumulation for fp32, fp16
// and bf16 inputs (int8 accumulates in int32), as tl.dot with
// input_precision="ieee": every product is exact in the accumulator type, and
// only the summation order differs from a GPU's.
#ifndef TCPU_TL_DOT_H
#define TCPU_TL_DOT_H

#include "tcpu/tl/core.h"

namespace tcpu::tl {

namespace detail {

template <class T>
using dot_acc_t = std::conditional_t<std::is_integral_v<T>, int32_t, float>;

// Register tile of the product: kTileRows rows of acc by Cols columns, accumulated over all
// of K before being written back, each element in k order (so results do not depend on the
// tile). 4 x 16 fp32 is 8 AVX2 registers (or 4 AVX-512 ones) of accumulators, small enough
// for any x86-64 or AArch64 target to keep in registers. Where the target prefers 512-bit
// vectors (32 of them), 4 x 32 keeps 8 in flight, which two FMA pipes of 4 cycles' latency
// need; 4 x 16 would leave half of them idle.
constexpr int kTileRows = 4;
constexpr int kTileCols = 16;
constexpr int kWideTileCols = 32;
// The tile a product of M rows and N columns uses: whole tiles where they divide it, else one
// row, or all N columns, at a time.
template <int M>
constexpr int kRowsPerTile = M % kTileRows == 0 ? kTileRows : 1;
template <int N, int Cols>
constexpr int kColsPerTile = N % Cols == 0 ? Cols : N;

template <class A, int M, int K, int N, int Cols>
TL_INLINE void dotTile(const A* a, const A* b, const A* acc, A* c, int i0, int j0) {
  constexpr int R = kRowsPerTile<M>;
  constexpr int C = kColsPerTile<N, Cols>;
  A tile[R][C];
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < C; ++s)
      tile[r][s] = acc[(i0 + r) * N + j0 + s];
  for (int k = 0; k < K; ++k) {
    const A* brow = b + k * N + j0;
    for (int r = 0; r < R; ++r) {
      const A av = a[(i0 + r) * K + k];
      for (int s = 0; s < C; ++s)
        tile[r][s] += av * brow[s];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < C; ++s)
      c[(i0 + r) * N + j0 + s] = tile[r][s];
}

// c = acc + a x b over tiles of R x Cols (each tile reads acc and writes c once).
template <class A, int M, int K, int N, int Cols>
TL_INLINE void dotTiles(const A* a, const A* b, const A* acc, A* c) {
  for (int i0 = 0; i0 < M; i0 += kRowsPerTile<M>)
    for (int j0 = 0; j0 < N; j0 += kColsPerTile<N, Cols>)
      dotTile<A, M, K, N, Cols>(a, b, acc, c, i0, j0);
}

} // namespace detail

namespace detail {
// An operand of dot as a block of the accumulation type: a block of that
// type is used in place; anything else (another dtype, a lazy load) is read
// and widened once per call (M*K + K*N conversions against M*N*K
// multiply-adds), so the inner loop is all accumulator-type arithmetic.
template <class A, class X>
TL_INLINE decltype(auto) widened(const X& x) {
  using B = evaluated_t<X>;
  if constexpr (is_block_v<X> && std::is_same_v<element_t<X>, A>)
    return (x);
  else
    return Block<A, B::rows, B::cols>(cast<A>(x));
}
} // namespace detail

template <Tensor X, Tensor Y, Tensor Z>
TL_INLINE auto dot(const X& a, const Y& b, const Z& acc) {
  using SA = shape_of<X>;
  using SB = shape_of<Y>;
  constexpr int M = SA::rows, K = SA::cols, N = SB::cols;
  static_assert(SA::rank == 2 && SB::rank == 2 && SB::rows == K, "dot: [M, K] x [K, N]");
  static_assert(shape_of<Z>::rank == 2 && shape_of<Z>::rows == M && shape_of<Z>::cols == N,
                "dot: the accumulator is [M, N]");
  using A = detail::dot_acc_t<element_t<X>>;
  using Acc = element_t<Z>;
  static_assert(std::is_same_v<Acc, A>, "dot accumulates fp32 (int32 for integer inputs)");
  const auto& wa = detail::widened<A>(a);
  const auto& wb = detail::widened<A>(b);
  const auto& in = detail::widened<A>(acc);
  Block<Acc, M, N> out;
  // The choice folds away: codegen makes the width a constant.
  if (platform::targetVectorBits() >= 512 && N % detail::kWideTileCols == 0)
    detail::dotTiles<A, M, K, N, detail::kWideTileCols>(wa.v, wb.v, in.v, out.v);
  else
    detail::dotTiles<A, M, K, N, detail::kTileCols>(wa.v, wb.v, in.v, out.v);
  return out;
}

template <Tensor X, Tensor Y>
TL_INLINE auto dot(const X& a, const Y& b) {
  return dot(a, b, zeros<detail::dot_acc_t<element_t<X>>, shape_of<X>::rows, shape_of<Y>::cols>());
}

} // namespace tcpu::tl

#endif
