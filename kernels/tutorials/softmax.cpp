// Triton tutorial 02: fused softmax, persistent. Each program walks rows
// program_id(0), program_id(0) + num_programs(0), ...; a row fits one block
// (BLOCK_SIZE = next power of two >= n_cols), masked lanes load -inf.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

template <int BLOCK_SIZE>
struct softmax_kernel : tl::program {
  void operator()(float* output_ptr, const float* input_ptr, int32_t input_row_stride,
                  int32_t output_row_stride, int32_t n_rows, int32_t n_cols) const {
    const int32_t row_start = program_id(0);
    const int32_t row_step = num_programs(0);
    for (int32_t row_idx = row_start; row_idx < n_rows; row_idx += row_step) {
      const float* row_start_ptr = input_ptr + static_cast<int64_t>(row_idx) * input_row_stride;
      const auto col_offsets = tl::arange<0, BLOCK_SIZE>();
      const auto input_ptrs = row_start_ptr + col_offsets;
      const auto mask = col_offsets < n_cols;
      const auto row = tl::load(input_ptrs, mask, -INFINITY);
      const auto row_minus_max = row - tl::max(row);
      const auto numerator = tl::exp(row_minus_max);
      const float denominator = tl::sum(numerator);
      const auto softmax_output = numerator / denominator;
      float* output_row_start_ptr = output_ptr + static_cast<int64_t>(row_idx) * output_row_stride;
      tl::store(output_row_start_ptr + col_offsets, softmax_output, mask);
    }
  }
};

// One instantiation per power-of-two row block the host may pick.
TL_KERNEL(softmax_16, softmax_kernel<16>);
TL_KERNEL(softmax_32, softmax_kernel<32>);
TL_KERNEL(softmax_64, softmax_kernel<64>);
TL_KERNEL(softmax_128, softmax_kernel<128>);
TL_KERNEL(softmax_256, softmax_kernel<256>);
TL_KERNEL(softmax_512, softmax_kernel<512>);
TL_KERNEL(softmax_1024, softmax_kernel<1024>);
TL_KERNEL(softmax_2048, softmax_kernel<2048>);
TL_KERNEL(softmax_4096, softmax_kernel<4096>);
TL_KERNEL(softmax_8192, softmax_kernel<8192>);
