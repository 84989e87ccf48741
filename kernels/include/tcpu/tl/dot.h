// dot(a, b, acc): block matrix product as tl.dot with input_precision="ieee":
// fp32, fp16 and bf16 inputs accumulate in fp32, int8 in int32, fp64 in fp64,
// and every product is exact in the accumulator type, so only the summation
// order can differ from a GPU's (here: k order, for every element; bf16 on a
// target with AVX512-BF16 swaps the two products of each pair, dot_bf16.h).
//
// Result types follow Triton's tl.dot: the accumulator's type, or for
// dot_out<OutT>(a, b) (tl.dot(a, b, out_dtype=OutT)) int32 for integer inputs,
// fp64 for fp64, fp16 for fp16 inputs with out_dtype fp16, else fp32. A GPU
// accumulates fp16 x fp16 with an fp16 accumulator (or out_dtype fp16) in fp16
// MMA; here the sum is fp32 and is rounded to fp16 once at the end, which is at
// least as accurate. Triton asks M, N, K >= 16; any sizes work here.
#ifndef TCPU_TL_DOT_H
#define TCPU_TL_DOT_H

#include "tcpu/tl/core.h"
#include "tcpu/tl/dot_bf16.h"
#include "tcpu/tl/memory.h"

namespace tcpu::tl {

namespace detail {

template <class T>
using dot_acc_t = std::conditional_t<std::is_integral_v<T>, int32_t,
                                     std::conditional_t<std::is_same_v<T, double>, double, float>>;

// tl.dot's result type for inputs of type T and out_dtype OutT: out_dtype decides only for fp16
// inputs (fp16 or fp32); Triton refuses out_dtype=bfloat16.
template <class T, class OutT>
using dot_out_t = std::conditional_t<std::is_same_v<T, _Float16> && std::is_same_v<OutT, _Float16>,
                                     _Float16, dot_acc_t<T>>;

// Register tile of the product: up to kTileRows rows of acc by Cols columns, accumulated over
// all of K before being written back, each element in k order (so results do not depend on the
// tile). Cols is 16 fp32 (two AVX2 registers, four SSE or NEON ones), or 32 (64, below) where
// the target prefers 512-bit vectors. 6 rows of 16 are 12 AVX2 accumulators: with the two B vectors
// and an A broadcast, 15 of the 16 ymm registers, which is what two FMA pipes of 4 cycles' latency
// need (8 independent chains at least) with loads to spare: 6 broadcasts and 2 loads per 12
// FMAs. 4 rows ran about 8 % slower on Zen 3 in a stand-alone copy of the tutorial's loop
// nest; in the whole kernel the difference is within noise (bench/RESULTS.md, issue 19). The
// rows left over (M % 6: 4 of a block of 64) form one smaller tile.
constexpr int kTileRows = 6;
constexpr int kTileCols = 16;
constexpr int kWideTileCols = 32;
// Products at least 128 columns wide take tiles of 64 where the target prefers 512-bit vectors:
// 6 rows of 4 zmm are 24 accumulators (29 of the 32 registers with four B vectors and a
// broadcast), 10 loads per 24 FMAs instead of 8 per 12. On the GPU host's Xeon, which retires two
// 512-bit FMAs per cycle, the tutorial's matmul with 128 x 128 tiles ran 0-2 % faster on one
// thread in one sitting and 5-23 % in another, and 2-21 % at 16 threads (n = 2048, AOT,
// alternating runs); on a 2-vCPU Zen 4, 0-2 % faster. Narrower products keep tiles of 32: the
// attention tutorial's 64-column ones ran 1-2 % slower with 64 on the Zen 4 (bench/RESULTS.md,
// 2026-11-28).
constexpr int kWidestTileCols = 64;
template <int N>
constexpr bool kWidestTileApplies = N % kWidestTileCols == 0 && N >= 2 * kWidestTileCols;
// Columns per tile for a product of N columns: whole tiles where they divide it, else all N.
template <int N, int Cols>
constexpr int kColsPerTile = N % Cols == 0 ? Cols : N;
// Rows per tile: kTileRows for tiles of Cols columns; with all N columns in one tile (N not a
// multiple of Cols), 4 rows where they divide M, else one, to keep the tile small.
template <int M, int N, int Cols>
constexpr int kRowsPerTile = N % Cols == 0 ? kTileRows : (M % 4 == 0 ? 4 : 1);

// acc may be c itself (each tile reads its part of acc before writing it), or null for a
// product without an accumulator: the tile then starts at zero, and no block of zeros is filled
// and read (with inlining the test folds away).
template <class A, int R, int K, int N, int C>
TL_INLINE void dotTile(const A* const* a, const A* b, const A* acc, A* c, int i0, int j0) {
  A tile[R][C];
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < C; ++s)
      tile[r][s] = acc ? acc[(i0 + r) * N + j0 + s] : A(0);
  for (int k = 0; k < K; ++k) {
    const A* brow = b + k * N + j0;
    for (int r = 0; r < R; ++r) {
      const A av = a[i0 + r][k];
      for (int s = 0; s < C; ++s)
        tile[r][s] += av * brow[s];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < C; ++s)
      c[(i0 + r) * N + j0 + s] = tile[r][s];
}

// c = acc + a x b over tiles of R x C (each tile reads acc and writes c once): the rows in whole
// tiles of R, then the M % R rows left in tiles of their own height.
template <class A, int M, int K, int N, int Cols>
TL_INLINE void dotTiles(const A* const* a, const A* b, const A* acc, A* c) {
  constexpr int R = kRowsPerTile<M, N, Cols>;
  constexpr int C = kColsPerTile<N, Cols>;
  constexpr int whole = M / R * R;
  for (int i0 = 0; i0 < whole; i0 += R)
    for (int j0 = 0; j0 < N; j0 += C)
      dotTile<A, R, K, N, C>(a, b, acc, c, i0, j0);
  if constexpr (whole < M)
    for (int j0 = 0; j0 < N; j0 += C)
      dotTile<A, M - whole, K, N, C>(a, b, acc, c, whole, j0);
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

namespace detail {
template <class A, class X>
constexpr bool kReadsRowsInPlace = false;
template <class A, int D0, int D1, int M0, int M1>
constexpr bool kReadsRowsInPlace<A, LoadView<const A, D0, D1, M0, M1>> = true;

// c = acc + a x b (c = a x b where acc is null) for operands a [M, K], b [K, N] of any input
// type In and blocks acc, c [M, N] of its accumulation type A; acc may be c.
template <class A, class X, class Y>
TL_INLINE void dotProduct(const X& a, const Y& b, const A* acc, A* c) {
  constexpr int M = shape_of<X>::rows, K = shape_of<X>::cols, N = shape_of<Y>::cols;
#if defined(__x86_64__)
  using In = element_t<X>; // the x86-only paths below choose by it (unused elsewhere: -Werror)
  // bf16 on AMX's tiles, or on AVX512-BF16: pairs of products per instruction (dot_bf16.h says
  // how their sums' order differs from k order). The choice folds away like the tile width's.
  // Their tiles always read an accumulator: zeros, in place, where there is none.
  const auto accumulator = [&]() -> const A* {
    if (acc) return acc;
    for (int k = 0; k < M * N; ++k)
      c[k] = A(0);
    return c;
  };
  if constexpr (kAmxDotApplies<In, M, K, N>) {
    if (platform::targetHasAmxBf16()) {
      dotAmxBf16<M, K, N>(widened<In>(a).v, widened<In>(b).v, accumulator(), c);
      return;
    }
  }
  if constexpr (kBf16DotApplies<In, K, N>) {
    if (platform::targetHasBf16Dot()) {
      dotBf16<M, K, N>(widened<In>(a).v, widened<In>(b).v, accumulator(), c);
      return;
    }
  }
#endif
  const auto& wb = widened<A>(b);
  const auto tiles = [&](const A* const* rowsOfA) TL_INLINE_LAMBDA {
    // The choice folds away: codegen makes the width a constant.
    if (platform::targetVectorBits() >= 512 && kWidestTileApplies<N>)
      dotTiles<A, M, K, N, kWidestTileCols>(rowsOfA, wb.v, acc, c);
    else if (platform::targetVectorBits() >= 512 && N % kWideTileCols == 0)
      dotTiles<A, M, K, N, kWideTileCols>(rowsOfA, wb.v, acc, c);
    else
      dotTiles<A, M, K, N, kTileCols>(rowsOfA, wb.v, acc, c);
  };
  const A* rowsOfA[M];
  if constexpr (kReadsRowsInPlace<A, X>) {
    // A load of whole rows of A elements, every lane on: the tiles read its rows where they are
    // (A is only broadcast, one element at a time, walking each row), instead of a copy of the
    // block made on every call. B is still copied: its rows are read as vectors, one row per
    // k, and rows a power of two apart in memory would share a few cache sets. In the matmul
    // tutorial at n = 2048 on a 2-core Zen 4: 0.73 -> 0.83 of oneDNN's sgemm.
    if (a.contiguous) {
      for (int i = 0; i < M; ++i)
        rowsOfA[i] = a.p.base + a.p.row[i];
      tiles(rowsOfA);
      return;
    }
  }
  const auto& wa = widened<A>(a);
  for (int i = 0; i < M; ++i)
    rowsOfA[i] = wa.v + i * K;
  tiles(rowsOfA);
}

template <class X, class Y>
constexpr void checkDotShapes() {
  using SA = shape_of<X>;
  using SB = shape_of<Y>;
  static_assert(SA::rank == 2 && SB::rank == 2 && SB::rows == SA::cols, "dot: [M, K] x [K, N]");
}
} // namespace detail

template <Tensor X, Tensor Y, Tensor Z>
TL_INLINE auto dot(const X& a, const Y& b, const Z& acc) {
  detail::checkDotShapes<X, Y>();
  constexpr int M = shape_of<X>::rows, N = shape_of<Y>::cols;
  static_assert(shape_of<Z>::rank == 2 && shape_of<Z>::rows == M && shape_of<Z>::cols == N,
                "dot: the accumulator is [M, N]");
  using In = element_t<X>;
  using A = detail::dot_acc_t<In>;
  using Acc = element_t<Z>;
  static_assert(std::is_same_v<Acc, A> || std::is_same_v<Acc, detail::dot_out_t<In, Acc>>,
                "dot accumulates fp32 (int32 for integer inputs, fp64 for fp64; fp16 inputs may "
                "also take an fp16 accumulator)");
  const auto& in = detail::widened<A>(acc);
  Block<A, M, N> out;
  detail::dotProduct<A>(a, b, in.v, out.v);
  if constexpr (std::is_same_v<Acc, A>)
    return out;
  else
    return out.template to<Acc>(); // an fp16 accumulator: the fp32 sum rounded once
}

template <Tensor X, Tensor Y>
TL_INLINE auto dot(const X& a, const Y& b) {
  detail::checkDotShapes<X, Y>();
  using A = detail::dot_acc_t<element_t<X>>;
  Block<A, shape_of<X>::rows, shape_of<Y>::cols> out;
  detail::dotProduct<A>(a, b, nullptr, out.v);
  return out;
}

// dot_into(acc, a, b): `acc = tl.dot(a, b, acc)` computed in place, for a block acc of the
// accumulation type. The value is dot's, bit for bit; what it saves is the block that
// `acc = dot(a, b, acc)` builds and then copies into acc: in the attention tutorial (64 x 64 fp32
// per call), 68 against 74 GFLOP/s on one Zen 4 core. a or b may be acc itself (then the
// product goes through a block of its own, as dot does).
template <Tensor X, Tensor Y, class A, int M, int N>
TL_INLINE void dot_into(Block<A, M, N>& acc, const X& a, const Y& b) {
  detail::checkDotShapes<X, Y>();
  static_assert(shape_of<X>::rows == M && shape_of<Y>::cols == N, "dot: the accumulator is [M, N]");
  static_assert(std::is_same_v<A, detail::dot_acc_t<element_t<X>>>,
                "dot_into accumulates in dot's accumulation type (fp32 for fp16, bf16 and fp32 "
                "inputs, int32 for int8, fp64 for fp64)");
  const auto aliases = [&](const auto& x) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(x)>, Block<A, M, N>>)
      return &x == &acc;
    else
      return false;
  };
  if (aliases(a) || aliases(b)) {
    acc = dot(a, b, acc);
    return;
  }
  detail::dotProduct<A>(a, b, acc.v, acc.v);
}

// tl.dot(a, b, out_dtype=OutT) without an accumulator: the result type is Triton's
// (detail::dot_out_t), e.g. int32 for int8 inputs whatever OutT says.
template <class OutT, Tensor X, Tensor Y>
TL_INLINE auto dot_out(const X& a, const Y& b) {
  static_assert(!std::is_same_v<OutT, __bf16>,
                "out_dtype=bfloat16 is refused by Triton: use fp32 and cast the result");
  using R = detail::dot_out_t<element_t<X>, OutT>;
  if constexpr (std::is_same_v<R, detail::dot_acc_t<element_t<X>>>)
    return dot(a, b);
  else
    return dot(a, b, zeros<R, shape_of<X>::rows, shape_of<Y>::cols>());
}

} // namespace tcpu::tl

#endif
