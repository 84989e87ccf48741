// Atomics that return the old value, as tl.atomic_*: on one address, or per
// lane of a pointer block (a Block of pointers, or `ptr + offsets` with Lin or
// Outer offsets) under an optional mask; masked-off lanes touch nothing and
// return 0. Each update is made under the lock of the stripe of memory its
// address falls in (platform.h says why, and why that is Triton's acq_rel per
// element); Triton's `sem` and `scope` ask for no more than that, so they are
// not taken. A cas that fails writes nothing; other updates write their lane
// even where its value stays (a plain store racing with an atomic on the same
// element is a data race in PTX's memory model too).
//
// Element types: add, xchg and cas on 16-, 32- and 64-bit integers and floats
// (fp16, bf16, fp32, fp64); max and min on integers (signed or unsigned
// compare, by the type) and floats; and, or and xor on integers.
#ifndef TCPU_TL_ATOMIC_H
#define TCPU_TL_ATOMIC_H

#include <bit>

#include "tcpu/tl/memory.h"

namespace tcpu::tl {

namespace detail {

template <class T>
using atomic_word_t = std::conditional_t<sizeof(T) == 2, uint16_t,
                                         std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;

// update(old) in place of old, under the lock of p's stripe, which the caller holds; returns
// old. Written back even where unchanged: a branch on the value read would look to codegen like
// a program waiting on it.
template <class T, class F>
TL_INLINE T updateHeld(T* p, F update) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "atomics work on 16-, 32- and 64-bit values");
  using W = atomic_word_t<T>;
  auto* word = reinterpret_cast<W*>(p);
  const W seen = platform::lockedRead(word);
  const W next = std::bit_cast<W>(static_cast<T>(update(std::bit_cast<T>(seen))));
  platform::lockedWrite(word, next);
  return std::bit_cast<T>(seen);
}

// The GPU's form of atomicApply: a compare-and-swap loop on the value's bits.
template <class T, class F>
TL_INLINE T hardwareApply(T* p, F update) {
  using W = atomic_word_t<T>;
  auto* word = reinterpret_cast<W*>(p);
  W seen = platform::lockedRead(word);
  for (;;) {
    const W next = std::bit_cast<W>(static_cast<T>(update(std::bit_cast<T>(seen))));
    const W got = platform::hardwareCompareExchange(word, seen, next);
    if (got == seen) return std::bit_cast<T>(seen);
    seen = got;
  }
}

template <class T, class F>
TL_INLINE T atomicApply(T* p, F update) {
  if (!platform::atomicsUseStripeLocks()) return hardwareApply(p, update);
  const platform::AtomicStripeGuard guard(p);
  return updateHeld(p, update);
}

// Triton's float max and min work on the bits: where the value's sign bit is clear, a signed
// integer max (min) of the bit patterns; where it is set, an unsigned min (max). Both orders agree
// with the numbers' for finite values and infinities of either sign, place -0 below +0, NaN with
// the sign clear above +inf and NaN with it set below -inf (IEEE 754's totalOrder).
template <bool Max, class T>
TL_INLINE T floatExtreme(T old, T value) {
  using U = atomic_word_t<T>;
  using S = std::make_signed_t<U>;
  const U o = std::bit_cast<U>(old), v = std::bit_cast<U>(value);
  const bool negative = (v >> (8 * sizeof(U) - 1)) != 0;
  U result;
  if (negative)
    result = (Max ? o < v : o > v) ? o : v; // unsigned
  else
    result = (Max ? static_cast<S>(o) > static_cast<S>(v) : static_cast<S>(o) < static_cast<S>(v))
                 ? o
                 : v;
  return std::bit_cast<T>(result);
}

template <bool Max, class T>
TL_INLINE T extremeUpdate(T old, T value) {
  if constexpr (std::is_integral_v<T>)
    return (Max ? old > value : old < value) ? old : value;
  else
    return floatExtreme<Max>(old, value);
}

// Integer arithmetic wraps (as on a GPU), through the unsigned type.
template <class T>
TL_INLINE T atomicSum(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return static_cast<T>(static_cast<compute_t<T>>(a) + static_cast<compute_t<T>>(b));
  }
}

template <class T>
inline constexpr bool atomic_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The new value of each read-modify-write, from the old one and the operand.
struct AddUpdate {
  template <class T>
  TL_INLINE T operator()(T old, T v) const {
    return atomicSum(old, v);
  }
};
template <bool Max>
struct ExtremeUpdate {
  template <class T>
  TL_INLINE T operator()(T old, T v) const {
    return extremeUpdate<Max>(old, v);
  }
};
struct XchgUpdate {
  template <class T>
  TL_INLINE T operator()(T, T v) const {
    return v;
  }
};
#define TL_BITWISE_UPDATE(Name, op)                                                                \
  struct Name {                                                                                    \
    template <class T>                                                                             \
    TL_INLINE T operator()(T old, T v) const {                                                     \
      static_assert(atomic_integer_v<T>, "bitwise atomics work on integers");                      \
      return static_cast<T>(old op v);                                                             \
    }                                                                                              \
  };
