#include "interrupt.hpp"

#include <pybind11/pybind11.h>

#include <atomic>
#include <csignal>

namespace py = pybind11;

namespace tcpu::python {
namespace {

// Both extension modules (_tcpu, _tcpu_rt) hold a copy of this state: each puts its handler in
// front of the one it found, so a process with both chains them (and each raises its own flag).
tcpuCancelFlag mainFlag{0};
std::atomic<bool> mainLaunchRunning{false};
struct sigaction previous{};
bool installed = false; // once: afterwards only over the handler `previous` was
bool inPlace = false;   // as the last check found
unsigned launchesToCheck = 0;

// How often a launch looks whether the handler is still in place: user code may replace SIGINT's
// handler and restore Python's later. Counted in launches, since the look costs a system call
// (0.7 us on a loaded VM) and a clock read would cost 2% of an empty launch.
constexpr unsigned kCheckEvery = 1024;

void onInterrupt(int signal, siginfo_t* info, void* context) {
  if (mainLaunchRunning.load(std::memory_order_relaxed)) tcpuCancelFlagRaise(&mainFlag);
  // Then Python's handler (or whichever was there), as it would have run without tcpu.
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction) previous.sa_sigaction(signal, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN &&
             previous.sa_handler) {
    previous.sa_handler(signal);
  }
}

bool isOurs(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) && action.sa_sigaction == onInterrupt;
}

bool sameHandler(const struct sigaction& a, const struct sigaction& b) {
  if ((a.sa_flags & SA_SIGINFO) != (b.sa_flags & SA_SIGINFO)) return false;
  return (a.sa_flags & SA_SIGINFO) ? a.sa_sigaction == b.sa_sigaction
                                   : a.sa_handler == b.sa_handler;
}

// Python's own SIGINT handling is on: its handler is signal.default_int_handler.
bool pythonDefaultHandler() {
  try {
    py::module_ signal = py::module_::import("signal");
    return signal.attr("getsignal")(SIGINT).is(signal.attr("default_int_handler"));
  } catch (py::error_already_set&) {
    return false;
  }
}

// Whether tcpu's handler runs in front of Python's; installs it where it should and is not.
bool checkHandler() {
  struct sigaction current{};
  if (sigaction(SIGINT, nullptr, &current) != 0) return false;
  if (isOurs(current)) return true;
  // Replaced since: only over the handler found the first time (Python's, restored), never over
  // a handler of the user's; SIG_DFL or SIG_IGN mean Python does not handle SIGINT.
  if (installed && !sameHandler(current, previous)) return false;
  if (!(current.sa_flags & SA_SIGINFO) &&
      (current.sa_handler == SIG_DFL || current.sa_handler == SIG_IGN))
    return false;
  if (!pythonDefaultHandler()) return false;
  struct sigaction ours = current;
  ours.sa_flags |= SA_SIGINFO;
  ours.sa_sigaction = onInterrupt;
  previous = current;
  if (sigaction(SIGINT, &ours, nullptr) != 0) return false;
  installed = true;
  return true;
}

// checkHandler's answer, asked again every kCheckEvery launches of the main thread.
bool handlerInPlace() {
  if (launchesToCheck > 0) {
    --launchesToCheck;
    return inPlace;
  }
  launchesToCheck = kCheckEvery - 1;
  inPlace = checkHandler();
  return inPlace;
}

bool onMainThread() {
  static const unsigned long mainThread =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  return PyThread_get_thread_ident() == mainThread;
}

} // namespace

InterruptibleLaunch::InterruptibleLaunch() {
  if (!onMainThread() || !handlerInPlace()) return;
  flag_ = &mainFlag;
  mainLaunchRunning.store(true, std::memory_order_relaxed);
}

InterruptibleLaunch::~InterruptibleLaunch() {
  if (!flag_) return;
  mainLaunchRunning.store(false, std::memory_order_relaxed);
  // A Ctrl-C after the launch's last check: Python's handler noted it too, and raises it at
  // the next bytecode; the next launch must run.
  if (__atomic_load_n(&flag_->state, __ATOMIC_RELAXED) != 0) tcpuCancelFlagLower(flag_);
}

void InterruptibleLaunch::raiseIfInterrupted(tcpuResult result) {
  if (!flag_ || result != TCPU_ERROR_CANCELLED) return;
  tcpuCancelFlagLower(flag_);
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

} // namespace tcpu::python
