// tl's fp8 types (tl::float8e5, tl::float8e4nv) and their conversions, against references
// written here apart from core.h: decoding by the formats' definitions, encoding by a search
// for the nearest finite value (ties to the even pattern, saturation past the largest, NaN to
// 0x7f), which is what Triton's NVIDIA backend (cvt.rn.satfinite on sm_90) gives; real Triton's
// own outputs are checked in tests/python (tests/goldens/triton_ops/cast_fp8).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tcpu/tl/core.h"

namespace {

using tcpu::tl::float8e4nv;
using tcpu::tl::float8e5;

struct Format {
  int mantissaBits, bias;
  bool e5; // e5m2 has inf and NaN at exponent 31; e4m3fn has only NaN at S.1111.111
};
constexpr Format kE5{2, 15, true}, kE4{3, 7, false};

double decode(uint8_t bits, Format f) {
  const int expBits = 7 - f.mantissaBits;
  const int exponent = (bits >> f.mantissaBits) & ((1 << expBits) - 1);
  const int mantissa = bits & ((1 << f.mantissaBits) - 1);
  double magnitude;
  if (f.e5 && exponent == 31)
    magnitude = mantissa == 0 ? INFINITY : NAN;
  else if (!f.e5 && exponent == 15 && mantissa == 7)
    magnitude = NAN;
  else if (exponent == 0)
    magnitude = std::ldexp(mantissa, 1 - f.bias - f.mantissaBits);
  else
    magnitude = std::ldexp(1.0 + std::ldexp(mantissa, -f.mantissaBits), exponent - f.bias);
  return (bits & 0x80) ? -magnitude : magnitude;
}

// The finite non-negative values of a format, by pattern (NaN where not finite).
std::vector<double> positiveValues(Format f) {
  std::vector<double> values(128);
  for (int p = 0; p < 128; ++p)
    values[p] = decode(static_cast<uint8_t>(p), f);
  return values;
}

uint8_t encode(double v, Format f) {
  static const std::vector<double> e5 = positiveValues(kE5), e4 = positiveValues(kE4);
  const std::vector<double>& values = f.e5 ? e5 : e4;
  if (std::isnan(v)) return 0x7f;
  double largest = 0;
  for (double value : values)
    if (std::isfinite(value)) largest = std::fmax(largest, value);
  const double target = std::fmin(std::fabs(v), largest);
  uint8_t best = 0;
  double bestDistance = INFINITY;
  for (int p = 0; p < 128; ++p) {
    if (!std::isfinite(values[p])) continue;
    const double distance = std::fabs(values[p] - target);
    if (distance < bestDistance || (distance == bestDistance && p % 2 == 0)) {
      best = static_cast<uint8_t>(p);
      bestDistance = distance;
    }
  }
  return static_cast<uint8_t>(best | (std::signbit(v) ? 0x80 : 0));
}

template <class T>
float toFloat(uint8_t bits) {
  return tcpu::tl::cast<float>(T{bits});
}
template <class T>
uint8_t toBits(float x) {
  return tcpu::tl::cast<T>(x).bits;
}

void expectSameFloat(double expected, float actual, int pattern) {
  if (std::isnan(expected))
    EXPECT_TRUE(std::isnan(actual)) << "pattern " << pattern;
  else
    EXPECT_EQ(static_cast<float>(expected), actual) << "pattern " << pattern;
}

TEST(TlFp8, EveryPatternWidensExactly) {
  for (int p = 0; p < 256; ++p) {
    const auto bits = static_cast<uint8_t>(p);
    expectSameFloat(decode(bits, kE5), toFloat<float8e5>(bits), p);
    expectSameFloat(decode(bits, kE4), toFloat<float8e4nv>(bits), p);
    expectSameFloat(decode(bits, kE4),
                    static_cast<float>(tcpu::tl::cast<tcpu::tl::float16>(float8e4nv{bits})), p);
  }
}

TEST(TlFp8, Fp32NarrowsToNearestEvenAndSaturates) {
  // A spread of fp32 patterns over every exponent (both signs, NaNs and infinities included),
  // plus each format's midpoints and their neighbours.
  std::vector<float> inputs;
  for (uint64_t u = 0; u <= 0xffffffffu; u += 40961)
    inputs.push_back(std::bit_cast<float>(static_cast<uint32_t>(u)));
  for (Format f : {kE5, kE4})
    for (int p = 0; p < 127; ++p) {
      const double lo = decode(static_cast<uint8_t>(p), f),
                   hi = decode(static_cast<uint8_t>(p + 1), f);
      if (!std::isfinite(lo) || !std::isfinite(hi)) continue;
      const auto mid = static_cast<float>((lo + hi) / 2);
      for (float x : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)})
        inputs.insert(inputs.end(), {x, -x});
    }
  inputs.insert(inputs.end(), {INFINITY, -INFINITY, 0.0f, -0.0f, 1e30f, -61440.0f, 464.0f});
  int mismatches = 0;
  for (float x : inputs) {
    if (toBits<float8e5>(x) != encode(x, kE5) || toBits<float8e4nv>(x) != encode(x, kE4)) {
      if (++mismatches <= 8)
        ADD_FAILURE() << "x = " << x << " (0x" << std::hex << std::bit_cast<uint32_t>(x)
                      << "): e5 0x" << int(toBits<float8e5>(x)) << " expected 0x"
                      << int(encode(x, kE5)) << ", e4 0x" << int(toBits<float8e4nv>(x))
                      << " expected 0x" << int(encode(x, kE4));
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << inputs.size();
}

TEST(TlFp8, EveryHalfNarrowsAsItsFp32Value) {
  for (uint32_t u = 0; u < 0x10000; ++u) {
    const auto h = std::bit_cast<tcpu::tl::float16>(static_cast<uint16_t>(u));
    const double x = static_cast<double>(static_cast<float>(h));
    ASSERT_EQ(tcpu::tl::cast<float8e5>(h).bits, encode(x, kE5)) << "half 0x" << std::hex << u;
    ASSERT_EQ(tcpu::tl::cast<float8e4nv>(h).bits, encode(x, kE4)) << "half 0x" << std::hex << u;
  }
}

TEST(TlFp8, E5ToBf16ReadsExponent31AsAFiniteScaleAsSm90Does) {
  // Finite values convert exactly; inf and the NaNs become 2^16 x (1 + m/4) with their sign.
  for (int p = 0; p < 256; ++p) {
    const auto bits = static_cast<uint8_t>(p);
    const float got = static_cast<float>(tcpu::tl::cast<tcpu::tl::bfloat16>(float8e5{bits}));
    const double finite = ((p & 0x7c) == 0x7c)
                              ? ((p & 0x80) ? -1 : 1) * std::ldexp(1.0 + (p & 3) / 4.0, 16)
                              : decode(bits, kE5);
    EXPECT_EQ(static_cast<float>(finite), got) << "pattern " << p;
  }
}

TEST(TlFp8, BlocksConvertElementwise) {
  tcpu::tl::Block<float, 8> x;
  const float values[8] = {0.1f, -2.5f, 448.0f, 500.0f, 1e-9f, -0.0f, 3.0f, NAN};
  for (int k = 0; k < 8; ++k)
    x.v[k] = values[k];
  tcpu::tl::Block<float8e4nv, 8> narrow = tcpu::tl::cast<float8e4nv>(x);
  tcpu::tl::Block<float, 8> back = narrow.to<float>();
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(narrow.v[k].bits, encode(values[k], kE4)) << k;
    expectSameFloat(decode(narrow.v[k].bits, kE4), back.v[k], k);
  }
  const auto zeros = tcpu::tl::zeros<float8e5, 4>();
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(zeros.v[k].bits, 0);
}

} // namespace
