// Small kernels that exercise one tl feature each (tl_test.cpp checks them).
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

// Per row of a 16 x 32 block: sum, max, min, argmax, argmin along axis 1, and
// column sums along axis 0.
struct reductions : tl::program {
  void operator()(const float* x, float* sums, float* maxes, float* mins, int32_t* argmaxes,
                  int32_t* argmins, float* colSums) const {
    const auto rows = tl::arange<0, 16>();
    const auto cols = tl::arange<0, 32>();
    const auto block = tl::load(x + (tl::col(rows) * 32 + tl::row(cols)));
    tl::store(sums + rows, tl::sum<1>(block));
    tl::store(maxes + rows, tl::max<1>(block));
    tl::store(mins + rows, tl::min<1>(block));
    tl::store(argmaxes + rows, tl::argmax<1>(block));
    tl::store(argmins + rows, tl::argmin<1>(block));
    tl::store(colSums + cols, tl::sum<0>(block));
  }
};
TL_KERNEL(reductions, reductions);

// fp32 -> fp16 and bf16 (round to nearest even) and back.
struct casts : tl::program {
  void operator()(const float* x, tl::float16* half, tl::bfloat16* brain, int32_t n) const {
    const auto offsets = program_id(0) * 256 + tl::arange<0, 256>();
    const auto mask = offsets < n;
    const auto v = tl::load(x + offsets, mask);
    tl::store(half + offsets, v.to<tl::float16>(), mask);
    tl::store(brain + offsets, tl::cast<tl::bfloat16>(v), mask);
  }
};
TL_KERNEL(casts, casts);

// Gathers and scatters through explicit index blocks: out[perm[i]] = x[perm[i]] * 2.
struct gather_scatter : tl::program {
  void operator()(const float* x, const int32_t* perm, float* out, int32_t n) const {
    const auto offsets = program_id(0) * 64 + tl::arange<0, 64>();
    const auto mask = offsets < n;
    const auto index = tl::load(perm + offsets, mask);
    const auto inRange = tl::where(mask, index, 0); // masked lanes must not gather garbage
    const auto values = tl::load(x + inRange, mask, 0.0f);
    tl::store(out + inRange, values * 2.0f, mask);
  }
};
TL_KERNEL(gather_scatter, gather_scatter);

// Atomics: every program bumps a counter (recording the old value), takes
// the max of its id, and adds 1 to bins[id % 8] through a block atomic.
struct atomics : tl::program {
  void operator()(int32_t* counter, int32_t* olds, int32_t* maxId, float* floatSum,
                  int32_t* bins) const {
    const int32_t pid = program_id(0);
    olds[pid] = tl::atomic_add(counter, 1);
    tl::atomic_max(maxId, pid);
    tl::atomic_add(floatSum, 0.5f);
    const auto lanes = tl::arange<0, 8>();
    tl::atomic_add(bins + lanes, 1, lanes == pid % 8);
    // A CAS that must fail (the value is never -1) returns the current value.
    if (tl::atomic_cas(counter, -1, 5) == -1) olds[pid] = -1000;
  }
};
TL_KERNEL(atomics, atomics);

// Philox block forms for 64-bit offsets base + i.
struct philox_blocks : tl::program {
  void operator()(uint64_t seed, uint64_t base, uint32_t* c0, uint32_t* c1, uint32_t* c2,
                  uint32_t* c3, uint32_t* ints, float* uniforms, float* normals) const {
    const auto lanes = tl::arange<0, 64>();
    const auto offsets =
        tl::map(lanes.eval(), [base](int32_t i) { return base + static_cast<uint64_t>(i); });
    const auto words = tl::randint4x(seed, offsets);
    tl::store(c0 + lanes, words.c0);
    tl::store(c1 + lanes, words.c1);
    tl::store(c2 + lanes, words.c2);
    tl::store(c3 + lanes, words.c3);
    tl::store(ints + lanes, tl::randint(seed, offsets));
    tl::store(uniforms + lanes, tl::rand(seed, offsets));
    tl::store(normals + lanes, tl::randn(seed, offsets));
  }
};
TL_KERNEL(philox_blocks, philox_blocks);

