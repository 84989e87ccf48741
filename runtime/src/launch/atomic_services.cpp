// The stripe locks tl's atomics take (kernel_abi.h): the table, and the wait of a kernel that
// found its stripe's lock taken.
#include <sched.h>

#include <cstdint>

#include "tcpu/kernel_abi.h"

TCPU_API alignas(64) uint32_t
    tcpuKernelAtomicLocks[TCPU_ATOMIC_STRIPES * TCPU_ATOMIC_LOCK_STRIDE] = {};

TCPU_API void tcpuKernelAtomicWait(uint32_t* lock) {
  // Test and test-and-set: spin on plain reads (the line stays shared while the holder works),
  // and give the core away now and then, since the holder may be a worker the OS descheduled
  // (machines are often oversubscribed, and a critical section is short).
  for (unsigned spins = 0;; ++spins) {
    if (__atomic_load_n(lock, __ATOMIC_RELAXED) == 0) {
      uint32_t expected = 0;
      if (__atomic_compare_exchange_n(lock, &expected, 1u, false, __ATOMIC_ACQUIRE,
                                      __ATOMIC_RELAXED))
        return;
    }
    if (spins % 1024 == 1023)
      sched_yield();
    else {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      __builtin_arm_yield();
#endif
    }
  }
}
