// Triton tutorial 08: grouped GEMM. One persistent launch computes a list of
// independent problems C_g = A_g x B_g (row-major, leading dimensions given
// per problem). The tiles of all problems form one sequence; program p takes
// tiles p, p + P, p + 2P, ... walking the problem list.
//
// Departures: the tutorial's NUM_SM constexpr is num_programs(0) here, so the
// host picks the number of programs (one per core) without a recompile; and
// edges are masked, so problem sizes need not be multiples of the blocks.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

template <class T, int BLOCK_SIZE_M, int BLOCK_SIZE_N, int BLOCK_SIZE_K>
struct grouped_matmul_kernel : tl::program {
  // group_gemm_sizes: (M, N, K) per problem; g_lds: (lda, ldb, ldc).
  void operator()(const T* const* group_a_ptrs, const T* const* group_b_ptrs,
                  T* const* group_c_ptrs, const int32_t* group_gemm_sizes, const int32_t* g_lds,
                  int32_t group_size) const {
    int32_t tile_idx = program_id(0);
    const int32_t num_programs_0 = num_programs(0);
    int32_t last_problem_end = 0;
    for (int32_t g = 0; g < group_size; ++g) {
      const int32_t gm = tl::load(group_gemm_sizes + g * 3);
      const int32_t gn = tl::load(group_gemm_sizes + g * 3 + 1);
      const int32_t gk = tl::load(group_gemm_sizes + g * 3 + 2);
      const int32_t num_m_tiles = tl::cdiv(gm, BLOCK_SIZE_M);
      const int32_t num_n_tiles = tl::cdiv(gn, BLOCK_SIZE_N);
      const int32_t num_tiles = num_m_tiles * num_n_tiles;
      while (tile_idx >= last_problem_end && tile_idx < last_problem_end + num_tiles) {
        const int64_t lda = tl::load(g_lds + g * 3);
        const int64_t ldb = tl::load(g_lds + g * 3 + 1);
        const int64_t ldc = tl::load(g_lds + g * 3 + 2);
        const T* a_ptr = tl::load(group_a_ptrs + g);
        const T* b_ptr = tl::load(group_b_ptrs + g);
        T* c_ptr = tl::load(group_c_ptrs + g);
        const int32_t tile_idx_in_gemm = tile_idx - last_problem_end;
        const int32_t tile_m_idx = tile_idx_in_gemm / num_n_tiles;
        const int32_t tile_n_idx = tile_idx_in_gemm % num_n_tiles;

        const auto offs_am = tile_m_idx * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>();
        const auto offs_bn = tile_n_idx * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
        const auto offs_k = tl::arange<0, BLOCK_SIZE_K>();
        auto a_ptrs = a_ptr + (tl::col(offs_am) * lda + tl::row(offs_k));
        auto b_ptrs = b_ptr + (tl::col(offs_k) * ldb + tl::row(offs_bn));
        const auto a_rows = tl::col(offs_am) < gm;
        const auto b_cols = tl::row(offs_bn) < gn;
        auto accumulator = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
        for (int32_t kk = 0; kk < tl::cdiv(gk, BLOCK_SIZE_K); ++kk) {
          const int32_t k_left = gk - kk * BLOCK_SIZE_K;
          const auto a = tl::load(a_ptrs, a_rows & (tl::row(offs_k) < k_left), 0.0f);
          const auto b = tl::load(b_ptrs, (tl::col(offs_k) < k_left) & b_cols, 0.0f);
          accumulator = tl::dot(a, b, accumulator);
          a_ptrs += BLOCK_SIZE_K;
          b_ptrs += BLOCK_SIZE_K * ldb;
        }
        const auto c_ptrs = c_ptr + (tl::col(offs_am) * ldc + tl::row(offs_bn));
        tl::store(c_ptrs, accumulator, a_rows & b_cols); // rounds to T, nearest even
        tile_idx += num_programs_0;
      }
      last_problem_end += num_tiles;
    }
  }
};

using tl::float16;
TL_KERNEL(grouped_matmul_f16, grouped_matmul_kernel<float16, 64, 64, 32>);
TL_KERNEL(grouped_matmul_f32, grouped_matmul_kernel<float, 64, 64, 32>);
