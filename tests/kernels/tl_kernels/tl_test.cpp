// tl's features, one kernel each (kernels/tl_features.cpp), through codegen.
#include <algorithm>
#include <numeric>

#include "tcpu/tl/random.h"
#include "tl_kernel_test_support.hpp"

namespace tcpu::test {
namespace {

class Tl : public TlKernelTest {
protected:
  Tl() : TlKernelTest("tl_features.bc") {}
};

TEST_F(Tl, ReductionsFollowTritonsTieAndNanRules) {
  std::vector<float> x = randomFloats(16 * 32, 31);
  x[1 * 32 + 3] = 5.0f, x[1 * 32 + 9] = 5.0f;    // row 1: tied maximum, lowest index wins
  x[2 * 32 + 4] = -5.0f, x[2 * 32 + 30] = -5.0f; // row 2: tied minimum
  x[3 * 32 + 7] = NAN;                           // row 3: max/min ignore NaN, argmax/argmin pick it
  std::vector<float> sums(16), maxes(16), mins(16), colSums(32);
  std::vector<int32_t> argmaxes(16), argmins(16);
  ASSERT_TCPU(launch(kernel("reductions"), 1, 1, 1, x.data(), sums.data(), maxes.data(),
                     mins.data(), argmaxes.data(), argmins.data(), colSums.data()));
  for (int r = 0; r < 16; ++r) {
    const float* row = x.data() + r * 32;
    double sum = 0;
    float mx = -INFINITY, mn = INFINITY;
    int amax = 0, amin = 0;
    for (int c = 0; c < 32; ++c) {
      if (std::isnan(row[c])) continue;
      sum += row[c];
      if (row[c] > mx) mx = row[c], amax = c;
      if (row[c] < mn) mn = row[c], amin = c;
    }
    if (r == 3) {
      EXPECT_TRUE(std::isnan(sums[3]));
      EXPECT_EQ(argmaxes[3], 7);
      EXPECT_EQ(argmins[3], 7);
    } else {
      // 32 terms of magnitude <= 1 in fp32: |error| <= 32 * 2^-24 * 32.
      EXPECT_NEAR(sums[static_cast<size_t>(r)], sum, 1e-4) << "row " << r;
      EXPECT_EQ(argmaxes[static_cast<size_t>(r)], amax) << "row " << r;
      EXPECT_EQ(argmins[static_cast<size_t>(r)], amin) << "row " << r;
    }
    EXPECT_EQ(maxes[static_cast<size_t>(r)], mx) << "row " << r;
    EXPECT_EQ(mins[static_cast<size_t>(r)], mn) << "row " << r;
  }
  EXPECT_EQ(argmaxes[1], 3);
  EXPECT_EQ(argmins[2], 4);
  for (int c = 0; c < 32; ++c) {
    if (c == 7) continue;
    double sum = 0;
    for (int r = 0; r < 16; ++r)
      sum += x[static_cast<size_t>(r * 32 + c)];
    EXPECT_NEAR(colSums[static_cast<size_t>(c)], sum, 1e-4) << "column " << c;
  }
}

TEST_F(Tl, CastsToHalfAndBfloatRoundToNearestEven) {
  std::vector<float> x = randomFloats(1000, 32, -70000.0f, 70000.0f);
  // Exact ties and edges: 1 + 2^-11 (fp16 tie, rounds to even 1.0), 1 + 3 * 2^-11
  // (rounds up), subnormals, overflow to inf, NaN.
  const float specials[] = {
      1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 0x1p-20f,          65520.0f, -1e10f, NAN, 0.0f,
      -0.0f,           1.0f + 0x1p-8f,      1.0f + 3 * 0x1p-8f};
  std::copy(std::begin(specials), std::end(specials), x.begin());
  std::vector<uint16_t> half(1000), brain(1000);
  ASSERT_TCPU(launch(kernel("casts"), 4, 1, 1, x.data(), half.data(), brain.data(), int32_t{1000}));
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i])) {
      EXPECT_TRUE(std::isnan(halfToFloat(half[i])));
      continue;
    }
    EXPECT_EQ(half[i], floatToHalf(x[i])) << "fp16 of " << x[i];
    EXPECT_EQ(brain[i], floatToBf16(x[i])) << "bf16 of " << x[i];
  }
}

