// dot of bf16 blocks on the units made for them, for targets that have them (constants codegen
// defines): AVX512-BF16's vdpbf16ps (platform::targetHasBf16Dot()), and AMX's tiles
// (platform::targetHasAmxBf16(), below).
//
// vdpbf16ps multiplies pairs of bf16 and adds both products to an fp32 lane, one at a time: the
// odd element's product first, then the even one's, each add rounded to nearest even (the
// products of two bf16 are exact in fp32). It reads bf16 denormals as zero and flushes fp32
// denormal results to zero, whatever MXCSR says. So element (i, j) of the result sums in k order
// but for the two products of each pair (k, k + 1), which it adds as k + 1, k. Values past fp32's
// normal range
// (|x| < 2^-126) are the only ones where the flushes show. Triton leaves the order of a dot's sum
// to the hardware (NVIDIA's MMA units sum in an order of their own); tests bound the result
// against an fp64 product and pin this order bit for bit
// (tests/kernels/tl_kernels/tl_dot_test.cpp).
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

// b [K, N] as pairs of its rows, [K / 2][N][2]: the layout both units read B in (Intel's "VNNI"
// layout), so that 32 bits hold the two products' B elements of one column.
template <int K, int N>
TL_INLINE void packBf16Pairs(const __bf16* b, __bf16* pairs) {
  for (int p = 0; p < K / 2; ++p)
    for (int j = 0; j < N; ++j) {
      pairs[(p * N + j) * 2] = b[2 * p * N + j];
      pairs[(p * N + j) * 2 + 1] = b[(2 * p + 1) * N + j];
    }
}

// c = acc + a x b for a [M, K], b [K, N] of bf16 and acc, c [M, N] of fp32.
template <int M, int K, int N>
TL_AVX512_BF16 inline void dotBf16(const __bf16* a, const __bf16* b, const float* acc, float* c) {
  static_assert(kBf16DotApplies<__bf16, K, N>);
  alignas(64) __bf16 pairs[K / 2 * N * 2];
  packBf16Pairs<K, N>(b, pairs);
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

// AMX (Sapphire Rapids and later): tdpbf16ps multiplies a tile of 16 rows x 32 k of A by one of
// 16 pairs of k x 16 columns of B into 16 x 16 fp32, 512 products per instruction. How the
// unit orders and rounds the 32 products it adds into an element is its own (Intel documents a
// sequence of pairs, with denormals flushed); results are bounded against an fp64 product, as
// for the GPU's MMA units. LLVM configures the tiles (ldtilecfg) and releases them around the
// function. The OS must let the process use them: tcpuInit asks Linux (runtime's
// launch/amx_permission.hpp).
template <class In, int M, int K, int N>
constexpr bool kAmxDotApplies =
    std::is_same_v<In, __bf16> && M % 32 == 0 && N % 32 == 0 && K % 32 == 0;

using AmxTile = int __attribute__((vector_size(1024), aligned(64)));

#define TL_AMX_BF16 __attribute__((target("amx-tile,amx-bf16")))

// c = acc + a x b, each 32 x 32 block of c in four C tiles (with two A and two B tiles: all
// eight tile registers), over K in steps of 32.
template <int M, int K, int N>
TL_AMX_BF16 inline void dotAmxBf16(const __bf16* a, const __bf16* b, const float* acc, float* c) {
  static_assert(kAmxDotApplies<__bf16, M, K, N>);
  alignas(64) __bf16 pairs[K / 2 * N * 2];
  packBf16Pairs<K, N>(b, pairs);
  constexpr unsigned short kRows = 16, kRowBytes = 64; // every tile: 16 rows of 64 bytes
  constexpr unsigned long aStride = K * 2, pairStride = N * 4, cStride = N * 4; // bytes
  for (int i0 = 0; i0 < M; i0 += 32)
    for (int j0 = 0; j0 < N; j0 += 32) {
      const auto cTile = [&](auto* base, int di, int dj) { // acc or c
        return base + (i0 + di) * N + j0 + dj;
      };
      AmxTile c00 =
          __builtin_ia32_tileloadd64_internal(kRows, kRowBytes, cTile(acc, 0, 0), cStride);
      AmxTile c01 =
          __builtin_ia32_tileloadd64_internal(kRows, kRowBytes, cTile(acc, 0, 16), cStride);
      AmxTile c10 =
          __builtin_ia32_tileloadd64_internal(kRows, kRowBytes, cTile(acc, 16, 0), cStride);
      AmxTile c11 =
          __builtin_ia32_tileloadd64_internal(kRows, kRowBytes, cTile(acc, 16, 16), cStride);
      for (int k0 = 0; k0 < K; k0 += 32) {
        const AmxTile a0 =
            __builtin_ia32_tileloadd64_internal(kRows, kRowBytes, a + i0 * K + k0, aStride);
        const AmxTile a1 =
            __builtin_ia32_tileloadd64_internal(kRows, kRowBytes, a + (i0 + 16) * K + k0, aStride);
        const AmxTile b0 = __builtin_ia32_tileloadd64_internal(
            kRows, kRowBytes, pairs + (k0 / 2 * N + j0) * 2, pairStride);
        const AmxTile b1 = __builtin_ia32_tileloadd64_internal(
            kRows, kRowBytes, pairs + (k0 / 2 * N + j0 + 16) * 2, pairStride);
        c00 = __builtin_ia32_tdpbf16ps_internal(kRows, kRowBytes, kRowBytes, c00, a0, b0);
        c01 = __builtin_ia32_tdpbf16ps_internal(kRows, kRowBytes, kRowBytes, c01, a0, b1);
        c10 = __builtin_ia32_tdpbf16ps_internal(kRows, kRowBytes, kRowBytes, c10, a1, b0);
        c11 = __builtin_ia32_tdpbf16ps_internal(kRows, kRowBytes, kRowBytes, c11, a1, b1);
      }
      __builtin_ia32_tilestored64_internal(kRows, kRowBytes, cTile(c, 0, 0), cStride, c00);
      __builtin_ia32_tilestored64_internal(kRows, kRowBytes, cTile(c, 0, 16), cStride, c01);
      __builtin_ia32_tilestored64_internal(kRows, kRowBytes, cTile(c, 16, 0), cStride, c10);
      __builtin_ia32_tilestored64_internal(kRows, kRowBytes, cTile(c, 16, 16), cStride, c11);
    }
}

#undef TL_AMX_BF16

#else

template <class In, int K, int N>
constexpr bool kBf16DotApplies = false;
template <class In, int M, int K, int N>
constexpr bool kAmxDotApplies = false;

#endif

} // namespace tcpu::tl::detail

#endif
