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

// Atomics: every tl atomic is a critical section on the stripe of memory its address falls in,
// under that stripe's lock in the runtime's table (kernel_abi.h). A lock-free instruction per
// element (x86's lock xadd, a compare-and-swap loop for floats) costs 20-100x a plain
// read-modify-write, because each one drains the store buffer and waits for its cache line;
// under a stripe's lock, one compare-and-swap covers every lane of a block that falls in the
// stripe, and those lanes update as plain, vectorizable code. Taking the lock is an acquire and
// freeing it a release, so each lane's update is acq_rel (Triton's default, and what its
// atom.acq_rel promises per element): what the program wrote before the atomic is visible to any
// program that later takes the stripe, and what programs wrote before freeing it is visible
// after. Lanes of one block are not ordered among themselves on a GPU either. Relaxed, acquire
// and release ask for less than this, so they get it too. Only one lock is held at a time, so
// programs cannot deadlock on them.
TL_INLINE uint32_t* atomicStripeLock(const void* address) {
  const auto stripe = reinterpret_cast<uintptr_t>(address) / TCPU_ATOMIC_STRIPE_BYTES;
  return &tcpuKernelAtomicLocks[(stripe % TCPU_ATOMIC_STRIPES) * TCPU_ATOMIC_LOCK_STRIDE];
}
// Whether two addresses fall in one stripe (then they share its lock).
TL_INLINE bool sameAtomicStripe(const void* a, const void* b) {
  return reinterpret_cast<uintptr_t>(a) / TCPU_ATOMIC_STRIPE_BYTES ==
         reinterpret_cast<uintptr_t>(b) / TCPU_ATOMIC_STRIPE_BYTES;
}
// The first address past `address`'s stripe.
TL_INLINE uintptr_t atomicStripeEnd(const void* address) {
  return (reinterpret_cast<uintptr_t>(address) / TCPU_ATOMIC_STRIPE_BYTES + 1) *
         TCPU_ATOMIC_STRIPE_BYTES;
}

// Takes the lock: one compare-and-swap when it is free (no loop here, so codegen's search for
// programs that wait on each other does not take every atomic for a wait), the runtime's wait
// when it is not.
TL_INLINE void lockAtomicStripe(uint32_t* lock) {
  uint32_t expected = 0;
  if (!__atomic_compare_exchange_n(lock, &expected, 1u, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      [[unlikely]]
    tcpuKernelAtomicWait(lock);
}
TL_INLINE void unlockAtomicStripe(uint32_t* lock) {
  __atomic_store_n(lock, 0u, __ATOMIC_RELEASE);
}

// The lock of one stripe, held while it lives.
class AtomicStripeGuard {
public:
  TL_INLINE explicit AtomicStripeGuard(const void* address) : lock_(atomicStripeLock(address)) {
    lockAtomicStripe(lock_);
  }
  TL_INLINE ~AtomicStripeGuard() { unlockAtomicStripe(lock_); }
  AtomicStripeGuard(const AtomicStripeGuard&) = delete;
  AtomicStripeGuard& operator=(const AtomicStripeGuard&) = delete;

private:
  uint32_t* lock_;
};

// A value read and written under its stripe's lock, one element at a time. Relaxed atomic
// accesses are plain moves, but they mark the value as shared: codegen's search for waiting
// programs follows what an atomic read returns (a spin lock's test), which a plain load would
// hide. Words of 16, 32 or 64 bits.
template <class W>
TL_INLINE W lockedRead(const W* p) {
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}
template <class W>
TL_INLINE void lockedWrite(W* p, W value) {
  __atomic_store_n(p, value, __ATOMIC_RELAXED);
}
// Returns the value seen; writes desired where that is expected.
template <class W>
TL_INLINE W lockedCompareExchange(W* p, W expected, W desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;
}

// On a GPU (codegen's vector width is 0 there) lanes are threads and memory has its own atomic
// instructions, so tl's atomics are the hardware's, per element, without the stripe locks (which
// live in the CPU runtime). A constant, so the other branch costs nothing.
TL_INLINE bool atomicsUseStripeLocks() {
  return __tcpu_target_vector_bits != 0;
}
// The GPU's: a compare-and-swap (acq_rel) returning the value seen.
template <class W>
TL_INLINE W hardwareCompareExchange(W* p, W expected, W desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  return expected;
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
