// Triton's counter-based random numbers (triton/language/random.py),
// bit-exact: Philox 4x32 with 10 rounds (and tl.philox's 4x64 form for 64-bit
// counters). Scalar functions of (seed, offset); the block forms of the tl
// language apply them per element.
#ifndef TCPU_TL_RANDOM_H
#define TCPU_TL_RANDOM_H

#include <cmath>
#include <cstdint>

namespace tcpu::tl {

struct Philox4x32 {
  uint32_t c0, c1, c2, c3;
};
struct Philox4x64 {
  uint64_t c0, c1, c2, c3;
};

namespace detail {

constexpr uint32_t kPhiloxRoundA = 0xD2511F53u;
constexpr uint32_t kPhiloxRoundB = 0xCD9E8D57u;
constexpr uint32_t kPhiloxKeyA = 0x9E3779B9u;
constexpr uint32_t kPhiloxKeyB = 0xBB67AE85u;

constexpr uint32_t mulhi(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
}

// Triton 3.6's constants for 64-bit counters (philox_impl's uint64 branch).
constexpr uint64_t kPhilox64RoundA = 0xD2E7470EE14C6C93ull;
constexpr uint64_t kPhilox64RoundB = 0xCA5A826395121157ull;
constexpr uint64_t kPhilox64KeyA = 0x9E3779B97F4A7C15ull;
constexpr uint64_t kPhilox64KeyB = 0xBB67AE8584CAA73Bull;

// (__extension__: g++ -Wpedantic refuses __int128 otherwise; the host builds of tl use g++.)
__extension__ typedef unsigned __int128 uint128;
constexpr uint64_t mulhi(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<uint128>(a) * b) >> 64);
}

// (int32 bits) -> uniform in [0, 1), as Triton's uint_to_uniform_float for 32 bits.
constexpr float uniform(uint32_t bits) {
  const auto x = static_cast<int32_t>(bits);
  const int32_t magnitude = x < 0 ? -x - 1 : x;
  return static_cast<float>(magnitude) * 4.6566127342e-10f;
}

} // namespace detail

namespace detail {
// Philox's rounds for either word width: a and b multiply, ka and kb raise the key.
template <int Rounds, class Words, class W>
constexpr Words philoxRounds(W c0, W c1, W c2, W c3, W k0, W k1, W a, W b, W ka, W kb) {
  for (int round = 0; round < Rounds; ++round) {
    const W oldC0 = c0, oldC2 = c2;
    c0 = mulhi(b, oldC2) ^ c1 ^ k0;
    c2 = mulhi(a, oldC0) ^ c3 ^ k1;
    c1 = static_cast<W>(b * oldC2);
    c3 = static_cast<W>(a * oldC0);
    k0 = static_cast<W>(k0 + ka);
    k1 = static_cast<W>(k1 + kb);
  }
  return {c0, c1, c2, c3};
}
} // namespace detail

// Philox 4x32-10 on counter (c0, c1, c2, c3) with key (k0, k1).
// Rounds: Triton's n_rounds (10 unless a kernel asks for another count).
template <int Rounds = 10>
constexpr Philox4x32 philox(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0,
                            uint32_t k1) {
  return detail::philoxRounds<Rounds, Philox4x32>(c0, c1, c2, c3, k0, k1, detail::kPhiloxRoundA,
                                                  detail::kPhiloxRoundB, detail::kPhiloxKeyA,
                                                  detail::kPhiloxKeyB);
}

// Philox 4x64 with Rounds rounds, as tl.philox computes it for 64-bit counters (the same
// round as 4x32, on 64-bit words with their own constants).
template <int Rounds = 10>
constexpr Philox4x64 philox64(uint64_t c0, uint64_t c1, uint64_t c2, uint64_t c3, uint64_t k0,
                              uint64_t k1) {
  return detail::philoxRounds<Rounds, Philox4x64>(c0, c1, c2, c3, k0, k1, detail::kPhilox64RoundA,
                                                  detail::kPhilox64RoundB, detail::kPhilox64KeyA,
                                                  detail::kPhilox64KeyB);
}

// The seed's two keys and the offset's two counter words, as Triton splits
// them: a 64-bit offset puts its high word in c1.
constexpr Philox4x32 randint4x(uint64_t seed, uint64_t offset) {
  return philox(static_cast<uint32_t>(offset), static_cast<uint32_t>(offset >> 32), 0, 0,
                static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
}

constexpr uint32_t randint(uint64_t seed, uint64_t offset) {
  return randint4x(seed, offset).c0;
}

constexpr float rand(uint64_t seed, uint64_t offset) {
  return detail::uniform(randint(seed, offset));
}

// Box-Muller on the first two words, as Triton's randn. Its log and cos are
// the target's math library (SLEEF on the CPU, libdevice on NVIDIA), so randn
// matches Triton to a few ULP, not bit for bit.
inline float randn(uint64_t seed, uint64_t offset) {
  const Philox4x32 words = randint4x(seed, offset);
  float u1 = detail::uniform(words.c0);
  const float u2 = detail::uniform(words.c1);
  u1 = u1 < 1.0e-7f ? 1.0e-7f : u1;
  const float theta = 6.283185307179586f * u2;
  const float radius = std::sqrt(-2.0f * std::log(u1));
  return radius * std::cos(theta);
}

} // namespace tcpu::tl

#endif // TCPU_TL_RANDOM_H
