// Atomics that return the old value, as tl.atomic_*: on one address, or per
// lane of a pointer block under an optional mask (masked-off lanes return 0).
#ifndef TCPU_TL_ATOMIC_H
#define TCPU_TL_ATOMIC_H

#include "tcpu/tl/memory.h"

namespace tcpu::tl {

template <class T, Scalar V>
TL_INLINE T atomic_add(T* p, V value) {
  return platform::atomicUpdate(
      p, [value](T old) { return static_cast<T>(old + static_cast<T>(value)); });
}
template <class T, Scalar V>
TL_INLINE T atomic_max(T* p, V value) {
  return platform::atomicUpdate(
      p, [value](T old) { return detail::maxOf(old, static_cast<T>(value), PropagateNan::none); });
}
template <class T, Scalar V>
TL_INLINE T atomic_min(T* p, V value) {
  return platform::atomicUpdate(
      p, [value](T old) { return detail::minOf(old, static_cast<T>(value), PropagateNan::none); });
}
template <class T, Scalar V>
TL_INLINE T atomic_xchg(T* p, V value) {
  return platform::atomicExchange(p, static_cast<T>(value));
}
template <class T, Scalar C, Scalar V>
TL_INLINE T atomic_cas(T* p, C compare, V value) {
  return platform::atomicCas(p, static_cast<T>(compare), static_cast<T>(value));
}

namespace detail {
// Applies a scalar atomic to each lane of a pointer block (structured or not).
template <class P, class V, class M, class F>
TL_INLINE auto atomicLanes(const P& ptrs, const V& value, const M& mask, F op) {
  const auto& p = eval(ptrs);
  const auto& v = eval(value);
  const auto& m = eval(mask);
  using PB = std::remove_cvref_t<decltype(p)>;
  using T = std::remove_pointer_t<element_t<PB>>;
  Block<T, PB::rank == 2 ? PB::rows : PB::cols, PB::rank == 2 ? PB::cols : -1> old;
  for (int i = 0; i < PB::rows; ++i)
    for (int j = 0; j < PB::cols; ++j) {
      const int k = i * PB::cols + j;
      old.v[k] = get(m, i, j) ? op(p.v[k], static_cast<T>(get(v, i, j))) : T(0);
    }
  return old;
}
} // namespace detail

#define TL_BLOCK_ATOMIC(name)                                                                      \
  template <Tensor P, Operand V, Operand M = bool>                                                 \
  TL_INLINE auto name(const P& ptrs, const V& value, const M& mask = true) {                       \
    return detail::atomicLanes(ptrs, value, mask, [](auto* p, auto v) { return name(p, v); });     \
  }
TL_BLOCK_ATOMIC(atomic_add)
TL_BLOCK_ATOMIC(atomic_max)
TL_BLOCK_ATOMIC(atomic_min)
TL_BLOCK_ATOMIC(atomic_xchg)
#undef TL_BLOCK_ATOMIC

} // namespace tcpu::tl

#endif
