// Triton tutorial 06: fused attention forward (flash attention v2). Each
// program owns BLOCK_M query rows of one (batch, head); it streams K and V in
// BLOCK_N blocks, keeping a running row max m_i and row sum l_i (online
// softmax in base 2: the scale carries 1/ln 2 so exp2 replaces exp). Q, K, V
// and Out are fp16 [Z, H, N_CTX, HEAD_DIM]; scores and the accumulator are
// fp32, P is rounded to fp16 before P x V as in the tutorial. M receives the
// log2-sum-exp2 of each row (what the backward pass would reuse).
//
// STAGE 1 is non-causal. STAGE 3 is causal: first the blocks left of the
// diagonal without a mask, then the diagonal block with one.
//
// Departures, both for ragged sequence lengths (the tutorial requires
// N_CTX % BLOCK_M == 0): rows past N_CTX are masked on load and store, and
// key columns past N_CTX are masked like the causal mask. K is loaded as
// [BLOCK_N, HEAD_DIM] (contiguous rows) and transposed in registers, as
// later versions of the tutorial do (`k.T`).
#include "tcpu/tl.h"

namespace tl = tcpu::tl;
using tl::float16;

namespace {

template <int BLOCK_M, int HEAD_DIM, int BLOCK_N>
struct AttentionState {
  tl::Block<float, BLOCK_M, HEAD_DIM> acc;
  tl::Block<float, BLOCK_M> l_i, m_i;
};

// One sweep over key blocks [lo, hi). STAGE as in the tutorial's
// _attn_fwd_inner: 1 = blocks left of the diagonal, 2 = the diagonal block
// (causal mask), 3 = every block (non-causal).
template <int STAGE, int BLOCK_M, int HEAD_DIM, int BLOCK_N, class Q, class Offs>
TL_INLINE void attn_fwd_inner(AttentionState<BLOCK_M, HEAD_DIM, BLOCK_N>& s, const Q& q,
                              const float16* K, const float16* V, int32_t stride_kn,
                              int32_t stride_vk, int32_t start_m, float qk_scale,
                              const Offs& offs_m, int32_t N_CTX) {
  int32_t lo, hi;
  if constexpr (STAGE == 1) {
    lo = 0;
    hi = start_m * BLOCK_M;
  } else if constexpr (STAGE == 2) {
    lo = start_m * BLOCK_M;
    hi = std::min((start_m + 1) * BLOCK_M, N_CTX);
  } else {
    lo = 0;
    hi = N_CTX;
  }
  const auto offs_n = tl::arange<0, BLOCK_N>();
  const auto offs_d = tl::arange<0, HEAD_DIM>();
  for (int32_t start_n = lo; start_n < hi; start_n += BLOCK_N) {
    const auto rows_n = start_n + offs_n;
    const auto k_ptrs = K + (tl::col(rows_n) * int64_t{stride_kn} + tl::row(offs_d));
    const auto k = tl::load(k_ptrs, tl::col(rows_n) < N_CTX, 0.0f);
    const auto qk = tl::dot(q, tl::trans(k));
    tl::Block<float, BLOCK_M> m_ij;
    // p is built where it is named (a prvalue from either branch: no copy of the block), and
    // the scaled scores are an expression inside exp2, not a block of their own.
    const tl::Block<float, BLOCK_M, BLOCK_N> p = [&] {
      if (STAGE == 2 || start_n + BLOCK_N > N_CTX) {
        auto keep = tl::row(rows_n) < N_CTX;
        const auto mask = STAGE == 2 ? tl::eval((tl::col(offs_m) >= tl::row(rows_n)) & keep)
                                     : tl::eval(keep & (tl::col(offs_m) >= 0));
        const tl::Block<float, BLOCK_M, BLOCK_N> masked =
            qk * qk_scale + tl::where(mask, 0.0f, -1.0e6f);
        m_ij = tl::maximum(s.m_i, tl::max<1>(masked));
        return tl::exp2(masked - tl::col(m_ij));
      }
      m_ij = tl::maximum(s.m_i, tl::max<1>(qk) * qk_scale);
      return tl::exp2(qk * qk_scale - tl::col(m_ij)); // math functions evaluate where written
    }();
    const auto l_ij = tl::sum<1>(p);
    const auto alpha = tl::exp2(s.m_i - m_ij);
    s.l_i = s.l_i * alpha + l_ij;
    s.acc *= tl::col(alpha); // in place: `s.acc = s.acc * ...` would copy the block first
    const auto v_ptrs = V + (tl::col(rows_n) * int64_t{stride_vk} + tl::row(offs_d));
    const auto v = tl::load(v_ptrs, tl::col(rows_n) < N_CTX, 0.0f);
    tl::dot_into(s.acc, p.template to<float16>(), v);
    s.m_i = m_ij;
  }
}

} // namespace