TL_BITWISE_UPDATE(AndUpdate, &)
TL_BITWISE_UPDATE(OrUpdate, |)
TL_BITWISE_UPDATE(XorUpdate, ^)
#undef TL_BITWISE_UPDATE

template <class Update, class T, class V>
TL_INLINE T atomicScalar(T* p, V value) {
  const T v = static_cast<T>(value);
  return atomicApply(p, [v](T old) { return Update{}(old, v); });
}

// The rows and columns of a pointer block's lanes: a Ptr's (a base, row offsets and a column
// step, kept structured) or a materialized block's.
template <class P>
struct LaneShape {
  using type = std::remove_cvref_t<decltype(eval(std::declval<const P&>()))>;
  static constexpr bool structured = false;
};
template <class T, int D0, int D1>
struct LaneShape<Ptr<T, D0, D1>> {
  using type = typename Ptr<T, D0, D1>::shape;
  static constexpr bool structured = true;
};
template <class P>
using lane_shape_t = typename LaneShape<std::remove_cvref_t<P>>::type;

template <class T, class Sh>
using old_block_t = Block<T, Sh::rank == 2 ? Sh::rows : Sh::cols, Sh::rank == 2 ? Sh::cols : -1>;

// Row i's lanes updated one at a time, each under its stripe's lock, which stays held while the
// next lanes fall under the same lock (one lock at a time, never two). address(j) is lane
// (i, j)'s address; update(j, address) updates it under the held lock and returns its old value.
template <int Cols, class T, class M, class A, class U>
TL_INLINE void atomicRowLanes(int i, const M& m, A address, U update, T* rowOld) {
  uint32_t* held = nullptr;
  for (int j = 0; j < Cols; ++j) {
    if (!get(m, i, j)) {
      rowOld[j] = T(0);
      continue;
    }
    T* const lane = address(j);
    uint32_t* lock = platform::atomicStripeLock(lane);
    if (lock != held) {
      if (held) platform::unlockAtomicStripe(held);
      platform::lockAtomicStripe(lock);
      held = lock;
    }
    rowOld[j] = update(j, lane);
  }
  if (held) platform::unlockAtomicStripe(held);
}

// Row i's lanes at consecutive addresses from `start` (the usual `ptr + offsets`), updated a
// stripe at a time: the stripe's lanes together under its lock, as plain loads, operations and
// masked stores that vectorize.
template <int Cols, class Update, class T, class M, class V>
TL_INLINE void atomicRowRun(int i, T* start, const M& m, const V& v, T* rowOld) {
  for (int first = 0; first < Cols;) {
    const auto room = static_cast<int64_t>(
        (platform::atomicStripeEnd(start + first) - reinterpret_cast<uintptr_t>(start + first)) /
        sizeof(T));
    const int last = room < Cols - first ? first + static_cast<int>(room) : Cols;
    const platform::AtomicStripeGuard guard(start + first);
    for (int j = first; j < last; ++j) {
      const bool on = get(m, i, j);
      const T seen = on ? start[j] : T(0);
      const T next = Update{}(seen, static_cast<T>(get(v, i, j)));
      if (on) start[j] = next;
      rowOld[j] = seen;
    }
    first = last;
  }
}

// A read-modify-write on every lane of a pointer block, the operand broadcast to its shape: each
// row whose lanes are consecutive (a Ptr with column step 1, or a block of pointers found so) a
// stripe at a time, other rows lane by lane.
template <class Update, class P, class M, class V>
TL_INLINE auto atomicBlock(const P& ptrs, const M& mask, const V& value) {
  const auto& m = eval(mask);
  const auto& v = eval(value);
  using Sh = lane_shape_t<P>;
  using T = std::remove_pointer_t<element_t<std::remove_cvref_t<decltype(eval(ptrs))>>>;
  old_block_t<T, Sh> old;
  if (!platform::atomicsUseStripeLocks()) { // a GPU's: per lane
    const auto& p = eval(ptrs);
    for (int i = 0; i < Sh::rows; ++i)
      for (int j = 0; j < Sh::cols; ++j) {
        const T operand = static_cast<T>(get(v, i, j));
        old.v[i * Sh::cols + j] =
            get(m, i, j) ? atomicApply(p.v[i * Sh::cols + j],
                                       [operand](T seen) { return Update{}(seen, operand); })
                         : T(0);
      }
    return old;
  }
  const auto lanes = [&](int i, auto address) {
    atomicRowLanes<Sh::cols>(
        i, m, address,
        [&](int j, T* lane) {
          const T operand = static_cast<T>(get(v, i, j));
          return updateHeld(lane, [operand](T seen) { return Update{}(seen, operand); });
        },
        old.v + i * Sh::cols);
  };
  if constexpr (LaneShape<std::remove_cvref_t<P>>::structured) {
    for (int i = 0; i < Sh::rows; ++i)
      if (ptrs.colStep == 1)
        atomicRowRun<Sh::cols, Update>(i, ptrs.base + ptrs.row[i], m, v, old.v + i * Sh::cols);
      else
        lanes(i, [&](int j) { return ptrs.address(i, j); });
  } else {
    const auto& p = eval(ptrs);
    for (int i = 0; i < Sh::rows; ++i) {
      T* const* row = p.v + i * Sh::cols;
      bool consecutive = true;
      for (int j = 0; j < Sh::cols; ++j)
        consecutive &= row[j] == row[0] + j;
      if (consecutive)
        atomicRowRun<Sh::cols, Update>(i, row[0], m, v, old.v + i * Sh::cols);
      else
        lanes(i, [row](int j) { return row[j]; });
    }
  }
  return old;
}

} // namespace detail