TEST_F(Tl, GathersAndScattersThroughIndexBlocks) {
  const int32_t n = 150; // ragged: 3 programs of 64
  std::vector<int32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::mt19937 rng(3);
  std::shuffle(perm.begin(), perm.end(), rng);
  const std::vector<float> x = randomFloats(n, 33);
  std::vector<float> out(n + 1, -1.0f);
  ASSERT_TCPU(launch(kernel("gather_scatter"), 3, 1, 1, x.data(), perm.data(), out.data(), n));
  for (int32_t i = 0; i < n; ++i)
    EXPECT_EQ(out[static_cast<size_t>(i)], x[static_cast<size_t>(i)] * 2.0f);
  EXPECT_EQ(out[n], -1.0f);
}

TEST_F(Tl, LazyBlocksKeepValueSemantics) {
  const int32_t n = 50; // ragged: 14 masked lanes
  std::vector<float> a = randomFloats(64, 41), b = randomFloats(64, 42);
  const std::vector<float> c = randomFloats(2 * 64, 43);
  const std::vector<float> a0 = a, b0 = b;
  std::vector<float> out(128, -7.0f);
  ASSERT_TCPU(
      launch(kernel("value_semantics"), 1, 1, 1, a.data(), b.data(), c.data(), out.data(), n));
  float strideSum = 0; // the kernel's sum of 50 values plus 14 lanes of -1
  for (size_t i = 0; i < 64; ++i) {
    const bool on = i < static_cast<size_t>(n);
    // Exact: swapping moves values; 2x is exact, so 4 + 2x rounds once, fused or not.
    EXPECT_EQ(a[i], on ? b0[i] : a0[i]) << i;
    EXPECT_EQ(b[i], on ? a0[i] : b0[i]) << i;
    EXPECT_EQ(out[i], on ? 4.0f + c[2 * i] * 2.0f : -7.0f) << i;
    strideSum += on ? c[2 * i] : -1.0f;
  }
  // The sum's order is tl's 16-lane tree, not this loop's: within 64 roundings.
  for (size_t i = 64; i < 128; ++i)
    EXPECT_NEAR(out[i], strideSum, 64 * 6e-8 * 64) << i;
}

// A masked load's lanes outside its rectangle are `other`, and expressions of such loads are
// evaluated in two parts (kernels/include/tcpu/tl/core.h, uniformOutside); the values must be
// those of the lane-by-lane evaluation, for empty, partial and whole rectangles.
TEST_F(Tl, MaskedExpressionsGiveEveryLaneItsValue) {
  const std::vector<float> x = randomFloats(256, 51), y = randomFloats(256, 52),
                           z = randomFloats(256, 53);
  const float s = 0.375f;
  struct Bounds {
    int32_t m, lo, hi;
  };
  for (const Bounds b : {Bounds{5, 3, 29}, Bounds{8, 0, 32}, Bounds{0, 0, 32}, Bounds{8, 7, 7},
                         Bounds{3, -4, 40}, Bounds{8, 17, 32}, Bounds{8, 0, 20}}) {
    SCOPED_TRACE(testing::Message() << "m " << b.m << ", cols [" << b.lo << ", " << b.hi << ")");
    std::vector<float> out(768 + 8, -9.0f);
    ASSERT_TCPU(launch(kernel("masked_expressions"), 1, 1, 1, x.data(), y.data(), z.data(),
                       out.data(), b.m, b.lo, b.hi, s));
    for (int r = 0; r < 8; ++r) {
      float rowSum[16] = {}; // the reduction's 16 partials, in its order
      for (int c = 0; c < 32; ++c) {
        const size_t k = static_cast<size_t>(r * 32 + c);
        const bool on = r < b.m && c >= b.lo && c < b.hi;
        const bool zOn = r < b.m && c < b.hi;
        const float xv = on ? x[k] : -1.5f, yv = on ? y[k] : 4.0f, zv = zOn ? z[k] : 0.25f;
        // Each lane is one or two roundings of the same operands either way: exact.
        EXPECT_EQ(out[k], (xv - s) * 2.0f) << r << "," << c;
        EXPECT_EQ(out[256 + k], on ? xv * yv : -9.0f) << r << "," << c;
        EXPECT_EQ(out[512 + k], xv + zv) << r << "," << c;
        rowSum[c % 16] += (xv - s) * 2.0f;
      }
      for (int width = 8; width > 0; width /= 2)
        for (int l = 0; l < width; ++l)
          rowSum[l] += rowSum[l + width];
      EXPECT_EQ(out[768 + static_cast<size_t>(r)], rowSum[0]) << "row " << r;
    }
  }
}

