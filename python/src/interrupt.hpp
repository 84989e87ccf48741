// Ctrl-C during a launch. Python's SIGINT handler only notes the signal; the main thread acts on
// it once it runs Python again, which a launch with the GIL released (an endless kernel, a long
// grid) delays until it ends. So, while Python's handler is its default one (which raises
// KeyboardInterrupt), a handler of tcpu's runs in front of it that also raises the cancel flag
// of the main thread's launch (tcpuCancelFlag): the launch stops within a loop iteration of
// each running program, and the exception comes out of it.
#ifndef TCPU_PYTHON_INTERRUPT_HPP
#define TCPU_PYTHON_INTERRUPT_HPP

#include "tcpu/tcpu.h"

namespace tcpu::python {

// One launch, from when the arguments are ready (with the GIL held) until it returned.
class InterruptibleLaunch {
public:
  InterruptibleLaunch();
  ~InterruptibleLaunch();
  InterruptibleLaunch(const InterruptibleLaunch&) = delete;
  InterruptibleLaunch& operator=(const InterruptibleLaunch&) = delete;

  // The flag to launch with (TCPU_LAUNCH_PARAM_CANCEL_FLAG), or null: off the main thread
  // (Python interrupts only that one), or while SIGINT has a handler other than Python's default.
  tcpuCancelFlag* flag() const { return flag_; }

  // With the GIL held, after the launch returned `result`: raises Python's exception for the
  // signal (KeyboardInterrupt) where Ctrl-C cancelled the launch; else does nothing.
  void raiseIfInterrupted(tcpuResult result);

private:
  tcpuCancelFlag* flag_ = nullptr;
};

} // namespace tcpu::python

#endif // TCPU_PYTHON_INTERRUPT_HPP
