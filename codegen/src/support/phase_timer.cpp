#include "support/phase_timer.hpp"

#include <sys/resource.h>
#include <time.h>

#include "support/debug_log.hpp"
#include "tcpu/status.hpp"

namespace tcpu::codegen {
namespace {

double milliseconds(const timeval& time) {
  return static_cast<double>(time.tv_sec) * 1e3 + static_cast<double>(time.tv_usec) / 1e3;
}

// The process's CPU time (a phase may run on a thread of its own: runGuarded), and that of the
// child processes waited for (ld.lld's).
double cpuMs() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  rusage children{};
  getrusage(RUSAGE_CHILDREN, &children);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6 +
         milliseconds(children.ru_utime) + milliseconds(children.ru_stime);
}

} // namespace

PhaseTimer::PhaseTimer() : wallStart_(std::chrono::steady_clock::now()), cpuStartMs_(cpuMs()) {}

std::string PhaseTimer::elapsed() const {
  const double wall =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wallStart_)
          .count();
  return concat(wall, " ms (cpu ", cpuMs() - cpuStartMs_, " ms)");
}

void PhaseTimer::report(const std::string& phase) const {
  if (debugEnabled()) debugLog(concat("time: ", phase, " ", elapsed()));
}

} // namespace tcpu::codegen