TEST_F(Tl, AtomicsReturnOldValuesUnderTwoThreads) {
  ASSERT_TCPU(tcpuSetNumThreads(2));
  const unsigned programs = 4096;
  int32_t counter = 0, maxId = -1;
  float floatSum = 0;
  std::vector<int32_t> olds(programs), bins(8, 0);
  ASSERT_TCPU(launch(kernel("atomics"), programs, 1, 1, &counter, olds.data(), &maxId, &floatSum,
                     bins.data()));
  EXPECT_EQ(counter, static_cast<int32_t>(programs));
  EXPECT_EQ(maxId, static_cast<int32_t>(programs - 1));
  EXPECT_EQ(floatSum, 0.5f * programs); // exact: multiples of 0.5 below 2^24
  std::sort(olds.begin(), olds.end());  // each old value seen exactly once
  for (unsigned i = 0; i < programs; ++i)
    ASSERT_EQ(olds[i], static_cast<int32_t>(i));
  for (int32_t bin : bins)
    EXPECT_EQ(bin, static_cast<int32_t>(programs / 8));
}

// An implementation of Philox 4x32-10 written from the algorithm's statement
// (triton-facts.md), independent of tl/random.h.
struct Words {
  uint32_t w[4];
};
Words philoxReference(uint64_t seed, uint64_t offset) {
  uint32_t c[4] = {static_cast<uint32_t>(offset), static_cast<uint32_t>(offset >> 32), 0, 0};
  uint32_t key[2] = {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t{0xD2511F53u} * c[0];
    const uint64_t p1 = uint64_t{0xCD9E8D57u} * c[2];
    const uint32_t next[4] = {
        static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ key[0], static_cast<uint32_t>(p1),
        static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ key[1], static_cast<uint32_t>(p0)};
    std::copy(std::begin(next), std::end(next), c);
    key[0] += 0x9E3779B9u;
    key[1] += 0xBB67AE85u;
  }
  return {{c[0], c[1], c[2], c[3]}};
}