// device_assert: every element must be below `limit`.
struct checked : tl::program {
  void operator()(const int32_t* x, int32_t limit) const {
    const auto offsets = program_id(0) * 16 + tl::arange<0, 16>();
    const auto values = tl::load(x + offsets);
    if (!device_assert(values < limit, "values < limit")) return;
  }
};
TL_KERNEL(checked, checked);

// device_print of a scalar and a 2 x 2 block.
struct printing : tl::program {
  void operator()(const float* x) const {
    device_print("pid", program_id(0));
    const auto r = tl::arange<0, 2>();
    device_print("x", tl::load(x + (tl::col(r) * 2 + tl::row(r))));
  }
};
TL_KERNEL(printing, printing);

// One template, two named instantiations (SPECIALIZE in CMake adds a third).
template <int SCALE>
struct scale_by : tl::program {
  void operator()(float* x) const {
    const auto lanes = tl::arange<0, 4>();
    tl::store(x + lanes, tl::load(x + lanes) * static_cast<float>(SCALE));
  }
};
TL_KERNEL(scale_by_2, scale_by<2>);
TL_KERNEL(scale_by_3, scale_by<3>);

// Value semantics of lazy blocks. A load through a mutable pointer is a
// snapshot: swapping a and b in place must not turn into a copy. A mutable
// block read by an expression is copied into it: `d = m - 1; m = 0;` leaves d
// as it was. A load through a pointer to const is read where it is used,
// here with a ragged mask, a strided column and `other`.
struct value_semantics : tl::program {
  void operator()(float* a, float* b, const float* c, float* out, int32_t n) const {
    const auto offsets = tl::arange<0, 64>();
    const auto mask = offsets < n;
    const auto old_a = tl::load(a + offsets, mask);
    const auto old_b = tl::load(b + offsets, mask);
    tl::store(a + offsets, old_b, mask);
    tl::store(b + offsets, old_a, mask); // old_a is the value before the first store
    auto m = tl::full<float, 64>(5.0f);
    const auto d = m - 1.0f;
    m = tl::zeros<float, 64>();
    const auto strided = tl::load(c + offsets * 2, mask, -1.0f); // every other element
    const auto fused = d + strided * 2.0f + m;                   // m is 0 now, d still 4
    tl::store(out + offsets, fused, mask);
    tl::store(out + 64 + offsets, tl::sum(strided) + tl::zeros<float, 64>());
  }
};
TL_KERNEL(value_semantics, value_semantics);

// Expressions of masked loads over an 8 x 32 block with the rectangle mask rows < m, lo <= cols
// < hi: evaluated in two parts (a rectangle without masks, one value outside it) where the
// operands share the rectangle, lane by lane where they do not. out[0]: (x - s) * 2 evaluated into
// a block; out[1]: x * y with the same mask, stored through the mask; out[2]: x + z, where z's
// mask is cols < hi only; out[3]: row sums of (x - s) * 2.
struct masked_expressions : tl::program {
  void operator()(const float* x, const float* y, const float* z, float* out, int32_t m, int32_t lo,
                  int32_t hi, float s) const {
    const auto rows = tl::arange<0, 8>();
    const auto cols = tl::arange<0, 32>();
    const auto offsets = tl::col(rows) * 32 + tl::row(cols);
    const auto mask = (tl::col(rows) < m) & (tl::row(cols) >= lo) & (tl::row(cols) < hi);
    const auto xs = tl::load(x + offsets, mask, -1.5f);
    const auto ys = tl::load(y + offsets, mask, 4.0f);
    const auto zs = tl::load(z + offsets, (tl::col(rows) < m) & (tl::row(cols) < hi), 0.25f);
    const auto scaled = ((xs - s) * 2.0f).eval();
    tl::store(out + offsets, scaled);
    tl::store(out + 256 + offsets, xs * ys, mask);
    tl::store(out + 512 + offsets, (xs + zs).eval());
    tl::store(out + 768 + rows, tl::sum<1>((xs - s) * 2.0f));
  }
};
TL_KERNEL(masked_expressions, masked_expressions);
