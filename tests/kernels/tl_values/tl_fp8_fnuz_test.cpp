// tl::float8e4b8 and tl::float8e5b16 (AMD's fnuz formats: e4m3 with an exponent bias of 8, e5m2
// with 16; no inf, no -0, one NaN 0x80) and their conversions, against references written here
// apart from fp8.h: decoding by the formats' definition; encoding as Triton's conversion for AMD
// GPUs rounds: the nearest of the 128 magnitudes (a tie to the even pattern), saturated to the
// largest, infinities and NaN to 0x80, a zero result unsigned.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tcpu/tl/core.h"

namespace {

using tcpu::tl::float8e4b8;
using tcpu::tl::float8e5b16;

template <int MantissaBits, int Bias>
double decode(uint8_t bits) {
  if (bits == 0x80) return NAN;
  const int exponent = (bits & 0x7f) >> MantissaBits, mantissa = bits & ((1 << MantissaBits) - 1);
  const double fraction = std::ldexp(mantissa, -MantissaBits);
  const double magnitude =
      exponent == 0 ? std::ldexp(fraction, 1 - Bias) : std::ldexp(1.0 + fraction, exponent - Bias);
  return (bits & 0x80) ? -magnitude : magnitude;
}

template <int MantissaBits, int Bias>
uint8_t encode(double v) {
  if (!std::isfinite(v)) return 0x80;
  const double target = std::fmin(std::fabs(v), decode<MantissaBits, Bias>(0x7f));
  int best = 0;
  double bestDistance = INFINITY;
  for (int p = 0; p < 128; ++p) {
    const double distance = std::fabs(decode<MantissaBits, Bias>(static_cast<uint8_t>(p)) - target);
    if (distance < bestDistance || (distance == bestDistance && p % 2 == 0)) {
      bestDistance = distance;
      best = p;
    }
  }
  return static_cast<uint8_t>(best | (v < 0 && best != 0 ? 0x80 : 0));
}

template <class F, int MantissaBits, int Bias>
void checkWidening() {
  for (int p = 0; p < 256; ++p) {
    const F x{static_cast<uint8_t>(p)};
    const double expected = decode<MantissaBits, Bias>(x.bits);
    const double asFloat = tcpu::tl::cast<float>(x);
    const double asHalf = static_cast<double>(tcpu::tl::cast<tcpu::tl::float16>(x));
    const double asBf16 = static_cast<double>(tcpu::tl::cast<tcpu::tl::bfloat16>(x));
    for (double got : {asFloat, asHalf, asBf16}) {
      if (std::isnan(expected))
        EXPECT_TRUE(std::isnan(got)) << p;
      else
        EXPECT_EQ(got, expected) << p;
    }
  }
}

template <class F, int MantissaBits, int Bias>
void checkNarrowing() {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    const auto half = std::bit_cast<tcpu::tl::float16>(static_cast<uint16_t>(h));
    ASSERT_EQ(tcpu::tl::cast<F>(half).bits, (encode<MantissaBits, Bias>(static_cast<double>(half))))
        << std::hex << h;
  }
  std::vector<float> inputs;
  for (uint64_t u = 0; u < (1ull << 32); u += 0x1001)
    inputs.push_back(std::bit_cast<float>(static_cast<uint32_t>(u)));
  for (int p = 0; p < 127; ++p) { // each value, its neighbours, and the points between two
    const double v = decode<MantissaBits, Bias>(static_cast<uint8_t>(p));
    const double next = decode<MantissaBits, Bias>(static_cast<uint8_t>(p + 1));
    for (float x : {static_cast<float>(v), static_cast<float>((v + next) / 2)})
      for (float y : {x, std::nextafter(x, 0.0f), std::nextafter(x, INFINITY)})
        inputs.insert(inputs.end(), {y, -y});
  }
  for (float f : inputs)
    ASSERT_EQ(tcpu::tl::cast<F>(f).bits, (encode<MantissaBits, Bias>(f))) << f;
}

TEST(TlFp8Fnuz, EveryPatternWidensExactly) {
  checkWidening<float8e4b8, 3, 8>();
  checkWidening<float8e5b16, 2, 16>();
}

TEST(TlFp8Fnuz, NarrowingRoundsToEvenAndSaturates) {
  checkNarrowing<float8e4b8, 3, 8>();
  checkNarrowing<float8e5b16, 2, 16>();
}

TEST(TlFp8Fnuz, SpecialValues) {
  using tcpu::tl::cast;
  EXPECT_EQ(cast<float8e4b8>(-0.0f).bits, 0);
  EXPECT_EQ(cast<float8e4b8>(-1e-6f).bits, 0); // rounds to -0: the formats' only zero
  EXPECT_EQ(cast<float8e4b8>(INFINITY).bits, 0x80);
  EXPECT_EQ(cast<float8e5b16>(-INFINITY).bits, 0x80);
  EXPECT_EQ(cast<float8e5b16>(NAN).bits, 0x80);
  EXPECT_EQ(cast<float8e4b8>(1e6f).bits, 0x7f);   // 240
  EXPECT_EQ(cast<float8e5b16>(-1e6f).bits, 0xff); // -57344
  EXPECT_EQ(cast<float>(float8e5b16{0x01}), 0x1p-17f);
}

} // namespace
