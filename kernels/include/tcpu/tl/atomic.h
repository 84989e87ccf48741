// Atomics that return the old value, as tl.atomic_*: on one address, or per
// lane of a pointer block (a Block of pointers, or `ptr + offsets` with Lin or
// Outer offsets) under an optional mask; masked-off lanes touch nothing and
// return 0. Triton's `sem` and `scope` are not taken: every atomic here is at
// least acq_rel (platform.h), which is what Triton's default asks for.
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

// update(old) stored atomically in place of old; returns old. 32- and 64-bit values through
// platform's loop; 16-bit ones (which that loop does not take) through a loop on platform's
// compare-and-swap.
template <class T, class F>
TL_INLINE T atomicApply(T* p, F update) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "atomics work on 16-, 32- and 64-bit values");
  if constexpr (sizeof(T) != 2) {
    return platform::atomicUpdate(p, update);
  } else {
    auto* word = reinterpret_cast<uint16_t*>(p);
    uint16_t seen = platform::atomicLoad(word);
    for (;;) {
      const T old = std::bit_cast<T>(seen);
      const uint16_t got = platform::atomicCas(word, seen, std::bit_cast<uint16_t>(update(old)));
      if (got == seen) return old;
      seen = got;
    }
  }
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

} // namespace detail

template <class T, Scalar V>
TL_INLINE T atomic_add(T* p, V value) {
  const T v = static_cast<T>(value);
  return detail::atomicApply(p, [v](T old) { return detail::atomicSum(old, v); });
}
template <class T, Scalar V>
TL_INLINE T atomic_max(T* p, V value) {
  const T v = static_cast<T>(value);
  return detail::atomicApply(p, [v](T old) { return detail::extremeUpdate<true>(old, v); });
}
template <class T, Scalar V>
TL_INLINE T atomic_min(T* p, V value) {
  const T v = static_cast<T>(value);
  return detail::atomicApply(p, [v](T old) { return detail::extremeUpdate<false>(old, v); });
}
template <class T, Scalar V>
TL_INLINE T atomic_xchg(T* p, V value) {
  const T v = static_cast<T>(value);
  return detail::atomicApply(p, [v](T) { return v; });
}
// Bitwise, on integers.
#define TL_BITWISE_ATOMIC(name, op)                                                                \
  template <class T, Scalar V>                                                                     \
  TL_INLINE T name(T* p, V value) {                                                                \
    static_assert(detail::atomic_integer_v<T>, #name " works on integers");                        \
    const T v = static_cast<T>(value);                                                             \
    return detail::atomicApply(p, [v](T old) { return static_cast<T>(old op v); });                \
  }
TL_BITWISE_ATOMIC(atomic_and, &)
TL_BITWISE_ATOMIC(atomic_or, |)
TL_BITWISE_ATOMIC(atomic_xor, ^)
#undef TL_BITWISE_ATOMIC

// Compare-and-swap returning the value seen; floats compare by their bits, as the GPU's cas does.
template <class T, Scalar C, Scalar V>
TL_INLINE T atomic_cas(T* p, C compare, V value) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "atomics work on 16-, 32- and 64-bit values");
  using W = detail::atomic_word_t<T>;
  return std::bit_cast<T>(platform::atomicCas(reinterpret_cast<W*>(p),
                                              std::bit_cast<W>(static_cast<T>(compare)),
                                              std::bit_cast<W>(static_cast<T>(value))));
}

namespace detail {
// Applies a scalar atomic to each lane of a pointer block (structured or not), the operands
// broadcast to its shape.
template <class P, class M, class F, class... V>
TL_INLINE auto atomicLanes(const P& ptrs, const M& mask, F op, const V&... values) {
  const auto& p = eval(ptrs);
  const auto& m = eval(mask);
  using PB = std::remove_cvref_t<decltype(p)>;
  using T = std::remove_pointer_t<element_t<PB>>;
  Block<T, PB::rank == 2 ? PB::rows : PB::cols, PB::rank == 2 ? PB::cols : -1> old;
  // Each operand read once: blocks and scalars by reference, expressions evaluated into blocks.
  const std::tuple<decltype(eval(values))...> operands(eval(values)...);
  for (int i = 0; i < PB::rows; ++i)
    for (int j = 0; j < PB::cols; ++j) {
      const int k = i * PB::cols + j;
      old.v[k] =
          get(m, i, j)
              ? std::apply(
                    [&](const auto&... v) { return op(p.v[k], static_cast<T>(get(v, i, j))...); },
                    operands)
              : T(0);
    }
  return old;
}
} // namespace detail

#define TL_BLOCK_ATOMIC(name)                                                                      \
  template <Tensor P, Operand V, Operand M = bool>                                                 \
  TL_INLINE auto name(const P& ptrs, const V& value, const M& mask = true) {                       \
    return detail::atomicLanes(ptrs, mask, [](auto* p, auto v) { return name(p, v); }, value);     \
  }
TL_BLOCK_ATOMIC(atomic_add)
TL_BLOCK_ATOMIC(atomic_max)
TL_BLOCK_ATOMIC(atomic_min)
TL_BLOCK_ATOMIC(atomic_xchg)
TL_BLOCK_ATOMIC(atomic_and)
TL_BLOCK_ATOMIC(atomic_or)
TL_BLOCK_ATOMIC(atomic_xor)
#undef TL_BLOCK_ATOMIC

// Per lane: compare and value broadcast to the pointers' shape. (Triton's atomic_cas has no
// mask; one is taken here for symmetry with the others.)
template <Tensor P, Operand C, Operand V, Operand M = bool>
TL_INLINE auto atomic_cas(const P& ptrs, const C& compare, const V& value, const M& mask = true) {
  return detail::atomicLanes(
      ptrs, mask, [](auto* p, auto c, auto v) { return atomic_cas(p, c, v); }, compare, value);
}

} // namespace tcpu::tl

#endif
