// tl/mx.h, the element work of tl.dot_scaled: e2m1 unpacking along either axis and e8m0 scales
// applied along K (the lhs by rows, the rhs by columns), against values written here
// from the formats' definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "tcpu/tl/mx.h"

namespace {

namespace tl = tcpu::tl;

// e2m1 by pattern: S.EE.M with bias 1; 0bS001 is 0.5.
constexpr float kE2m1[16] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6, -0.0f, -0.5f, -1, -1.5f, -2, -3, -4, -6};

TEST(TlMx, UnpacksLowNibbleFirstAlongEitherAxis) {
  tl::Block<uint8_t, 2, 8> packed;
  for (int k = 0; k < 16; ++k)
    packed.v[k] = static_cast<uint8_t>(k | ((15 - k) << 4));
  const auto byColumns = tl::unpack_e2m1<float, 1>(packed); // [2, 16]
  const auto byRows = tl::unpack_e2m1<float, 0>(packed);    // [4, 8]
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 8; ++j) {
      const int k = i * 8 + j;
      EXPECT_EQ(byColumns.at(i, 2 * j), kE2m1[k]);
      EXPECT_EQ(byColumns.at(i, 2 * j + 1), kE2m1[15 - k]);
      EXPECT_EQ(byRows.at(2 * i, j), kE2m1[k]);
      EXPECT_EQ(byRows.at(2 * i + 1, j), kE2m1[15 - k]);
    }
  EXPECT_TRUE(std::signbit(static_cast<float>(tl::unpack_e2m1<tl::bfloat16, 1>(packed).at(1, 0))));
}

TEST(TlMx, LhsScalesByRowAndGroupOf32) {
  tl::Block<tl::bfloat16, 2, 64> v;
  for (int k = 0; k < 128; ++k)
    v.v[k] = static_cast<tl::bfloat16>(1.5f);
  tl::Block<uint8_t, 2, 2> s;
  s.v[0] = 127, s.v[1] = 130, s.v[2] = 0, s.v[3] = 0xff; // 1, 8, 0 (bits shifted in), NaN
  const auto out = tl::apply_mx_scale<1, false>(v, s);
  EXPECT_EQ(static_cast<float>(out.at(0, 31)), 1.5f);
  EXPECT_EQ(static_cast<float>(out.at(0, 32)), 12.0f);
  EXPECT_EQ(static_cast<float>(out.at(1, 0)), 0.0f);
  EXPECT_TRUE(std::isnan(static_cast<float>(out.at(1, 63))));
  const auto fast = tl::apply_mx_scale<1, true>(v, s); // the scale is infinity
  EXPECT_TRUE(std::isinf(static_cast<float>(fast.at(1, 63))));
}

TEST(TlMx, RhsScalesAreGivenPerColumn) {
  // [K = 64, N = 2]; scales [N, K / 32] = [2, 2].
  tl::Block<tl::float16, 64, 2> v;
  for (int k = 0; k < 128; ++k)
    v.v[k] = static_cast<tl::float16>(1.0f);
  tl::Block<uint8_t, 2, 2> s;
  for (int r = 0; r < 4; ++r)
    s.v[r] = static_cast<uint8_t>(124 + r); // column n, group g: 2^(n * 2 + g - 3)
  const auto out = tl::apply_mx_scale<0, false>(v, s);
  for (int k = 0; k < 64; ++k)
    for (int n = 0; n < 2; ++n)
      EXPECT_EQ(static_cast<float>(out.at(k, n)), std::ldexp(1.0f, n * 2 + k / 32 - 3));
}

TEST(TlMx, Fp16ScalesRoundThroughFp32) {
  EXPECT_EQ(static_cast<float>(tl::detail::e8m0Scale<tl::float16>(127 + 15)), 32768.0f);
  EXPECT_TRUE(std::isinf(static_cast<float>(tl::detail::e8m0Scale<tl::float16>(127 + 16))));
  EXPECT_EQ(static_cast<float>(tl::detail::e8m0Scale<tl::float16>(127 - 24)),
            std::ldexp(1.0f, -24));
  EXPECT_EQ(static_cast<float>(tl::detail::e8m0Scale<tl::float16>(127 - 26)), 0.0f);
  EXPECT_EQ(static_cast<float>(tl::detail::e8m0Scale<tl::bfloat16>(1)), std::ldexp(1.0f, -126));
}

} // namespace