#define TL_RMW_ATOMIC(name, Update)                                                                \
  template <class T, Scalar V>                                                                     \
  TL_INLINE T name(T* p, V value) {                                                                \
    return detail::atomicScalar<detail::Update>(p, value);                                         \
  }                                                                                                \
  template <Tensor P, Operand V, Operand M = bool>                                                 \
  TL_INLINE auto name(const P& ptrs, const V& value, const M& mask = true) {                       \
    return detail::atomicBlock<detail::Update>(ptrs, mask, value);                                 \
  }
TL_RMW_ATOMIC(atomic_add, AddUpdate)
TL_RMW_ATOMIC(atomic_max, ExtremeUpdate<true>)
TL_RMW_ATOMIC(atomic_min, ExtremeUpdate<false>)
TL_RMW_ATOMIC(atomic_xchg, XchgUpdate)
TL_RMW_ATOMIC(atomic_and, AndUpdate)
TL_RMW_ATOMIC(atomic_or, OrUpdate)
TL_RMW_ATOMIC(atomic_xor, XorUpdate)
#undef TL_RMW_ATOMIC

namespace detail {
// A compare-and-swap under the lock of p's stripe, which the caller holds (on a CPU): the
// processor's own (one more locked instruction, on an uncontended line), so that codegen's search
// for waiting programs tells a spin lock's cas (expecting a fixed value) from a retry loop's
// (expecting what the loop read) as it does for any compare-and-swap. Floats compare by their bits,
// as the GPU's cas does.
template <class T>
TL_INLINE T casHeld(T* p, T compare, T desired) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "atomics work on 16-, 32- and 64-bit values");
  using W = atomic_word_t<T>;
  if (!platform::atomicsUseStripeLocks()) // a GPU's: no lock is held
    return std::bit_cast<T>(platform::hardwareCompareExchange(
        reinterpret_cast<W*>(p), std::bit_cast<W>(compare), std::bit_cast<W>(desired)));
  return std::bit_cast<T>(platform::lockedCompareExchange(
      reinterpret_cast<W*>(p), std::bit_cast<W>(compare), std::bit_cast<W>(desired)));
}
} // namespace detail

// Compare-and-swap returning the value seen.
template <class T, Scalar C, Scalar V>
TL_INLINE T atomic_cas(T* p, C compare, V value) {
  if (!platform::atomicsUseStripeLocks())
    return detail::casHeld(p, static_cast<T>(compare), static_cast<T>(value));
  const platform::AtomicStripeGuard guard(p);
  return detail::casHeld(p, static_cast<T>(compare), static_cast<T>(value));
}

// Per lane: compare and value broadcast to the pointers' shape, lane by lane (a block of locks'
// cas is a contended loop's, not a stream's). (Triton's atomic_cas has no mask; one is taken here
// for symmetry with the others.)
template <Tensor P, Operand C, Operand V, Operand M = bool>
TL_INLINE auto atomic_cas(const P& ptrs, const C& compare, const V& value, const M& mask = true) {
  const auto& p = eval(ptrs);
  const auto& c = eval(compare);
  const auto& v = eval(value);
  const auto& m = eval(mask);
  using PB = std::remove_cvref_t<decltype(p)>;
  using T = std::remove_pointer_t<element_t<PB>>;
  detail::old_block_t<T, PB> old;
  if (!platform::atomicsUseStripeLocks()) { // a GPU's: per lane, no locks
    for (int k = 0; k < PB::rows * PB::cols; ++k) {
      const int i = k / PB::cols, j = k % PB::cols;
      old.v[k] = detail::get(m, i, j)
                     ? detail::casHeld(p.v[k], static_cast<T>(detail::get(c, i, j)),
                                       static_cast<T>(detail::get(v, i, j)))
                     : T(0);
    }
    return old;
  }
  for (int i = 0; i < PB::rows; ++i)
    detail::atomicRowLanes<PB::cols>(
        i, m, [&](int j) { return p.v[i * PB::cols + j]; },
        [&](int j, T* lane) {
          return detail::casHeld(lane, static_cast<T>(detail::get(c, i, j)),
                                 static_cast<T>(detail::get(v, i, j)));
        },
        old.v + i * PB::cols);
  return old;
}

} // namespace tcpu::tl

#endif
