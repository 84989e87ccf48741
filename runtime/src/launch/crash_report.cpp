#include "launch/crash_report.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "launch/kernel_services.hpp"
#include "launch/recent_launches.hpp"
#include "tcpu/environment.hpp"

namespace tcpu::detail {
namespace {

// SIGABRT too: glibc aborts when it finds its heap corrupted ("double free or corruption"),
// the usual end of a process whose kernel wrote past a buffer some launches before.
constexpr std::array kSignals{SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

// What handled each signal before: the handler must reach it without locks or allocation, so
// it lives in static storage, written once (under installCrashReport's once_flag) before the
// handlers that read it are installed.
std::array<struct sigaction, kSignals.size()> previousActions;

const struct sigaction* previousAction(int signal) {
  for (size_t i = 0; i < kSignals.size(); ++i)
    if (kSignals[i] == signal) return &previousActions[i];
  return nullptr;
}

// One line built in a fixed buffer: a signal handler may not allocate or use stdio.
class SignalSafeLine {
public:
  SignalSafeLine& operator<<(const char* text) {
    while (*text && size_ < buffer_.size() - 1)
      buffer_[size_++] = *text++;
    return *this;
  }
  SignalSafeLine& operator<<(uint64_t value) {
    char digits[20];
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (count > 0 && size_ < buffer_.size() - 1)
      buffer_[size_++] = digits[--count];
    return *this;
  }
  SignalSafeLine& hex(uintptr_t value) {
    *this << "0x";
    for (int shift = 60; shift >= 0; shift -= 4)
      if (size_ < buffer_.size() - 1) buffer_[size_++] = "0123456789abcdef"[(value >> shift) & 0xf];
    return *this;
  }
  // Writes the line and a newline to stderr, retrying short writes.
  void write() {
    buffer_[size_++] = '\n';
    size_t done = 0;
    while (done < size_) {
      const ssize_t written = ::write(STDERR_FILENO, buffer_.data() + done, size_ - done);
      if (written <= 0) return;
      done += static_cast<size_t>(written);
    }
  }

private:
  std::array<char, 512> buffer_{};
  size_t size_ = 0;
};

// "(x, y, z)" of linear program `index` (x fastest).
void appendProgram(SignalSafeLine& line, uint64_t index, const uint32_t (&grid)[3]) {
  const uint64_t x = index % grid[0], yz = index / grid[0];
  line << "(" << x << ", " << yz % grid[1] << ", " << yz / grid[1] << ")";
}

// Whether the CPU raised the signal (a fault, which returning from the handler re-raises), not
// kill or raise: positive si_code values on Linux; on Darwin the values sent by kill/raise are
// positive too (SI_USER is 0x10001), and faults' are small.
bool raisedByTheCpu(const siginfo_t* info) {
#if defined(__APPLE__)
  return info && info->si_code > 0 && info->si_code < SI_USER;
#else
  return info && info->si_code > 0;
#endif
}

void describeSignal(SignalSafeLine& line, int signal, const siginfo_t* info) {
  const bool fault = raisedByTheCpu(info);
  switch (signal) {
  case SIGSEGV:
    line << "SIGSEGV (invalid memory access";
    break;
  case SIGBUS:
    line << "SIGBUS (bus error";
    break;
  case SIGFPE:
    line << (fault && info->si_code == FPE_INTDIV ? "SIGFPE (integer division by zero"
                                                  : "SIGFPE (arithmetic exception");
    break;
  case SIGABRT:
    line << "SIGABRT (abort";
    break;
  default:
    line << "SIGILL (illegal instruction: a trap, or an instruction this CPU lacks";
    break;
  }
  if (fault && (signal == SIGSEGV || signal == SIGBUS)) {
    line << " at ";
    line.hex(reinterpret_cast<uintptr_t>(info->si_addr));
  }
  line << ")";
}

// Hands the signal on to the previous handler, or restores the default action: on return the
// faulting instruction runs again and ends the process with this signal (a signal sent by
// kill or raise is raised again).
void forward(int signal, siginfo_t* info, void* context) {
  const struct sigaction* previous = previousAction(signal);
  if (previous && (previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction) {
    previous->sa_sigaction(signal, info, context);
    return;
  }
  if (previous && !(previous->sa_flags & SA_SIGINFO) && previous->sa_handler != SIG_DFL &&
      previous->sa_handler != SIG_IGN) {
    previous->sa_handler(signal);
    return;
  }
  struct sigaction fallback{};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  if (!raisedByTheCpu(info)) raise(signal);
}

// Outside a launch, after launches: names the last kernels, since one of them writing past a
// buffer is the likeliest cause of a process dying in free() or at exit with no other report.
void reportAfterLaunches(int signal, const siginfo_t* info) {
  const uint64_t launches = launchesRecorded();
  if (launches == 0) return;
  SignalSafeLine line;
  line << "tcpu: the process got ";
  describeSignal(line, signal, info);
  line << " outside a kernel, after " << launches << " kernel launch" << (launches == 1 ? "" : "es")
       << "; the last:";
  line.write();
  std::array<RecentLaunch, 4> recent;
  const size_t count = recentLaunches(recent.data(), recent.size());
  for (size_t i = 0; i < count; ++i) {
    SignalSafeLine launch;
    launch << "tcpu:   '" << recent[i].name << "' grid (" << uint64_t{recent[i].grid[0]} << ", "
           << uint64_t{recent[i].grid[1]} << ", " << uint64_t{recent[i].grid[2]} << ")";
    launch.write();
  }
  SignalSafeLine hint;
  hint << "tcpu: if a kernel wrote outside a buffer (a corrupted heap fails later, elsewhere), "
          "TCPU_CHECK=bounds in the environment names the access";
  hint.write();
}

void onFatalSignal(int signal, siginfo_t* info, void* context) {
  const int savedErrno = errno;
  if (const LaunchContext* launch = currentLaunch()) {
    SignalSafeLine line;
    line << "tcpu: kernel '"
         << (launch->kernel && launch->kernel->name ? launch->kernel->name : "?") << "' raised ";
    describeSignal(line, signal, info);
    if (launch->programKnown) {
      line << " in program (" << uint64_t{launch->program[0]} << ", "
           << uint64_t{launch->program[1]} << ", " << uint64_t{launch->program[2]} << ")";
    } else if (launch->end - launch->begin == 1) {
      line << " in program ";
      appendProgram(line, launch->begin, launch->grid);
    } else {
      // The entry runs its programs in one loop with the kernel inlined: which one faulted is
      // not recorded (that would cost a store per program); one program per entry call is.
      line << " in one of programs ";
      appendProgram(line, launch->begin, launch->grid);
      line << " to ";
      appendProgram(line, launch->end - 1, launch->grid);
      line << " (TCPU_SCHEDULE=dynamic,1 names the one)";
    }
    line << " of grid (" << uint64_t{launch->grid[0]} << ", " << uint64_t{launch->grid[1]} << ", "
         << uint64_t{launch->grid[2]} << ")";
    line.write();
    if (signal == SIGSEGV || signal == SIGBUS) {
      // Most such faults are a load or store past a buffer: the bounds-checked build names the
      // access (parameter, program, offset) and fails the launch instead of the process.
      SignalSafeLine hint;
      hint << "tcpu: if it accessed memory outside a buffer, TCPU_CHECK=bounds in the environment "
              "names the access (kernels compiled from IR or source)";
      hint.write();
    }
  } else {
    reportAfterLaunches(signal, info);
  }
  errno = savedErrno;
  forward(signal, info, context);
}

bool disabledByEnvironment() {
  // A bad value failed tcpuInit already (checkEnvironmentFlags): the report stays on.
  const Expected<bool> report = environmentFlag("TCPU_CRASH_REPORT", true);
  return report && !*report;
}

} // namespace

void installCrashReport() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (disabledByEnvironment()) return;
    for (size_t i = 0; i < kSignals.size(); ++i)
      sigaction(kSignals[i], nullptr, &previousActions[i]);
    struct sigaction action{};
    action.sa_sigaction = onFatalSignal;
    // SA_ONSTACK: use an alternate stack where the thread has one (a stack overflow needs it).
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int signal : kSignals)
      sigaction(signal, &action, nullptr);
  });
}

} // namespace tcpu::detail
