// tl/block_ptr.h through codegen (tl_block_ptr_test.cpp checks them).
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

constexpr int BM = 16, BN = 32;

// Program (i, j) loads the [BM, BN] block at (i * BM + om, j * BN + on) of an [m, n] tensor with
// strides (sm, sn) under boundary check `check` (a bit mask) and padding `nanPad`, and writes it
// densely to tiles[i][j]. Src is const (the load is a lazy view) or mutable (a block).
template <class Src>
struct load_2d : tl::program {
  void operator()(Src* src, int64_t m, int64_t n, int64_t sm, int64_t sn, int32_t om, int32_t on,
                  int32_t check, int32_t nanPad, float* tiles) const {
    const int32_t i = program_id(0), j = program_id(1);
    const auto p =
        tl::make_block_ptr<BM, BN>(src, {m, n}, {sm, sn}, {i * BM + om, j * BN + on}, {1, 0});
    const auto block = tl::load(p, check, nanPad ? tl::Padding::nan : tl::Padding::zero);
    const auto rows = tl::arange<0, BM>();
    const auto cols = tl::arange<0, BN>();
    float* out = tiles + (i * num_programs(1) + j) * BM * BN;
    tl::store(out + (tl::col(rows) * BN + tl::row(cols)), block);
  }
};
TL_KERNEL(load_2d_const, load_2d<const float>);
TL_KERNEL(load_2d_mutable, load_2d<float>);

// Program (i, j) stores value(r, c) = r * 1000 + c + 0.5 into the block at (i * BM + om, j * BN +
// on) of dst under boundary check `check`, with BoundaryCheck types for the common cases.
struct store_2d : tl::program {
  void operator()(float* dst, int64_t m, int64_t n, int64_t sm, int64_t sn, int32_t om, int32_t on,
                  int32_t check) const {
    const int32_t r0 = program_id(0) * BM + om, c0 = program_id(1) * BN + on;
    const auto p = tl::make_block_ptr<BM, BN>(dst, {m, n}, {sm, sn}, {r0, c0});
    const auto rows = tl::arange<0, BM>() + r0;
    const auto cols = tl::arange<0, BN>() + c0;
    const auto value = tl::cast<float>(tl::col(rows) * 1000 + tl::row(cols)) + 0.5f;
    if (check == 3)
      tl::store(p, value, tl::BoundaryCheck<0, 1>{});
    else if (check == 2)
      tl::store(p, value, tl::BoundaryCheck<1>{});
    else
      tl::store(p, value, check);
  }
};
TL_KERNEL(store_2d, store_2d);

// Rank 1 with advance: program 0 sums x[k * stride] over blocks of 64 (the last one ragged,
// padded with 0), and copies x into y block by block (strided both ways) with a checked store.
struct sum_1d : tl::program {
  void operator()(const float* x, int64_t n, int64_t stride, float* sums, float* y,
                  int64_t yStride) const {
    auto p = tl::make_block_ptr<64>(x, {n}, {stride}, {0});
    auto q = tl::make_block_ptr<64>(y, {n}, {yStride}, {0});
    tl::Block<float, 64> acc = tl::zeros<float, 64>();
    for (int64_t k = 0; k < n; k += 64) {
      const tl::Block<float, 64> v = tl::load(p, tl::BoundaryCheck<0>{});
      acc += v;
      tl::store(q, v, 1);
      p = tl::advance(p, 64);
      q = tl::advance(q, std::array<int32_t, 1>{64});
    }
    tl::store(sums + tl::arange<0, 64>(), acc);
  }
};
TL_KERNEL(sum_1d, sum_1d);

// Triton's block-pointer matmul: C = A x B, [M, K] x [K, N], any strides, tiles of 32 x 32 x 16,
// edges by boundary checks.
struct matmul_bp : tl::program {
  void operator()(const float* a, const float* b, float* c, int32_t m, int32_t n, int32_t k,
                  int64_t sam, int64_t sak, int64_t sbk, int64_t sbn, int64_t scm,
                  int64_t scn) const {
    const int32_t pm = program_id(0), pn = program_id(1);
    auto pa = tl::make_block_ptr<32, 16>(a, {m, k}, {sam, sak}, {pm * 32, 0}, {1, 0});
    auto pb = tl::make_block_ptr<16, 32>(b, {k, n}, {sbk, sbn}, {0, pn * 32}, {1, 0});
    tl::Block<float, 32, 32> acc = tl::zeros<float, 32, 32>();
    for (int32_t kk = 0; kk < k; kk += 16) {
      acc = tl::dot(tl::load(pa, tl::BoundaryCheck<0, 1>{}), tl::load(pb, 0b11), acc);
      pa = tl::advance(pa, 0, 16);
      pb = tl::advance(pb, 16, 0);
    }
    const auto pc = tl::make_block_ptr<32, 32>(c, {m, n}, {scm, scn}, {pm * 32, pn * 32});
    tl::store(pc, acc, tl::BoundaryCheck<0, 1>{});
  }
};
TL_KERNEL(matmul_bp, matmul_bp);
