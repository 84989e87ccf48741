// tl::float8e4b15 (e4m3, exponent bias 15, no inf or NaN) and its conversions, against
// references written here apart from core.h: decoding by the format's definition; encoding as
// Triton's sm_80 software conversion rounds (third_party/nvidia's convert_custom_float8): fp32
// to fp16 toward zero, then the nearest value of the format up to 1.75, a tie going to the
// larger magnitude, infinities and NaN clamped to 1.75, the sign kept.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tcpu/tl/core.h"

namespace {

using tcpu::tl::float8e4b15;

double decode(uint8_t bits) {
  const int exponent = (bits >> 3) & 0xf, mantissa = bits & 7;
  const double magnitude =
      exponent == 0 ? std::ldexp(mantissa, -17) : std::ldexp(1.0 + mantissa / 8.0, exponent - 15);
  return (bits & 0x80) ? -magnitude : magnitude;
}

// The nearest pattern to |v| among those up to 1.75 (ties up), with v's sign.
uint8_t encodeMagnitude(double v, bool negative) {
  const double target = std::isnan(v) ? 1.75 : std::fmin(std::fabs(v), 1.75);
  uint8_t best = 0;
  double bestDistance = INFINITY;
  for (int p = 0; p < 128; ++p) {
    const double value = decode(static_cast<uint8_t>(p));
    if (value > 1.75) continue;
    const double distance = std::fabs(value - target);
    if (distance <= bestDistance) { // equal: the later, larger pattern wins the tie
      bestDistance = distance;
      best = static_cast<uint8_t>(p);
    }
  }
  return static_cast<uint8_t>(best | (negative ? 0x80 : 0));
}

// An fp32 value toward zero in fp16 (as a double): its mantissa cut to fp16's precision at
// its exponent (2^-24 steps below fp16's normals).
double towardZeroHalf(float f) {
  if (!std::isfinite(f)) return f;
  const double a = std::fabs(static_cast<double>(f));
  int exponent;
  std::frexp(a, &exponent); // a = m * 2^exponent, m in [0.5, 1)
  const double quantum = std::ldexp(1.0, std::max(exponent - 11, -24));
  const double cut = std::floor(a / quantum) * quantum;
  return f < 0 ? -cut : cut;
}

TEST(TlFp8e4b15, EveryPatternWidensExactly) {
  for (int p = 0; p < 256; ++p) {
    const float8e4b15 x{static_cast<uint8_t>(p)};
    EXPECT_EQ(static_cast<double>(tcpu::tl::cast<float>(x)), decode(x.bits)) << p;
    EXPECT_EQ(static_cast<double>(tcpu::tl::cast<tcpu::tl::float16>(x)), decode(x.bits)) << p;
  }
}

TEST(TlFp8e4b15, EveryFp16NarrowsHalfAwayAndClamps) {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    const auto half = std::bit_cast<tcpu::tl::float16>(static_cast<uint16_t>(h));
    const auto expected = encodeMagnitude(static_cast<double>(half), (h & 0x8000u) != 0);
    ASSERT_EQ(tcpu::tl::cast<float8e4b15>(half).bits, expected) << std::hex << h;
  }
}

TEST(TlFp8e4b15, Fp32GoesToFp16TowardZeroFirst) {
  std::vector<float> inputs;
  for (uint64_t u = 0; u < (1ull << 32); u += 0x1001)
    inputs.push_back(std::bit_cast<float>(static_cast<uint32_t>(u)));
  for (int p = 0; p < 128; ++p) { // each value, its neighbours, and the points between two
    const auto v = static_cast<float>(decode(static_cast<uint8_t>(p)));
    const auto mid = static_cast<float>(
        (decode(static_cast<uint8_t>(p)) + decode(static_cast<uint8_t>(p + 1))) / 2);
    for (float x : {v, mid})
      for (float y : {x, std::nextafter(x, 0.0f), std::nextafter(x, INFINITY)})
        inputs.insert(inputs.end(), {y, -y});
  }
  for (float f : inputs) {
    const auto expected = encodeMagnitude(towardZeroHalf(f), std::signbit(f));
    ASSERT_EQ(tcpu::tl::cast<float8e4b15>(f).bits, expected) << f;
  }
}

} // namespace
