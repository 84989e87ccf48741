// tl's 8-bit floats: storage types that kernels load, store, convert and dot, and their
// conversions to and from fp32 with the rounding, saturation and NaN rules of the GPUs Triton
// compiles each format for. core.h's convertTo picks among these.
#ifndef TCPU_TL_FP8_H
#define TCPU_TL_FP8_H

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tcpu/tl/platform.h"

namespace tcpu::tl {

// Triton's 8-bit floats: float8e5 (e5m2: 5 exponent bits, 2 mantissa bits, inf and NaN) and
// float8e4nv (e4m3fn: 4 and 3, no inf, NaN = S.1111.111). Storage types, as on NVIDIA GPUs,
// where Triton only loads, stores, converts and dots them (its fp8 arithmetic does not compile):
// tl::cast converts them to and from fp16, bf16 and fp32 as sm_90's cvt.rn.satfinite does.
struct float8e5 {
  uint8_t bits;
};
struct float8e4nv {
  uint8_t bits;
};
// float8e4b15: e4m3 with an exponent bias of 15 and no inf or NaN (S.1111.111 is 1.875), the
// top byte of an fp16 shifted left by one. Triton converts it in software, to and from fp16
// and fp32 only, on GPUs before sm_90 (third_party/nvidia's convert_custom_float8).
struct float8e4b15 {
  uint8_t bits;
};
// float8e4b8 and float8e5b16: AMD's "fnuz" formats (e4m3 with an exponent bias of 8, e5m2 with
// 16), native on CDNA3: no infinities, no negative zero, and a single NaN, 0x80 (the negative
// zero's encoding). Triton converts them to and from fp16, bf16 and fp32.
struct float8e4b8 {
  uint8_t bits;
};
struct float8e5b16 {
  uint8_t bits;
};
template <class T>
inline constexpr bool is_fnuz_v = std::is_same_v<std::remove_cv_t<T>, float8e4b8> ||
                                  std::is_same_v<std::remove_cv_t<T>, float8e5b16>;
template <class T>
inline constexpr bool is_fp8_v = std::is_same_v<std::remove_cv_t<T>, float8e5> ||
                                 std::is_same_v<std::remove_cv_t<T>, float8e4nv> ||
                                 std::is_same_v<std::remove_cv_t<T>, float8e4b15> || is_fnuz_v<T>;

namespace detail {

// fp8 -> fp32, exact.
TL_INLINE float fp8ToFloat(float8e5 x) {
  return static_cast<float>(std::bit_cast<_Float16>(static_cast<uint16_t>(x.bits << 8)));
}
TL_INLINE float fp8ToFloat(float8e4nv x) {
  const uint32_t sign = static_cast<uint32_t>(x.bits & 0x80u) << 24;
  const uint32_t exponent = (x.bits >> 3) & 0xfu, mantissa = x.bits & 0x7u;
  if (exponent == 0xfu && mantissa == 0x7u) return std::bit_cast<float>(sign | 0x7fc00000u);
  if (exponent == 0) // subnormal: mantissa x 2^-9
    return std::bit_cast<float>(std::bit_cast<uint32_t>(static_cast<float>(mantissa) * 0x1p-9f) |
                                sign);
  return std::bit_cast<float>(sign | ((exponent + 127u - 7u) << 23) | (mantissa << 20));
}

// float8e4b8 / float8e5b16 -> fp32, exact; 0x80 is NaN (with its sign bit set, as encoded).
template <int MantissaBits, int Bias>
TL_INLINE float fnuzToFloat(uint8_t x) {
  if (x == 0x80u) return std::bit_cast<float>(0xffc00000u);
  const uint32_t sign = static_cast<uint32_t>(x & 0x80u) << 24;
  const uint32_t exponent = (x & 0x7fu) >> MantissaBits, mantissa = x & ((1u << MantissaBits) - 1);
  if (exponent == 0) { // subnormal: mantissa x 2^(1 - Bias - MantissaBits)
    constexpr float quantum = 1.0f / static_cast<float>(1u << (Bias - 1 + MantissaBits));
    return std::bit_cast<float>(std::bit_cast<uint32_t>(static_cast<float>(mantissa) * quantum) |
                                sign);
  }
  return std::bit_cast<float>(sign | ((exponent + 127u - Bias) << 23) |
                              (mantissa << (23 - MantissaBits)));
}
TL_INLINE float fp8ToFloat(float8e4b8 x) {
  return fnuzToFloat<3, 8>(x.bits);
}
TL_INLINE float fp8ToFloat(float8e5b16 x) {
  return fnuzToFloat<2, 16>(x.bits);
}

// float8e4b15 -> fp16, exact: its bits are an fp16's sign and its next 7 bits shifted right by
// one (subnormals included).
TL_INLINE _Float16 fp8e4b15ToHalf(float8e4b15 x) {
  return std::bit_cast<_Float16>(
      static_cast<uint16_t>(((x.bits & 0x80u) << 8) | ((x.bits & 0x7fu) << 7)));
}
TL_INLINE float fp8ToFloat(float8e4b15 x) {
  return static_cast<float>(fp8e4b15ToHalf(x));
}

// fp16 -> float8e4b15 as Triton's sm_80 conversion: the magnitude's bits clamped to 1.75's
// (0x3f00; infinities and NaN too, as min.f16x2 returns the number), doubled, rounded half up
// at bit 8 (half away from zero on the magnitude), the top byte taken, the sign kept.
TL_INLINE float8e4b15 halfToFp8e4b15(_Float16 h) {
  const uint32_t bits = std::bit_cast<uint16_t>(h);
  const uint32_t magnitude = bits & 0x7fffu;
  const uint32_t clamped = magnitude < 0x3f00u ? magnitude : 0x3f00u;
  return float8e4b15{static_cast<uint8_t>(((bits >> 8) & 0x80u) | ((clamped * 2u + 0x80u) >> 8))};
}
// fp32 -> float8e4b15: first to fp16 rounding toward zero, as the sm_80 conversion does (magnitudes
// of 1.75 and more clamp next, so only smaller ones need fp16's exact truncation).
TL_INLINE float8e4b15 floatToFp8e4b15(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (u >> 16) & 0x8000u, magnitude = u & 0x7fffffffu;
  uint32_t half;
  if (magnitude >= 0x3fe00000u) // 1.75 or more, infinities and NaN: clamped anyway
    half = 0x3f00u;
  else if (magnitude >= 0x38800000u) // fp16 normal (2^-14 and up): the mantissa truncated
    half = ((magnitude >> 23) - 127u + 15u) << 10 | ((magnitude >> 13) & 0x3ffu);
  else // fp16 subnormal: multiples of 2^-24, truncated
    half = static_cast<uint32_t>(std::bit_cast<float>(magnitude) * 0x1p24f);
  return halfToFp8e4b15(std::bit_cast<_Float16>(static_cast<uint16_t>(sign | half)));
}

// fp32 -> fp8 as sm_90's cvt.rn.satfinite: rounded to nearest even once, subnormals kept,
// magnitudes past the largest finite value (infinities too) saturate to it, NaN becomes 0x7f
// (both measured with Triton 3.6 on an H200: tests/goldens/triton_ops/cast_fp8).
template <int MantissaBits, int Bias, uint32_t LargestFinite>
TL_INLINE uint8_t floatToFp8Bits(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (u >> 24) & 0x80u, magnitude = u & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return 0x7f;
  constexpr int minExponent = 1 - Bias; // of the smallest normal fp8 value
  constexpr uint32_t smallestNormal = static_cast<uint32_t>(minExponent + 127) << 23;
  uint32_t bits;
  if (magnitude < smallestNormal) {
    // Subnormal (or zero) in fp8: a multiple of 2^(minExponent - MantissaBits), scaled exactly;
    // rounding up to 2^MantissaBits gives the smallest normal's encoding.
    constexpr float toQuanta = static_cast<float>(1u << (MantissaBits - minExponent));
    bits = static_cast<uint32_t>(std::nearbyint(std::bit_cast<float>(magnitude) * toQuanta));
  } else {
    constexpr int shift = 23 - MantissaBits;
    const uint32_t rounded = magnitude + ((1u << (shift - 1)) - 1u) + ((magnitude >> shift) & 1u);
    bits = (rounded >> shift) - (static_cast<uint32_t>(127 - Bias) << MantissaBits);
  }
  return static_cast<uint8_t>(sign | (bits > LargestFinite ? LargestFinite : bits));
}
// fp32 -> float8e4b8 / float8e5b16 as Triton's software conversion for AMD GPUs
// (downcastToFp8_RTNE_oneValue, which CDNA3's instructions agree with on finite values):
// rounded to nearest even once, subnormals kept, magnitudes past the largest finite value
// saturate to it (0x7f), infinities and NaN become the NaN 0x80, and a result of -0 is 0 (the
// formats have no negative zero).
template <int MantissaBits, int Bias>
TL_INLINE uint8_t floatToFnuzBits(float f) {
  if ((std::bit_cast<uint32_t>(f) & 0x7f800000u) == 0x7f800000u) return 0x80;
  const uint8_t bits = floatToFp8Bits<MantissaBits, Bias, 0x7fu>(f);
  return bits == 0x80u ? 0 : bits;
}
template <class U>
TL_INLINE U floatToFp8(float f) {
  if constexpr (std::is_same_v<std::remove_cv_t<U>, float8e4b15>)
    return floatToFp8e4b15(f);
  else if constexpr (std::is_same_v<std::remove_cv_t<U>, float8e5>)
    return U{floatToFp8Bits<2, 15, 0x7bu>(f)};
  else if constexpr (std::is_same_v<std::remove_cv_t<U>, float8e4b8>)
    return U{floatToFnuzBits<3, 8>(f)};
  else if constexpr (std::is_same_v<std::remove_cv_t<U>, float8e5b16>)
    return U{floatToFnuzBits<2, 16>(f)};
  else
    return U{floatToFp8Bits<3, 7, 0x7eu>(f)};
}

} // namespace detail
} // namespace tcpu::tl

#endif // TCPU_TL_FP8_H
