// tl/atomic.h through codegen (tl_atomic_test.cpp checks them): every atomic
// under a parallel grid, and Triton's order for float max and min.
#include "tcpu/tl.h"

namespace tl = tcpu::tl;

// Every program of a large grid updates the same cells (64 lanes each unless said):
//   counts += 1 (block, no mask); pidSums += pid on lanes < 32 (block, mask);
//   orBits[pid / 32] |= 1 << pid % 32 (scalar); xorWords ^= pid * 2654435761 + lane (block);
//   andWord &= ~(1 << pid % 32) for pid < 20 (scalar); andWords64 &= ~(1 << pid % 64) on lane
//   pid % 64 (block, mask); floatSum += 0.5 (scalar); doubleSums += 0.25; halfSums += 1;
//   bfSums += 1 on lanes < 8 (mask, old values kept); floatMax max= -(pid + 1) / 4 - lane;
//   floatMin min= lane - pid / 2; doubleMax max= pid - 1000.5 - lane; intMax max= pid - 100
//   (a Block of pointers); uintMin min= 0x7ffffe00 + pid (unsigned order: as int32 these
//   straddle INT32_MIN); halfMax max= -pid;
// and the scalar counter, exchange slot, spin lock, float CAS loop and block CAS below.
struct atomic_grid : tl::program {
  void operator()(int32_t* counts, int64_t* pidSums, uint32_t* orBits, uint32_t* xorWords,
                  uint32_t* andWord, int64_t* andWords64, float* floatSum, double* doubleSums,
                  tl::float16* halfSums, tl::bfloat16* bfSums, float* floatMax, float* floatMin,
                  double* doubleMax, int32_t* intMax, uint32_t* uintMin, tl::float16* halfMax,
                  int32_t* counter, int32_t* counterOlds, int32_t* slot, int32_t* slotOlds,
                  int32_t* lock, int32_t* guarded, float* casFloat, int32_t* casCells,
                  int32_t* casOlds, int32_t* maskedOlds) const {
    const int32_t pid = program_id(0);
    const auto lanes = tl::arange<0, 64>();
    tl::atomic_add(counts + lanes, 1);
    tl::atomic_add(pidSums + lanes, static_cast<int64_t>(pid), lanes < 32);
    tl::atomic_or(orBits + pid / 32, 1u << (pid % 32));
    tl::atomic_xor(xorWords + lanes,
                   tl::cast<uint32_t>(lanes) + static_cast<uint32_t>(pid) * 2654435761u);
    if (pid < 20) tl::atomic_and(andWord, ~(1u << (pid % 32)));
    tl::atomic_and(andWords64 + lanes, ~(int64_t{1} << (pid % 64)), lanes == pid % 64);
    tl::atomic_add(floatSum, 0.5f);
    tl::atomic_add(doubleSums + lanes, 0.25);
    tl::atomic_add(halfSums + lanes, tl::float16(1));
    // The old values of a masked block atomic: 0 on the masked-off lanes.
    const auto bfOld = tl::atomic_add(bfSums + lanes, tl::bfloat16(1), lanes < 8);
    tl::store(maskedOlds + pid * 64 + lanes, tl::cast<int32_t>(tl::cast<float>(bfOld)) + 1000);
    tl::atomic_max(floatMax + lanes, -static_cast<float>(pid + 1) * 0.25f - tl::cast<float>(lanes));
    tl::atomic_min(floatMin + lanes, tl::cast<float>(lanes) - static_cast<float>(pid) * 0.5f);
    tl::atomic_max(doubleMax + lanes, pid - 1000.5 - tl::cast<double>(lanes));
    tl::atomic_max(intMax + lanes.eval(), pid - 100); // a Block of pointers
    tl::atomic_min(uintMin + lanes, 0x7ffffe00u + static_cast<uint32_t>(pid));
    tl::atomic_max(halfMax + lanes, static_cast<tl::float16>(-pid));

    counterOlds[pid] = tl::atomic_add(counter, 1);
    slotOlds[pid] = tl::atomic_xchg(slot, pid);

    // A spin lock around a plain read-modify-write (layer norm's pattern).
    while (tl::atomic_cas(lock, 0, 1) != 0) {
    }
    *guarded = *guarded + 1;
    tl::atomic_xchg(lock, 0);

    // A float add built from compare-and-swap on the float's bits.
    float seen = *casFloat;
    for (;;) {
      const float got = tl::atomic_cas(casFloat, seen, seen + 1.0f);
      if (tl::bitcast<uint32_t>(got) == tl::bitcast<uint32_t>(seen)) break;
      seen = got;
    }

    // Block compare-and-swap: one program wins each cell.
    tl::store(casOlds + pid * 64 + lanes, tl::atomic_cas(casCells + lanes, 0, pid + 1));
  }
};
TL_KERNEL(atomic_grid, atomic_grid);