template <int HEAD_DIM, int BLOCK_M, int BLOCK_N, int STAGE>
struct attn_fwd : tl::program {
  void operator()(const float16* Q, const float16* K, const float16* V, float sm_scale, float* M,
                  float16* Out, int32_t stride_qz, int32_t stride_qh, int32_t stride_qm,
                  int32_t stride_kz, int32_t stride_kh, int32_t stride_kn, int32_t stride_vz,
                  int32_t stride_vh, int32_t stride_vk, int32_t stride_oz, int32_t stride_oh,
                  int32_t stride_om, int32_t H, int32_t N_CTX) const {
    static_assert(BLOCK_M % BLOCK_N == 0, "the diagonal block is walked in BLOCK_N steps");
    const int32_t start_m = program_id(0);
    const int32_t off_hz = program_id(1);
    const int64_t off_z = off_hz / H;
    const int64_t off_h = off_hz % H;
    Q += off_z * stride_qz + off_h * stride_qh;
    K += off_z * stride_kz + off_h * stride_kh;
    V += off_z * stride_vz + off_h * stride_vh;
    Out += off_z * stride_oz + off_h * stride_oh;

    const auto offs_m = start_m * BLOCK_M + tl::arange<0, BLOCK_M>();
    const auto offs_d = tl::arange<0, HEAD_DIM>();
    AttentionState<BLOCK_M, HEAD_DIM, BLOCK_N> s;
    s.m_i = tl::zeros<float, BLOCK_M>() - INFINITY;
    s.l_i = tl::zeros<float, BLOCK_M>() + 1.0f;
    s.acc = tl::zeros<float, BLOCK_M, HEAD_DIM>();
    const float qk_scale = sm_scale * 1.44269504f; // 1 / ln(2)
    const auto row_mask = tl::col(offs_m) < N_CTX;
    const auto q =
        tl::load(Q + (tl::col(offs_m) * int64_t{stride_qm} + tl::row(offs_d)), row_mask, 0.0f);
    if constexpr (STAGE & 1)
      attn_fwd_inner<4 - STAGE>(s, q, K, V, stride_kn, stride_vk, start_m, qk_scale, offs_m, N_CTX);
    if constexpr (STAGE & 2)
      attn_fwd_inner<2>(s, q, K, V, stride_kn, stride_vk, start_m, qk_scale, offs_m, N_CTX);
    s.m_i += tl::log2(s.l_i);
    s.acc = s.acc / tl::col(s.l_i);
    tl::store(M + int64_t{off_hz} * N_CTX + offs_m, s.m_i, offs_m < N_CTX);
    tl::store(Out + (tl::col(offs_m) * int64_t{stride_om} + tl::row(offs_d)), s.acc, row_mask);
  }
};

TL_KERNEL(attn_fwd_d16, attn_fwd<16, 64, 32, 1>);
TL_KERNEL(attn_fwd_d16_causal, attn_fwd<16, 64, 32, 3>);
TL_KERNEL(attn_fwd_d64, attn_fwd<64, 64, 32, 1>);
TL_KERNEL(attn_fwd_d64_causal, attn_fwd<64, 64, 32, 3>);
// One of the tutorial's autotuning configurations (BLOCK_M 128, BLOCK_N 64): per key block, the
// softmax bookkeeping and the rescaling of acc are spread over four times the products.
TL_KERNEL(attn_fwd_d64_large, attn_fwd<64, 128, 64, 1>);
TL_KERNEL(attn_fwd_d64_causal_large, attn_fwd<64, 128, 64, 3>);
TL_KERNEL(attn_fwd_d128, attn_fwd<128, 64, 32, 1>);
TL_KERNEL(attn_fwd_d128_causal, attn_fwd<128, 64, 32, 3>);
