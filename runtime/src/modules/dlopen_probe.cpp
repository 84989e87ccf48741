#include "modules/dlopen_probe.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#endif

#include "tcpu/environment.hpp"

namespace tcpu::detail {

#if defined(__linux__)
namespace {

// A child that has not finished by then is stopped and the image refused: an initializer that
// never returns would hang the caller's dlopen the same way.
constexpr unsigned kProbeSeconds = 20;
// What the child printed (the dynamic loader's last words) is kept up to this size, its end.
constexpr size_t kKeptOutput = 2048;

// Runs in the forked child: only what glibc supports after a fork of a threaded process
// (dlopen is safe there: fork gives the child the dynamic loader's lock released).
[[noreturn]] void runChild(const char* path, int output) {
  // The default action for faults: the parent reads the signal from the exit status. Handlers
  // of the caller (tcpu's crash report, a sanitizer's) would report a crash that is not one.
  struct sigaction defaultAction{};
  defaultAction.sa_handler = SIG_DFL;
  sigemptyset(&defaultAction.sa_mask);
  sigset_t faults;
  sigemptyset(&faults);
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGALRM}) {
    sigaction(signal, &defaultAction, nullptr);
    sigaddset(&faults, signal);
  }
  sigprocmask(SIG_UNBLOCK, &faults, nullptr);
  const struct rlimit noCore{};
  setrlimit(RLIMIT_CORE, &noCore);
  dup2(output, STDOUT_FILENO);
  dup2(output, STDERR_FILENO);
  close(output);
  alarm(kProbeSeconds);
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  // Straight to the kernel, as the dynamic loader's own exit: no destructors, atexit handlers,
  // or a sanitizer's checks at exit (ThreadSanitizer's would change the status), all of which
  // belong to the parent.
  syscall(SYS_exit_group, handle ? 0 : 1);
  __builtin_unreachable();
}

// The last kKeptOutput bytes the child wrote, up to its exit.
std::string readAll(int fd) {
  std::string text;
  std::array<char, 512> buffer{};
  for (;;) {
    const ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer.data(), static_cast<size_t>(n));
    if (text.size() > 2 * kKeptOutput) text.erase(0, text.size() - kKeptOutput);
  }
  if (text.size() > kKeptOutput) text.erase(0, text.size() - kKeptOutput);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

std::string describeSignal(int signal) {
  if (signal == SIGALRM) return concat("no result within ", kProbeSeconds, " s");
  const char* name = sigabbrev_np(signal);
  return name ? concat("signal SIG", name) : concat("signal ", signal);
}

} // namespace

Status probeDlopen(const std::string& path) {
  Expected<bool> probe = environmentFlag("TCPU_DLOPEN_PROBE", true);
  if (!probe) return probe.status();
  if (!*probe) return {};
  int pipeEnds[2];
  if (pipe2(pipeEnds, O_CLOEXEC) != 0)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot create a pipe for the dlopen probe: ", std::strerror(errno),
                         " (TCPU_DLOPEN_PROBE=0 turns the probe off)"));
  const pid_t child = fork();
  if (child < 0) {
    const int error = errno;
    close(pipeEnds[0]);
    close(pipeEnds[1]);
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot fork the dlopen probe: ", std::strerror(error),
                         " (TCPU_DLOPEN_PROBE=0 turns the probe off)"));
  }
  if (child == 0) runChild(path.c_str(), pipeEnds[1]);
  close(pipeEnds[1]);
  const std::string output = readAll(pipeEnds[0]);
  close(pipeEnds[0]);
  int status = 0;
  pid_t waited;
  do {
    waited = waitpid(child, &status, 0);
  } while (waited < 0 && errno == EINTR);
  // ECHILD: the caller ignores SIGCHLD or reaped the child itself; the exit status is lost,
  // so the probe says nothing (the checks before it still hold).
  if (waited < 0) return {};
  if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1)) return {};
  const std::string how = WIFSIGNALED(status) ? describeSignal(WTERMSIG(status))
                                              : concat("exit status ", WEXITSTATUS(status));
  return Status(TCPU_ERROR_INVALID_IMAGE,
                concat("the dynamic loader cannot load this image: opening it ended a probe "
                       "process (",
                       how, ")", output.empty() ? "" : ": ", output));
}

#else

Status probeDlopen(const std::string&) {
  return {};
}

#endif

} // namespace tcpu::detail
