// Triton tutorial 01: vector addition, one BLOCK_SIZE block per program.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

template <int BLOCK_SIZE>
struct add_kernel : tl::program {
  void operator()(const float* x_ptr, const float* y_ptr, float* output_ptr,
                  int32_t n_elements) const {
    const int32_t pid = program_id(0);
    const int32_t block_start = pid * BLOCK_SIZE;
    const auto offsets = block_start + tl::arange<0, BLOCK_SIZE>();
    const auto mask = offsets < n_elements;
    const auto x = tl::load(x_ptr + offsets, mask);
    const auto y = tl::load(y_ptr + offsets, mask);
    tl::store(output_ptr + offsets, x + y, mask);
  }
};

TL_KERNEL(add_kernel, add_kernel<1024>);
