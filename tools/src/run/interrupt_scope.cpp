#include "run/interrupt_scope.hpp"

namespace tcpu::cli {
namespace {

// One scope at a time: the command's launches.
tcpuCancelFlag interruptFlag{0};

void onInterrupt(int) {
  tcpuCancelFlagRaise(&interruptFlag);
  // The next Ctrl-C takes the default action (the process ends), for a kernel that never
  // reaches a check (one compiled before checks existed, or stuck in a system call).
  std::signal(SIGINT, SIG_DFL);
}

} // namespace

InterruptScope::InterruptScope() {
  struct sigaction action{};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  installed_ = sigaction(SIGINT, &action, &previous_) == 0;
}

InterruptScope::~InterruptScope() {
  if (installed_) sigaction(SIGINT, &previous_, nullptr);
  tcpuCancelFlagLower(&interruptFlag);
}

tcpuCancelFlag* InterruptScope::flag() const {
  return installed_ ? &interruptFlag : nullptr;
}

bool InterruptScope::interrupted() const {
  return __atomic_load_n(&interruptFlag.state, __ATOMIC_RELAXED) != 0;
}

} // namespace tcpu::cli
