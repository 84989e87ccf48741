// Block forms of Triton's random numbers: one Philox stream per lane, keyed
// by the lane's offset. 32-bit offsets leave the high counter word 0; 64-bit
// offsets put their high word there (random.h).
#ifndef TCPU_TL_RANDOM_BLOCKS_H
#define TCPU_TL_RANDOM_BLOCKS_H

#include "tcpu/tl/core.h"
#include "tcpu/tl/random.h"

namespace tcpu::tl {

namespace detail {
// The offset as Triton widens it: 32-bit offsets by their bits, 64-bit as is.
template <class O>
TL_INLINE uint64_t philoxOffset(O offset) {
  if constexpr (sizeof(O) <= 4)
    return static_cast<uint32_t>(offset);
  else
    return static_cast<uint64_t>(offset);
}
} // namespace detail

// Philox is costly, so these blocks are computed once, where they are written.
template <Tensor O>
TL_INLINE auto randint(uint64_t seed, const O& offsets) {
  return map(offsets, [seed](auto o) { return randint(seed, detail::philoxOffset(o)); }).eval();
}
template <Tensor O>
TL_INLINE auto rand(uint64_t seed, const O& offsets) {
  return map(offsets, [seed](auto o) { return rand(seed, detail::philoxOffset(o)); }).eval();
}
template <Tensor O>
TL_INLINE auto randn(uint64_t seed, const O& offsets) {
  return map(offsets, [seed](auto o) { return randn(seed, detail::philoxOffset(o)); }).eval();
}

// randint4x(seed, offsets): four blocks of words, as Triton's tuple (tl.philox's 64-bit words
// too).
template <class B>
struct Philox4x32Blocks {
  B c0, c1, c2, c3;
};
template <Tensor O>
TL_INLINE auto randint4x(uint64_t seed, const O& offsets) {
  const auto words =
      map(offsets, [seed](auto o) { return randint4x(seed, detail::philoxOffset(o)); }).eval();
  using W = std::remove_cvref_t<decltype(words)>;
  using B = Block<uint32_t, W::rank == 2 ? W::rows : W::cols, W::rank == 2 ? W::cols : -1>;
  Philox4x32Blocks<B> out;
  for (int k = 0; k < W::size; ++k) {
    out.c0.v[k] = words.v[k].c0;
    out.c1.v[k] = words.v[k].c1;
    out.c2.v[k] = words.v[k].c2;
    out.c3.v[k] = words.v[k].c3;
  }
  return out;
}

} // namespace tcpu::tl

#endif
