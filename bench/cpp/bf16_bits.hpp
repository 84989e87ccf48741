// bf16 values as their 16 bits, for benchmark inputs (tcpu_bench and bench/aot, which builds
// without the rest of bench/): no compiler's __bf16 needed.
#ifndef TCPU_BENCH_BF16_BITS_HPP
#define TCPU_BENCH_BF16_BITS_HPP

#include <cstdint>
#include <cstring>

namespace tcpu::bench {

// x rounded to the nearest bf16, ties to even (x finite).
inline uint16_t bf16Bits(float x) {
  uint32_t word;
  std::memcpy(&word, &x, sizeof(word));
  return static_cast<uint16_t>((word + 0x7fffu + ((word >> 16) & 1u)) >> 16);
}

inline float bf16Value(uint16_t bits) {
  const uint32_t word = static_cast<uint32_t>(bits) << 16;
  float x;
  std::memcpy(&x, &word, sizeof(x));
  return x;
}

} // namespace tcpu::bench

#endif // TCPU_BENCH_BF16_BITS_HPP
