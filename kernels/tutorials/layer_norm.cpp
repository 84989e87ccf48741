// Triton tutorial 05: layer norm. The forward pass walks a row in blocks
// (two passes for mean and variance, one to normalize). The backward pass
// computes dX per row and folds the row's dW/dB contributions into one of
// GROUP_SIZE_M partial buffers, each guarded by an atomic_cas spin lock; a
// second kernel sums the partial buffers into the final dW/dB.
//
// Statistics are always fp32; X, Y, W, B, dX, dY are T (fp32 or fp16).
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

template <class T, int BLOCK_SIZE>
struct layer_norm_fwd_fused : tl::program {
  void operator()(const T* X, T* Y, const T* W, const T* B, float* Mean, float* Rstd,
                  int32_t stride, int32_t N, float eps) const {
    const int32_t row = program_id(0);
    Y += static_cast<int64_t>(row) * stride;
    X += static_cast<int64_t>(row) * stride;
    auto _mean = tl::zeros<float, BLOCK_SIZE>();
    for (int32_t off = 0; off < N; off += BLOCK_SIZE) {
      const auto cols = off + tl::arange<0, BLOCK_SIZE>();
      _mean += tl::load(X + cols, cols < N, 0.0f).template to<float>();
    }
    const float mean = tl::sum(_mean) / static_cast<float>(N);
    auto _var = tl::zeros<float, BLOCK_SIZE>();
    for (int32_t off = 0; off < N; off += BLOCK_SIZE) {
      const auto cols = off + tl::arange<0, BLOCK_SIZE>();
      const auto x = tl::load(X + cols, cols < N, 0.0f).template to<float>();
      const auto xbar = tl::where(cols < N, x - mean, 0.0f);
      _var += xbar * xbar;
    }
    const float var = tl::sum(_var) / static_cast<float>(N);
    const float rstd = 1.0f / tl::sqrt(var + eps);
    tl::store(Mean + row, mean);
    tl::store(Rstd + row, rstd);
    for (int32_t off = 0; off < N; off += BLOCK_SIZE) {
      const auto cols = off + tl::arange<0, BLOCK_SIZE>();
      const auto mask = cols < N;
      const auto w = tl::load(W + cols, mask).template to<float>();
      const auto b = tl::load(B + cols, mask).template to<float>();
      const auto x = tl::load(X + cols, mask, 0.0f).template to<float>();
      const auto x_hat = (x - mean) * rstd;
      const auto y = x_hat * w + b;
      tl::store(Y + cols, y, mask);
    }
  }
};

// dX for one row, plus that row's dW/dB accumulated into partial buffer
// row % GROUP_SIZE_M. Lock holds GROUP_SIZE_M locks followed by
// GROUP_SIZE_M "buffer written" counts, all zero before the launch.
template <class T, int GROUP_SIZE_M, int BLOCK_SIZE_N>
struct layer_norm_bwd_dx_fused : tl::program {
  void operator()(T* DX, const T* DY, float* DW, float* DB, const T* X, const T* W,
                  const float* Mean, const float* Rstd, int32_t* Lock, int32_t stride,
                  int32_t N) const {
    const int32_t row = program_id(0);
    const auto cols = tl::arange<0, BLOCK_SIZE_N>();
    const auto mask = cols < N;
    X += static_cast<int64_t>(row) * stride;
    DY += static_cast<int64_t>(row) * stride;
    DX += static_cast<int64_t>(row) * stride;
    const int32_t lock_id = row % GROUP_SIZE_M;
    Lock += lock_id;
    int32_t* Count = Lock + GROUP_SIZE_M;
    const auto dw_ptrs = DW + static_cast<int64_t>(lock_id) * N + cols;
    const auto db_ptrs = DB + static_cast<int64_t>(lock_id) * N + cols;
    const auto x = tl::load(X + cols, mask, 0.0f).template to<float>();
    const auto dy = tl::load(DY + cols, mask, 0.0f).template to<float>();
    const auto w = tl::load(W + cols, mask).template to<float>();
    const float mean = tl::load(Mean + row);
    const float rstd = tl::load(Rstd + row);
    const auto xhat = tl::where(mask, (x - mean) * rstd, 0.0f);
    const auto wdy = tl::where(mask, w * dy, 0.0f);
    const float c1 = tl::sum(xhat * wdy) / static_cast<float>(N);
    const float c2 = tl::sum(wdy) / static_cast<float>(N);
    const auto dx = (wdy - (xhat * c1 + c2)) * rstd;
    tl::store(DX + cols, dx, mask);
    // The partial sums stay fp32 whatever T is, so the final dW/dB of an
    // fp16 run are not rounded GROUP_SIZE_M times.
    auto partial_dw = tl::eval(dy * xhat);
    auto partial_db = tl::eval(dy);
    while (tl::atomic_cas(Lock, 0, 1) == 1) {
    }
    const int32_t count = tl::load(Count);
    if (count == 0) {
      tl::atomic_xchg(Count, 1);
    } else {
      partial_dw += tl::load(dw_ptrs, mask);
      partial_db += tl::load(db_ptrs, mask);
    }
    tl::store(dw_ptrs, partial_dw, mask);
    tl::store(db_ptrs, partial_db, mask);
    // Releasing the lock is a sequentially consistent exchange: the stores
    // above are visible to the next holder (Triton's debug_barrier).
    tl::atomic_xchg(Lock, 0);
  }
};

