// The time one phase of a compile took, for TCPU_DEBUG's report: the wall clock and the CPU time
// of the process (with that of the child processes it waited for: ld.lld; compiles running in
// other threads meanwhile count too). On a machine
// shared with other work the wall clock mostly measures the wait for a core; the CPU time is what
// the phase itself costs.
#ifndef TCPU_CODEGEN_PHASE_TIMER_HPP
#define TCPU_CODEGEN_PHASE_TIMER_HPP

#include <chrono>
#include <string>

namespace tcpu::codegen {

class PhaseTimer {
public:
  PhaseTimer();
  // "<wall> ms (cpu <cpu> ms)" since construction.
  std::string elapsed() const;
  // Logs "time: <phase> <elapsed()>" under TCPU_DEBUG=1 (one line a phase, which
  // bench/python/frontend_bench.py's `phases` reads).
  void report(const std::string& phase) const;

private:
  std::chrono::steady_clock::time_point wallStart_;
  double cpuStartMs_;
};

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_PHASE_TIMER_HPP