// One program: maxOlds[k] = atomic_max(maxCells + k, values[k]), and so for min, in order.
template <class T>
struct float_extremes : tl::program {
  void operator()(T* maxCells, T* minCells, const T* values, T* maxOlds, T* minOlds,
                  int32_t n) const {
    for (int32_t k = 0; k < n; ++k) {
      maxOlds[k] = tl::atomic_max(maxCells + k, values[k]);
      minOlds[k] = tl::atomic_min(minCells + k, values[k]);
    }
  }
};
TL_KERNEL(f32_extremes, float_extremes<float>);
TL_KERNEL(f64_extremes, float_extremes<double>);

// A test-and-set lock (atomic_xchg until it returns 0) around a plain increment: its programs
// wait for each other, as the spin lock of atomic_grid's (tl_atomic_test.cpp checks the flag).
struct test_and_set : tl::program {
  void operator()(int32_t* lock, int32_t* guarded) const {
    while (tl::atomic_xchg(lock, 1) != 0) {
    }
    *guarded = *guarded + 1;
    tl::atomic_xchg(lock, 0);
  }
};
TL_KERNEL(test_and_set, test_and_set);

// Atomics that only update, and a compare-and-swap retried on the value it saw: no program waits
// for another, whatever the others do.
struct updates_only : tl::program {
  void operator()(float* sum, int32_t* counts, float* floatMax, float* casFloat) const {
    const auto lanes = tl::arange<0, 16>();
    tl::atomic_add(sum, 0.5f);
    tl::atomic_add(counts + lanes, 1);
    tl::atomic_max(floatMax + lanes, static_cast<float>(program_id(0)));
    float seen = *casFloat;
    for (;;) {
      const float got = tl::atomic_cas(casFloat, seen, seen + 1.0f);
      if (tl::bitcast<uint32_t>(got) == tl::bitcast<uint32_t>(seen)) break;
      seen = got;
    }
  }
};
TL_KERNEL(updates_only, updates_only);

// Block atomics whose lanes cross many stripes, from every program at once: a 16 x 128 block of
// int32 at cells + 3 with rows 100 apart (rows of consecutive lanes, unaligned to any stripe),
// columns < 97 on, each program adding 1 and keeping the old values (a ticket per program and
// cell); a block of pointers (the same cells reversed: gathered lanes, lock runs); and a strided
// row (every other element) where each program maxes in its id.
struct block_tickets : tl::program {
  void operator()(int32_t* cells, int32_t* tickets, int32_t* reversed, int32_t* strided) const {
    const int32_t pid = program_id(0);
    const auto rows = tl::arange<0, 16>();
    const auto cols = tl::arange<0, 128>();
    const auto offsets = tl::col(rows) * 100 + tl::row(cols);
    const auto on = (tl::row(cols) < 97) & (tl::col(rows) >= 0);
    const auto olds = tl::atomic_add(cells + 3 + offsets, 1, on);
    tl::store(tickets + pid * 16 * 128 + tl::col(rows) * 128 + tl::row(cols), olds);
    const auto lanes = tl::arange<0, 2048>();
    tl::atomic_add(reversed + (1599 - lanes), 2, lanes < 1600);
    tl::atomic_max(strided + lanes * 2, pid, lanes < 1000);
  }
};
TL_KERNEL(block_tickets, block_tickets);
