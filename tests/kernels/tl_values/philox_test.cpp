// tl's Philox against real Triton (goldens recorded on a GPU, see
// tests/goldens/README.md) and against an independent implementation written
// here from the algorithm's description.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tcpu/tl/random.h"

namespace {

struct Golden {
  uint64_t seed, offset;
  std::array<uint32_t, 4> words;
  uint32_t randBits, randnBits;
};

std::vector<Golden> readGoldens() {
  std::ifstream in(TCPU_GOLDENS_DIR "/philox_triton.txt");
  std::vector<Golden> goldens;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Golden g{};
    fields >> g.seed >> g.offset >> std::hex >> g.words[0] >> g.words[1] >> g.words[2] >>
        g.words[3] >> g.randBits >> g.randnBits;
    goldens.push_back(g);
  }
  return goldens;
}

// Philox 4x32-10 as described (counter and key as arrays, one round a function).
std::array<uint32_t, 4> referencePhilox(uint64_t seed, uint64_t offset) {
  std::array<uint32_t, 4> counter = {uint32_t(offset), uint32_t(offset >> 32), 0, 0};
  std::array<uint32_t, 2> key = {uint32_t(seed), uint32_t(seed >> 32)};
  const auto round = [](std::array<uint32_t, 4> c, std::array<uint32_t, 2> k) {
    const uint64_t productA = uint64_t{0xD2511F53u} * c[0];
    const uint64_t productB = uint64_t{0xCD9E8D57u} * c[2];
    return std::array<uint32_t, 4>{uint32_t(productB >> 32) ^ c[1] ^ k[0], uint32_t(productB),
                                   uint32_t(productA >> 32) ^ c[3] ^ k[1], uint32_t(productA)};
  };
  for (int i = 0; i < 10; ++i) {
    counter = round(counter, key);
    key[0] += 0x9E3779B9u;
    key[1] += 0xBB67AE85u;
  }
  return counter;
}

TEST(Philox, BitExactWithTritonOnAGpu) {
  const std::vector<Golden> goldens = readGoldens();
  ASSERT_EQ(goldens.size(), 6u * 30u) << "goldens file missing or truncated";
  float worstRandn = 0;
  for (const Golden& g : goldens) {
    const tcpu::tl::Philox4x32 words = tcpu::tl::randint4x(g.seed, g.offset);
    const std::array<uint32_t, 4> got = {words.c0, words.c1, words.c2, words.c3};
    EXPECT_EQ(got, g.words) << "seed " << g.seed << " offset " << g.offset;
    EXPECT_EQ(tcpu::tl::randint(g.seed, g.offset), g.words[0]);
    EXPECT_EQ(std::bit_cast<uint32_t>(tcpu::tl::rand(g.seed, g.offset)), g.randBits)
        << "rand, seed " << g.seed << " offset " << g.offset;
    const float randn = tcpu::tl::randn(g.seed, g.offset);
    const float tritonRandn = std::bit_cast<float>(g.randnBits);
    worstRandn = std::max(worstRandn, std::fabs(randn - tritonRandn));
  }
  // randn goes through log and cos, which differ between libdevice and the
  // host's math library in the last bits: a few ULP of values below ~6.
  EXPECT_LT(worstRandn, 4e-6f);
  RecordProperty("max_abs_randn_difference", std::to_string(worstRandn));
}

TEST(Philox, MatchesAnIndependentImplementation) {
  for (const uint64_t seed : {uint64_t{0}, uint64_t{42}, uint64_t{123}, uint64_t{512},
                              uint64_t{0xffffffff}, uint64_t{0xfcafeb0b}, ~uint64_t{0}}) {
    for (uint64_t i = 0; i < 20000; ++i) {
      const uint64_t offset = i * 0x9E3779B97F4A7C15ull; // spread over all 64 bits
      const tcpu::tl::Philox4x32 words = tcpu::tl::randint4x(seed, offset);
      const std::array<uint32_t, 4> got = {words.c0, words.c1, words.c2, words.c3};
      ASSERT_EQ(got, referencePhilox(seed, offset)) << "seed " << seed << " offset " << offset;
    }
  }
}

TEST(Philox, RandIsInTheUnitInterval) {
  for (uint64_t offset = 0; offset < 100000; ++offset) {
    const float u = tcpu::tl::rand(7, offset);
    ASSERT_GE(u, 0.0f);
    ASSERT_LT(u, 1.0f);
  }
  static_assert(tcpu::tl::randint(0, 0) == tcpu::tl::randint4x(0, 0).c0); // usable at compile time
}

} // namespace