TEST_F(Tl, PhiloxBlocksAreBitExactWithAnIndependentImplementation) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{42}, uint64_t{123}, uint64_t{512},
                        uint64_t{0xffffffffu}, uint64_t{0xfcafeb0bu}}) {
    for (uint64_t base :
         {uint64_t{0}, uint64_t{1} << 32, (uint64_t{1} << 63) - 64, uint64_t{0xfffffff0u}}) {
      std::vector<uint32_t> c0(64), c1(64), c2(64), c3(64), ints(64);
      std::vector<float> uniforms(64), normals(64);
      ASSERT_TCPU(launch(kernel("philox_blocks"), 1, 1, 1, seed, base, c0.data(), c1.data(),
                         c2.data(), c3.data(), ints.data(), uniforms.data(), normals.data()));
      for (size_t i = 0; i < 64; ++i) {
        const Words want = philoxReference(seed, base + i);
        ASSERT_EQ(c0[i], want.w[0]) << "seed " << seed << " offset " << base + i;
        ASSERT_EQ(c1[i], want.w[1]);
        ASSERT_EQ(c2[i], want.w[2]);
        ASSERT_EQ(c3[i], want.w[3]);
        ASSERT_EQ(ints[i], want.w[0]);
        const auto bits = static_cast<int32_t>(want.w[0]);
        const float uniform = static_cast<float>(bits < 0 ? -bits - 1 : bits) * 4.6566127342e-10f;
        ASSERT_EQ(uniforms[i], uniform);
        // randn uses SLEEF's log and cos (1 ULP each) in the kernel: 4e-6 absolute
        // covers |randn| <= 6 (philox_test bounds the scalar form the same way).
        ASSERT_NEAR(normals[i], tl::randn(seed, base + i), 4e-6);
      }
    }
  }
}

TEST_F(Tl, DeviceAssertFailsTheLaunchWithProgramFileAndLine) {
  std::vector<int32_t> x(64);
  std::iota(x.begin(), x.end(), 0);
  EXPECT_TCPU(launch(kernel("checked"), 4, 1, 1, x.data(), int32_t{64}));
  EXPECT_EQ(launch(kernel("checked"), 4, 1, 1, x.data(), int32_t{40}), TCPU_ERROR_ASSERT);
  const std::string detail = tcpuGetLastErrorDetail();
  // Element 40 is in program 2 (16 per program); program 3 fails too, the first wins.
  EXPECT_NE(detail.find("values < limit"), std::string::npos) << detail;
  EXPECT_NE(detail.find("tl_features.cpp"), std::string::npos) << detail;
  EXPECT_TRUE(detail.find("program (2, 0, 0)") != std::string::npos ||
              detail.find("program (3, 0, 0)") != std::string::npos)
      << detail;
  // The process and the runtime go on.
  EXPECT_TCPU(launch(kernel("checked"), 4, 1, 1, x.data(), int32_t{64}));
}

TEST_F(Tl, DevicePrintWritesWholeLinesWithProgramIds) {
  const std::vector<float> x = {1.5f, 2.0f, -3.0f, 4.25f};
  tcpuFunction print = kernel("printing");
  ASSERT_TCPU(tcpuSetNumThreads(2));
  ::testing::internal::CaptureStdout();
  const tcpuResult result = launch(print, 3, 1, 1, x.data());
  const std::string out = ::testing::internal::GetCapturedStdout();
  ASSERT_TCPU(result);
  for (int pid = 0; pid < 3; ++pid) {
    const std::string p = "pid (" + std::to_string(pid) + ", 0, 0) ";
    EXPECT_NE(out.find(p + "idx () pid: " + std::to_string(pid) + "\n"), std::string::npos) << out;
    // A block's lines come out together, in order.
    EXPECT_NE(out.find(p + "idx (0, 0) x: 1.500000\n" + p + "idx (0, 1) x: 2.000000\n" + p +
                       "idx (1, 0) x: -3.000000\n" + p + "idx (1, 1) x: 4.250000\n"),
              std::string::npos)
        << out;
  }
}

TEST_F(Tl, NamedInstantiationsFromTheSourceAndFromCMake) {
  for (auto [name, factor] :
       {std::pair{"scale_by_2", 2.0f}, {"scale_by_3", 3.0f}, {"scale_by_5", 5.0f}}) {
    std::vector<float> x = {1, 2, 3, 4};
    ASSERT_TCPU(launch(kernel(name), 1, 1, 1, x.data()));
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(x[static_cast<size_t>(i)], static_cast<float>(i + 1) * factor) << name;
  }
}

} // namespace
} // namespace tcpu::test
