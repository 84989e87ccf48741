// The one place where tl touches the machine it runs on: inlining, atomics,
// and the runtime services a kernel calls (printing, assertion failures).
// Everything else in tl is plain C++20 that any clang target compiles, so the
// same kernel files also build for NVIDIA GPUs (issue 6 fills in that branch).
#ifndef TCPU_TL_PLATFORM_H
#define TCPU_TL_PLATFORM_H

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tcpu/kernel_abi.h"

#define TL_INLINE inline __attribute__((always_inline))
// A lambda inlined where it is called (after its parameter list).
#define TL_INLINE_LAMBDA __attribute__((always_inline))

// Defined by codegen in each module it compiles (codegen/src/target/target_constants.hpp): the
// width of the vector registers the target's vectorizer prefers, 0 on a GPU. A constant there, so
// a branch on it costs nothing; only code compiled through codegen may read it.
extern "C" const int32_t __tcpu_target_vector_bits;
// Likewise: 1 where the target has AVX512-BF16 with 512-bit vectors (vdpbf16ps), else 0; and 1
// where it has AMX's tiles with their bf16 products (tdpbf16ps), else 0.
extern "C" const int32_t __tcpu_target_bf16_dot;
extern "C" const int32_t __tcpu_target_amx_bf16;

namespace tcpu::tl::platform {

// Atomics: sequentially consistent by default is stronger than Triton's
// acq_rel, which is what the tutorials' spin locks rely on.
template <class T>
TL_INLINE T atomicLoad(const T* p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

// Compare-and-swap returning the value seen (Triton's atomic_cas).
template <class T>
TL_INLINE T atomicCas(T* p, T expected, T desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  return expected;
}

// Read-modify-write through a compare-and-swap loop on the value's bits, so
// floating-point add/max/min need nothing from the target beyond CAS.
template <class T, class F>
TL_INLINE T atomicUpdate(T* p, F update) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomics work on 32- and 64-bit values");
  using Word = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  auto* word = reinterpret_cast<Word*>(p);
  Word seen = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    T old;
    std::memcpy(&old, &seen, sizeof(T));
    const T next = update(old);
    Word desired;
    std::memcpy(&desired, &next, sizeof(T));
    if (__atomic_compare_exchange_n(word, &seen, desired, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      return old;
  }
}

template <class T>
TL_INLINE T atomicExchange(T* p, T value) {
  return atomicUpdate(p, [value](T) { return value; });
}

TL_INLINE int targetVectorBits() {
  return __tcpu_target_vector_bits;
}

TL_INLINE bool targetHasBf16Dot() {
  return __tcpu_target_bf16_dot != 0;
}

TL_INLINE bool targetHasAmxBf16() {
  return __tcpu_target_amx_bf16 != 0;
}

TL_INLINE void spinPause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __builtin_arm_yield();
#endif
}

// Runtime services (libtcpu_runtime exports them; JIT'd kernels resolve them
// from the process).
TL_INLINE void print(const tcpuPrintRecord* record) {
  tcpuKernelPrint(record);
}
TL_INLINE void assertFailed(const tcpuAssertRecord* record) {
  tcpuKernelAssertFail(record);
}

} // namespace tcpu::tl::platform

#endif
