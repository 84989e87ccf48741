// Kernels over tl's shape, scan and sort operations (tl/shape.h, tl/scan.h, tl/sort.h), as a
// translated Triton kernel would use them: compiled with clang to bitcode and run through
// codegen (tl_shape_scan_sort_test.cpp checks them against plain loops).
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

// A 16 x 32 block of x, moved around: each row flipped, the transpose (permute<1, 0>), the
// rows interleaved with twice themselves, a gather along rows through idx, the first and last
// columns joined and split again, and the block followed by 16 rows of their row numbers (cat).
struct shape_ops : tl::program {
  void operator()(const float* x, const int32_t* idx, float* flipped, float* transposed,
                  float* interleaved, float* gathered, float* ends, float* catted) const {
    const auto rows = tl::arange<0, 16>();
    const auto cols = tl::arange<0, 32>();
    const auto block = tl::load(x + (tl::col(rows) * 32 + tl::row(cols)));
    tl::store(flipped + (tl::col(rows) * 32 + tl::row(cols)), tl::flip(block));
    tl::store(transposed + (tl::col(cols) * 16 + tl::row(rows)), tl::permute<1, 0>(block));
    const auto wide = tl::interleave(block, block * 2.0f);
    tl::store(interleaved + (tl::col(rows) * 64 + tl::row(tl::arange<0, 64>())), wide);
    const auto index = tl::load(idx + (tl::col(rows) * 32 + tl::row(cols)));
    tl::store(gathered + (tl::col(rows) * 32 + tl::row(cols)), tl::gather<1>(block, index));
    const auto first = tl::reshape<16>(tl::gather<1>(block, tl::zeros<int32_t, 16, 1>()));
    const auto last = tl::reshape<16>(tl::gather<1>(block, tl::full<int32_t, 16, 1>(31)));
    const auto [a, b] = tl::split(tl::join(first, last));
    tl::store(ends + rows, a);
    tl::store(ends + 16 + rows, b);
    const auto tall = tl::cat(block, tl::broadcast_to<16, 32>(tl::col(rows)).to<float>());
    tl::store(catted + (tl::col(cols) * 32 + tl::row(cols)), tall);
  }
};
TL_KERNEL(shape_ops, shape_ops);

// Scans and reductions of a 16 x 64 block whose columns past n are masked (other = 1): cumsum
// along rows, reversed cumsum down columns, cumprod along rows; the linear recurrence
// state = a * state + b along rows (associative_scan2); each row's maximum and its first
// index (reduce2); each column's xor.
struct scans : tl::program {
  void operator()(const float* x, const uint32_t* a, const uint32_t* b, int32_t n, float* rowSums,
                  float* columnSums, float* products, uint32_t* recurrence, float* maxima,
                  int32_t* argmaxes, uint32_t* xors) const {
    const auto rows = tl::arange<0, 16>();
    const auto cols = tl::arange<0, 64>();
    const auto offsets = tl::col(rows) * 64 + tl::row(cols);
    const auto mask = tl::row(cols) < n;
    const auto block = tl::load(x + offsets, mask, 1.0f);
    tl::store(rowSums + offsets, tl::cumsum<1>(block));
    tl::store(columnSums + offsets, tl::cumsum<0, true>(block));
    tl::store(products + offsets, tl::cumprod<1>(block));
    const auto [products2, state] =
        tl::associative_scan2<1>(tl::load(a + offsets), tl::load(b + offsets),
                                 [](uint32_t a1, uint32_t b1, uint32_t a2, uint32_t b2) {
                                   return std::make_pair(a1 * a2, b1 * a2 + b2);
                                 });
    (void)products2;
    tl::store(recurrence + offsets, state);
    const auto [best, where] = tl::reduce2<1>(block, tl::broadcast_to<16, 64>(cols),
                                              [](float v0, int32_t i0, float v1, int32_t i1) {
                                                const bool gt = v0 > v1 || (v0 == v1 && i0 < i1);
                                                return std::make_pair(gt ? v0 : v1, gt ? i0 : i1);
                                              });
    tl::store(maxima + rows, best);
    tl::store(argmaxes + rows, where);
    tl::store(xors + cols, tl::xor_sum<0>(tl::load(a + offsets)));
  }
};
TL_KERNEL(scans, scans);

// Each row of an 8 x 64 block sorted (ascending) and its 4 largest, and the histogram of the
// first n of 1024 values in 16 bins.
struct sorting : tl::program {
  void operator()(const float* x, float* sorted, float* top, const int32_t* values, int32_t n,
                  int32_t* counts) const {
    const auto rows = tl::arange<0, 8>();
    const auto cols = tl::arange<0, 64>();
    const auto block = tl::load(x + (tl::col(rows) * 64 + tl::row(cols)));
    tl::store(sorted + (tl::col(rows) * 64 + tl::row(cols)), tl::sort(block));
    tl::store(top + (tl::col(rows) * 4 + tl::row(tl::arange<0, 4>())), tl::topk<4>(block));
    const auto offsets = tl::arange<0, 1024>();
    const auto v = tl::load(values + offsets, offsets < n, 0);
    tl::store(counts + tl::arange<0, 16>(), tl::histogram<16>(v, offsets < n));
  }
};
TL_KERNEL(sorting, sorting);
