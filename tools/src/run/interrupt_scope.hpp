// Ctrl-C during `tcpu run`'s launches: cancels the running launch (tcpuCancelFlag), so that the
// command stops within a loop iteration of each running program and exits with
// kExitInterrupted. A second Ctrl-C ends the process at once, as without tcpu's handler.
#ifndef TCPU_TOOLS_INTERRUPT_SCOPE_HPP
#define TCPU_TOOLS_INTERRUPT_SCOPE_HPP

#include <csignal>

#include "tcpu/tcpu.h"

namespace tcpu::cli {

// While alive, SIGINT raises flag(); the previous handler comes back when it ends.
class InterruptScope {
public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  tcpuCancelFlag* flag() const;
  // Whether Ctrl-C was pressed in the scope.
  bool interrupted() const;

private:
  struct sigaction previous_{};
  bool installed_ = false;
};

} // namespace tcpu::cli

#endif // TCPU_TOOLS_INTERRUPT_SCOPE_HPP
