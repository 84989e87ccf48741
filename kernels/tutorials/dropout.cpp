// Triton tutorial 04: seeded dropout. The keep mask comes from tl::rand on the
// element offsets, so it is reproducible from (seed, offset) alone and equal,
// bit for bit, to Triton's on a GPU.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

template <int BLOCK_SIZE>
struct seeded_dropout : tl::program {
  void operator()(const float* x_ptr, float* output_ptr, int32_t n_elements, float p,
                  int32_t seed) const {
    const int32_t pid = program_id(0);
    const int32_t block_start = pid * BLOCK_SIZE;
    const auto offsets = block_start + tl::arange<0, BLOCK_SIZE>();
    const auto mask = offsets < n_elements;
    const auto x = tl::load(x_ptr + offsets, mask);
    const auto random = tl::rand(static_cast<uint64_t>(static_cast<int64_t>(seed)), offsets);
    const auto x_keep = random > p;
    const auto output = tl::where(x_keep, x / (1 - p), 0.0f);
    tl::store(output_ptr + offsets, output, mask);
  }
};

TL_KERNEL(seeded_dropout, seeded_dropout<1024>);
