// Row updates for kernels/atomic_rows: one program adds (or maxes) a row of `cols` values into
// out, through tl.atomic_add / tl.atomic_max or through load, add and store (the baseline: what
// the atomics cost when programs do not collide). Compiled to bitcode and loaded through codegen,
// as the front end's kernels are.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

enum class RowUpdate { LoadAddStore, AtomicAdd, AtomicMax };

template <RowUpdate Update, int BLOCK>
struct row_update : tl::program {
  void operator()(float* out, const float* in, int32_t cols) const {
    const int32_t row = program_id(0);
    const auto offsets = tl::arange<0, BLOCK>();
    const auto mask = offsets < cols;
    const auto x = tl::load(in + row * cols + offsets, mask);
    float* const target = out + row * cols;
    if constexpr (Update == RowUpdate::LoadAddStore)
      tl::store(target + offsets, tl::load(target + offsets, mask) + x, mask);
    else if constexpr (Update == RowUpdate::AtomicAdd)
      tl::atomic_add(target + offsets, x, mask);
    else
      tl::atomic_max(target + offsets, x, mask);
  }
};

TL_KERNEL(row_load_add_store, row_update<RowUpdate::LoadAddStore, 1024>);
TL_KERNEL(row_atomic_add, row_update<RowUpdate::AtomicAdd, 1024>);
TL_KERNEL(row_atomic_max, row_update<RowUpdate::AtomicMax, 1024>);

// A histogram of 256 bins: one atomic_add per element, lanes scattered over the bins, programs
// colliding all the time (the case the stripe locks make coarser than a locked instruction per
// element).
template <int BLOCK>
struct histogram : tl::program {
  void operator()(int32_t* bins, const int32_t* in, int32_t cols) const {
    const auto offsets = tl::arange<0, BLOCK>();
    const auto mask = offsets < cols;
    const auto x = tl::load(in + program_id(0) * cols + offsets, mask, 0);
    tl::atomic_add(bins + (x & 255), 1, mask);
  }
};

TL_KERNEL(histogram_256, histogram<1024>);
