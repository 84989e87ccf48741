// dot of bf16 blocks on AVX512-BF16 (vdpbf16ps), for targets that have it
// (platform::targetHasBf16Dot(), a constant codegen defines): the unit made for bf16 products.
//
// vdpbf16ps multiplies pairs of bf16 and adds both products to an fp32 lane, one at a time: the
// odd element's product first, then the even one's, each add rounded to nearest even (the
// products of two bf16 are exact in fp32). It reads bf16 denormals as zero and flushes fp32
// denormal results to zero, whatever MXCSR says. So element (i, j) of the result sums in k order
// but for the two products of each pair (k, k + 1), which it adds as k + 1, k. Values past fp32's
// normal range
// (|x| < 2^-126) are the only ones where the flushes show. Triton leaves the order of a dot's sum
// to the hardware (NVIDIA's MMA units sum in an order of their own); tests bound the result
// against an fp64 product and pin this order bit for bit (tests/kernels/tl_dot_test.cpp).
//
// B is repacked once per dot into pairs of rows ([K/2][N][2]), so that one 512-bit load holds
// the pairs of 16 columns; A's pairs are already adjacent in its rows and are broadcast. The
// register tile is kBf16TileRows x 32 fp32: 16 zmm accumulators, two B vectors and a broadcast.
#ifndef TCPU_TL_DOT_BF16_H
#define TCPU_TL_DOT_BF16_H

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tcpu/tl/platform.h"

namespace tcpu::tl::detail {

#if defined(__x86_64__)

constexpr int kBf16TileRows = 8;
constexpr int kBf16TileCols = 32;

// Whether dot of In blocks [M, K] x [K, N] may take this path (where the target has it): whole
// pairs of k (Triton's blocks are powers of two; K = 1 sums one product and takes fp32's path).
template <class In, int K, int N>
constexpr bool kBf16DotApplies =
    std::is_same_v<In, __bf16> && N % kBf16TileCols == 0 && K % 2 == 0 && K > 0;

using F32x16 = float __attribute__((vector_size(64)));
using Bf16x32 = __bf16 __attribute__((vector_size(64)));
using U32x16 = uint32_t __attribute__((vector_size(64)));

// These functions carry the target's features themselves, so that clang accepts the builtin in
// code compiled for any x86-64; codegen gives every function the real target's features, and on
// a target without AVX512-BF16 the branch that calls them folds away (codegen checks that it
// did: checkTargetIntrinsics).
#define TL_AVX512_BF16 __attribute__((target("avx512f,avx512bf16,evex512")))

// Rows i0 .. i0 + R of c = acc + a x b, columns j0 .. j0 + 32; `pairs` is b repacked.
template <int R, int K, int N>
TL_AVX512_BF16 TL_INLINE void dotBf16Tile(const __bf16* a, const __bf16* pairs, const float* acc,
                                          float* c, int i0, int j0) {
  F32x16 tile[R][2];
  for (int r = 0; r < R; ++r)
    for (int h = 0; h < 2; ++h)
      std::memcpy(&tile[r][h], acc + (i0 + r) * N + j0 + 16 * h, sizeof(F32x16));
  for (int p = 0; p < K / 2; ++p) {
    Bf16x32 b0, b1;
    std::memcpy(&b0, pairs + (p * N + j0) * 2, sizeof(Bf16x32));
    std::memcpy(&b1, pairs + (p * N + j0 + 16) * 2, sizeof(Bf16x32));
    for (int r = 0; r < R; ++r) {
      uint32_t word; // a[i0 + r][2p] and [2p + 1]
      std::memcpy(&word, a + (i0 + r) * K + 2 * p, sizeof(word));
      const auto broadcast = __builtin_bit_cast(Bf16x32, U32x16{} + word);
      tile[r][0] = __builtin_ia32_dpbf16ps_512(tile[r][0], broadcast, b0);
      tile[r][1] = __builtin_ia32_dpbf16ps_512(tile[r][1], broadcast, b1);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int h = 0; h < 2; ++h)
      std::memcpy(c + (i0 + r) * N + j0 + 16 * h, &tile[r][h], sizeof(F32x16));
}

// c = acc + a x b for a [M, K], b [K, N] of bf16 and acc, c [M, N] of fp32.
template <int M, int K, int N>
TL_AVX512_BF16 inline void dotBf16(const __bf16* a, const __bf16* b, const float* acc, float* c) {
  static_assert(kBf16DotApplies<__bf16, K, N>);
  alignas(64) __bf16 pairs[K / 2 * N * 2];
  for (int p = 0; p < K / 2; ++p)
    for (int j = 0; j < N; ++j) {
      pairs[(p * N + j) * 2] = b[2 * p * N + j];
      pairs[(p * N + j) * 2 + 1] = b[(2 * p + 1) * N + j];
    }
  constexpr int R = M < kBf16TileRows ? M : kBf16TileRows;
  constexpr int whole = M / R * R;
  for (int i0 = 0; i0 < whole; i0 += R)
    for (int j0 = 0; j0 < N; j0 += kBf16TileCols)
      dotBf16Tile<R, K, N>(a, pairs, acc, c, i0, j0);
  if constexpr (whole < M)
    for (int j0 = 0; j0 < N; j0 += kBf16TileCols)
      dotBf16Tile<M - whole, K, N>(a, pairs, acc, c, whole, j0);
}

#undef TL_AVX512_BF16

#else

template <class In, int K, int N>
constexpr bool kBf16DotApplies = false;

#endif

} // namespace tcpu::tl::detail

#endif
