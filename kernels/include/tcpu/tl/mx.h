// Microscaled operands of Triton's tl.dot_scaled, as Triton lowers it on GPUs without MX
// instructions (DecomposeScaledBlocked): each operand is widened to the compute type (bf16, or
// fp16 where either operand is fp16), e2m1 unpacked from two per byte, multiplied by its e8m0
// scale (one per 32 elements along K) in that type, NaN where the scale is 0xff unless fast
// math; then an ordinary dot with fp32 accumulation (dot.h). The front end checks the shapes
// and formats and calls these in that order.
#ifndef TCPU_TL_MX_H
#define TCPU_TL_MX_H

#include <bit>
#include <cstdint>
#include <limits>

#include "tcpu/tl/core.h"

namespace tcpu::tl {

namespace detail {

// An e2m1 value (the low 4 bits of `nibble`): S.EE.M, exponent bias 1, 0bS001 is +-0.5; every
// value (0, 0.5, 1, 1.5, 2, 3, 4, 6) is exact in fp16 and bf16.
TL_INLINE float e2m1ToFloat(uint8_t nibble) {
  const int exponent = (nibble >> 1) & 3, mantissa = nibble & 1;
  const float magnitude = exponent == 0 ? 0.5f * static_cast<float>(mantissa)
                                        : static_cast<float>((2 + mantissa) << exponent) * 0.25f;
  return (nibble & 8) ? -magnitude : magnitude;
}

// An e8m0 scale (2^(s - 127)) in the compute type T as Triton makes it: for bf16, s shifted into
// the exponent field (so 0 gives 0 and 0xff infinity); for fp16, the same into an fp32 rounded to
// fp16 (overflowing to infinity, underflowing to subnormals and 0).
template <class T>
TL_INLINE T e8m0Scale(uint8_t s) {
  if constexpr (std::is_same_v<T, __bf16>)
    return std::bit_cast<__bf16>(static_cast<uint16_t>(static_cast<uint16_t>(s) << 7));
  else
    return static_cast<T>(std::bit_cast<float>(static_cast<uint32_t>(s) << 23));
}

} // namespace detail

// unpack_e2m1<T, Axis>(x): a block of bytes each holding two e2m1 values (the first in the low
// bits), as a block of T twice as long along Axis (0: rows, 1: columns).
template <class T, int Axis, int R, int C>
TL_INLINE auto unpack_e2m1(const Block<uint8_t, R, C>& x) {
  static_assert(Axis == 0 || Axis == 1, "unpack_e2m1: Axis is 0 or 1");
  constexpr int rows = Axis == 0 ? 2 * R : R, cols = Axis == 1 ? 2 * C : C;
  Block<T, rows, cols> out;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      const uint8_t byte = x.v[i * C + j];
      const T lo = detail::convertTo<T>(detail::e2m1ToFloat(byte & 0xf));
      const T hi = detail::convertTo<T>(detail::e2m1ToFloat(static_cast<uint8_t>(byte >> 4)));
      if constexpr (Axis == 0) {
        out.v[(2 * i) * cols + j] = lo;
        out.v[(2 * i + 1) * cols + j] = hi;
      } else {
        out.v[i * cols + 2 * j] = lo;
        out.v[i * cols + 2 * j + 1] = hi;
      }
    }
  return out;
}

// apply_mx_scale<KAxis, FastMath>(v, scale): v (an operand widened to T) times its e8m0 scales,
// rounded to T. The lhs ([M, K], KAxis 1) reads scale[m][k / 32]; the rhs ([K, N], KAxis 0)
// reads scale[n][k / 32] (its scales are given [N, K / 32], not transposed). Without FastMath a
// scale of 0xff (NaN) gives NaN.
template <int KAxis, bool FastMath, class T, int R, int C, int SR, int SC>
TL_INLINE Block<T, R, C> apply_mx_scale(const Block<T, R, C>& v,
                                        const Block<uint8_t, SR, SC>& scale) {
  static_assert(KAxis == 0 || KAxis == 1, "apply_mx_scale: KAxis is 0 or 1");
  constexpr int K = KAxis == 1 ? C : R;
  static_assert(K % 32 == 0 && SC == K / 32, "apply_mx_scale: one scale per 32 elements along K");
  static_assert(SR == (KAxis == 1 ? R : C), "apply_mx_scale: one row of scales per row of the "
                                            "lhs, per column of the rhs");
  Block<T, R, C> out;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      const uint8_t s = KAxis == 1 ? scale.v[i * SC + j / 32] : scale.v[j * SC + i / 32];
      const float product =
          static_cast<float>(v.v[i * C + j]) * static_cast<float>(detail::e8m0Scale<T>(s));
      out.v[i * C + j] = detail::convertTo<T>(
          !FastMath && s == 0xff ? std::numeric_limits<float>::quiet_NaN() : product);
    }
  return out;
}

} // namespace tcpu::tl

#endif