// Sums the M partial rows of DW and DB, BLOCK_SIZE_N columns per program.
template <class T, int BLOCK_SIZE_M, int BLOCK_SIZE_N>
struct layer_norm_bwd_dwdb : tl::program {
  void operator()(const float* DW, const float* DB, T* FINAL_DW, T* FINAL_DB, int32_t M,
                  int32_t N) const {
    const int32_t pid = program_id(0);
    const auto cols = pid * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
    auto dw = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
    auto db = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
    for (int32_t i = 0; i < M; i += BLOCK_SIZE_M) {
      const auto rows = i + tl::arange<0, BLOCK_SIZE_M>();
      const auto mask = (tl::col(rows) < M) & (tl::row(cols) < N);
      const auto offs = tl::col(rows) * N + tl::row(cols);
      dw += tl::load(DW + offs, mask, 0.0f);
      db += tl::load(DB + offs, mask, 0.0f);
    }
    const auto sum_dw = tl::sum<0>(dw);
    const auto sum_db = tl::sum<0>(db);
    tl::store(FINAL_DW + cols, sum_dw, cols < N);
    tl::store(FINAL_DB + cols, sum_db, cols < N);
  }
};

using tl::float16;
// The forward pass loops over a row, so one block size serves every N.
TL_KERNEL(layer_norm_fwd_f32, layer_norm_fwd_fused<float, 1024>);
TL_KERNEL(layer_norm_fwd_f16, layer_norm_fwd_fused<float16, 1024>);
// The backward pass holds a whole row: one instantiation per power-of-two
// row block, GROUP_SIZE_M as the tutorial picks it for that N.
TL_KERNEL(layer_norm_bwd_dx_f32_256, layer_norm_bwd_dx_fused<float, 128, 256>);
TL_KERNEL(layer_norm_bwd_dx_f32_1024, layer_norm_bwd_dx_fused<float, 128, 1024>);
TL_KERNEL(layer_norm_bwd_dx_f32_4096, layer_norm_bwd_dx_fused<float, 96, 4096>);
TL_KERNEL(layer_norm_bwd_dx_f32_8192, layer_norm_bwd_dx_fused<float, 64, 8192>);
TL_KERNEL(layer_norm_bwd_dx_f16_1024, layer_norm_bwd_dx_fused<float16, 128, 1024>);
TL_KERNEL(layer_norm_bwd_dwdb_f32, layer_norm_bwd_dwdb<float, 32, 128>);
TL_KERNEL(layer_norm_bwd_dwdb_f16, layer_norm_bwd_dwdb<float16, 32, 128>);
