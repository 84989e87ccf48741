// Triton tutorial 03: blocked matmul C = A x B with the GROUP_SIZE_M
// program-id swizzle (programs that run together share B columns in cache),
// fp32 accumulation, optional leaky_relu epilogue.
//
// The tutorial wraps both row and column indices with `% M` and `% N` so loads never go out of
// bounds. The instantiations below mask B's columns with `< N` instead (an affine index, so each
// B row loads as one contiguous vector run; the lanes this changes are past N and never stored);
// matmul_f32_wrap keeps the tutorial's wrap, which tl turns into contiguous runs too wherever a
// tile does not reach past N (PtrCols, tl/memory.h): the two run at the same speed within
// noise (0.95-1.15x, bench/RESULTS.md, issue 19) and give the same bits.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

template <class T>
TL_INLINE auto leaky_relu(const T& x) {
  return tl::where(x >= 0.0f, x, 0.01f * x);
}

template <class In, class Out, int BLOCK_SIZE_M, int BLOCK_SIZE_N, int BLOCK_SIZE_K,
          int GROUP_SIZE_M, bool LEAKY_RELU, bool WRAP_COLUMNS = false>
struct matmul_kernel : tl::program {
  void operator()(const In* a_ptr, const In* b_ptr, Out* c_ptr, int32_t M, int32_t N, int32_t K,
                  int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn,
                  int32_t stride_cm, int32_t stride_cn) const {
    const int32_t pid = program_id(0);
    const int32_t num_pid_m = tl::cdiv(M, BLOCK_SIZE_M);
    const int32_t num_pid_n = tl::cdiv(N, BLOCK_SIZE_N);
    const int32_t num_pid_in_group = GROUP_SIZE_M * num_pid_n;
    const int32_t group_id = pid / num_pid_in_group;
    const int32_t first_pid_m = group_id * GROUP_SIZE_M;
    const int32_t group_size_m = std::min(num_pid_m - first_pid_m, GROUP_SIZE_M);
    const int32_t pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
    const int32_t pid_n = (pid % num_pid_in_group) / group_size_m;

    const auto offs_am = (pid_m * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>()) % M;
    const auto offs_k = tl::arange<0, BLOCK_SIZE_K>();
    auto a_ptrs = a_ptr + (tl::col(offs_am) * int64_t{stride_am} + tl::row(offs_k) * stride_ak);
    const auto offs_bn = pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
    const auto b_offs_n = [&] {
      if constexpr (WRAP_COLUMNS)
        return offs_bn % N; // the tutorial's form: every lane stays inside B
      else
        return offs_bn;
    }();
    auto b_ptrs = b_ptr + (tl::col(offs_k) * stride_bk + tl::row(b_offs_n) * stride_bn);
    const auto b_cols = tl::row(offs_bn) < N;

    auto accumulator = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
    for (int32_t k = 0; k < tl::cdiv(K, BLOCK_SIZE_K); ++k) {
      const auto a = tl::load(a_ptrs, tl::row(offs_k) < K - k * BLOCK_SIZE_K, 0.0f);
      const auto k_rows = tl::col(offs_k) < K - k * BLOCK_SIZE_K;
      const auto b = [&] {
        if constexpr (WRAP_COLUMNS)
          return tl::load(b_ptrs, k_rows, 0.0f);
        else
          return tl::load(b_ptrs, k_rows & b_cols, 0.0f);
      }();
      tl::dot_into(accumulator, a, b); // accumulator = tl.dot(a, b, accumulator), in place
      a_ptrs += BLOCK_SIZE_K * stride_ak;
      b_ptrs += BLOCK_SIZE_K * stride_bk;
    }
    if constexpr (LEAKY_RELU) accumulator = leaky_relu(accumulator);

    const auto offs_cm = pid_m * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>();
    const auto offs_cn = pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
    const auto c_ptrs = c_ptr + (tl::col(offs_cm) * stride_cm + tl::row(offs_cn) * stride_cn);
    const auto c_mask = (tl::col(offs_cm) < M) & (tl::row(offs_cn) < N);
    tl::store(c_ptrs, accumulator, c_mask); // store casts fp32 to Out, rounding to nearest even
  }
};

// The configuration, as Triton's autotuner would pick one for the machine: 64 x 64 tiles of C and
// BLOCK_SIZE_K 128, which measured 10-30 % faster than the 32 of Triton's GPU configurations on a
// 2-core Zen 4 (n = 512...2048, bench/RESULTS.md): a quarter of the k steps, so a quarter of the
// accumulator copies per tile, and rows of A read 512 bytes at a time. Each element of C still
// sums its products in k order, so the result does not depend on BLOCK_SIZE_K.
using tl::float16;
TL_KERNEL(matmul_f32, matmul_kernel<float, float, 64, 64, 128, 8, false>);
TL_KERNEL(matmul_f32_leaky_relu, matmul_kernel<float, float, 64, 64, 128, 8, true>);
TL_KERNEL(matmul_f16, matmul_kernel<float16, float16, 64, 64, 128, 8, false>);
TL_KERNEL(matmul_f16_leaky_relu, matmul_kernel<float16, float16, 64, 64, 128, 8, true>);
TL_KERNEL(matmul_f16_f32out, matmul_kernel<float16, float, 64, 64, 128, 8, false>);
// bf16 inputs: dot's products go through AMX's tiles or AVX512-BF16's vdpbf16ps where the CPU
// has them (tl/dot_bf16.h), with 128 x 128 x 128 blocks (one of the tutorial's own autotuning
// configurations): on the GPU host's Xeon (AMX) 1.3-1.5x the 2048 product's rate of 64 x 64 x 128
// at 1 and 16 threads, on a 2-core Zen 4 (vdpbf16ps) 1.13x (bench/RESULTS.md, issue 19).
using tl::bfloat16;
TL_KERNEL(matmul_bf16, matmul_kernel<bfloat16, bfloat16, 128, 128, 128, 8, false>);
TL_KERNEL(matmul_bf16_f32out, matmul_kernel<bfloat16, float, 128, 128, 128, 8, false>);
// The configuration for large products (one of the tutorial's own autotuning configurations):
// 128 x 128 tiles of C read each row of A and column of B half as often as 64 x 64 ones: at
// n = 1024 and 2048 they ran 0.94-1.16x as fast on a 2-core Zen 3 (within its noise) and
// 1.03-1.23x on the GPU host's 16-core Xeon (bench/RESULTS.md, issue 19);
// BLOCK_SIZE_K 64 keeps a k step's A and B blocks (32 KB each) as large as those of 64 x 64 x 128.
TL_KERNEL(matmul_f32_large, matmul_kernel<float, float, 128, 128, 64, 8, false>);
// The tutorial's own column wrap (`offs_bn % N`), for the benchmark and tests of its cost.
TL_KERNEL(matmul_f32_wrap, matmul_kernel<float, float, 64, 64, 128, 8, false, true>);
