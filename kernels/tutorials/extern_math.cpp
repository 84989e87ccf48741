// Triton tutorial 07: calling an extern math function (libdevice's asin on
// NVIDIA) over a block. Here tl::asin becomes llvm.asin and then SLEEF's
// vector asin (max error 1 ULP).
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

template <int BLOCK_SIZE>
struct asin_kernel : tl::program {
  void operator()(const float* x_ptr, float* y_ptr, int32_t n_elements) const {
    const int32_t pid = program_id(0);
    const int32_t block_start = pid * BLOCK_SIZE;
    const auto offsets = block_start + tl::arange<0, BLOCK_SIZE>();
    const auto mask = offsets < n_elements;
    const auto x = tl::load(x_ptr + offsets, mask);
    tl::store(y_ptr + offsets, tl::asin(x), mask);
  }
};

TL_KERNEL(asin_kernel, asin_kernel<1024>);
