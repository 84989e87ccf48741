// Tutorial 01 (kernels/tutorials/vector_add.cpp) with a planted off-by-one: the
// mask is offsets <= n_elements, so the program holding element n touches one
// element past the end of every buffer. Bounds checking must catch it.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

template <int BLOCK_SIZE>
struct add_kernel_bad : tl::program {
  void operator()(const float* x_ptr, const float* y_ptr, float* output_ptr,
                  int32_t n_elements) const {
    const int32_t pid = program_id(0);
    const int32_t block_start = pid * BLOCK_SIZE;
    const auto offsets = block_start + tl::arange<0, BLOCK_SIZE>();
    const auto mask = offsets <= n_elements; // the bug: < is right
    const auto x = tl::load(x_ptr + offsets, mask);
    const auto y = tl::load(y_ptr + offsets, mask);
    tl::store(output_ptr + offsets, x + y, mask);
  }
};

TL_KERNEL(add_kernel_bad, add_kernel_bad<1024>);
