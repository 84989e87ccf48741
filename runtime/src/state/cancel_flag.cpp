// Raising and lowering cancel flags, and the count of raised ones that kernels poll at their
// loops' back-edges (kernel_abi.h). Lock-free atomics only: a signal handler raises a flag while
// the thread it interrupted may be inside any of these.
#include "state/cancel_flag.hpp"

#include <atomic>

#include "tcpu/kernel_abi.h"

// Plain int for C callers and for kernels, which read it with a volatile load; the runtime
// changes it only through std::atomic_ref.
extern "C" {
TCPU_API int tcpuKernelCancelPending = 0;
}

namespace tcpu::detail {
namespace {

static_assert(std::atomic_ref<int>::is_always_lock_free, "raised from signal handlers");

std::atomic_ref<int> stateOf(tcpuCancelFlag* flag) {
  return std::atomic_ref<int>(flag->state);
}

} // namespace

bool cancelRaised(const tcpuCancelFlag* flag) {
  // The builtin, since std::atomic_ref cannot view a const object.
  return flag && __atomic_load_n(&flag->state, __ATOMIC_RELAXED) != 0;
}

} // namespace tcpu::detail

extern "C" TCPU_API void tcpuCancelFlagRaise(tcpuCancelFlag* flag) {
  if (!flag) return;
  // Counted once per raise, so that the count returns to zero once every raised flag is lowered.
  if (tcpu::detail::stateOf(flag).exchange(1, std::memory_order_relaxed) == 0)
    std::atomic_ref<int>(tcpuKernelCancelPending).fetch_add(1, std::memory_order_relaxed);
}

extern "C" TCPU_API void tcpuCancelFlagLower(tcpuCancelFlag* flag) {
  if (!flag) return;
  if (tcpu::detail::stateOf(flag).exchange(0, std::memory_order_relaxed) != 0)
    std::atomic_ref<int>(tcpuKernelCancelPending).fetch_sub(1, std::memory_order_relaxed);
}
