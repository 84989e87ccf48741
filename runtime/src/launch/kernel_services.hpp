// What a launch collects from its kernels' calls into the runtime: the first
// failure (a device_assert, or an access a bounds-checked kernel skipped), and
// what those calls need to know about the launch.
#ifndef TCPU_SRC_KERNEL_SERVICES_HPP
#define TCPU_SRC_KERNEL_SERVICES_HPP

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "tcpu/kernel_abi.h"
#include "tcpu/status.hpp"
#include "tcpu/tcpu.h"

namespace tcpu::detail {

class KernelFailures {
public:
  void record(tcpuResult code, std::string message);
  bool any() const { return failed_.load(std::memory_order_acquire); }
  // The first failure's code and text, or success.
  Status status() const;

private:
  std::atomic<bool> failed_{false};
  mutable std::mutex mutex_;
  Status first_;
};

// The launch whose programs a thread is running.
struct LaunchContext {
  KernelFailures* failures;
  const tcpuKernelDesc* kernel; // for naming parameters in reports
  uint32_t grid[3];
  uint64_t begin, end;          // the programs of the running entry call (linear indices)
  uint32_t program[3];          // set by bounds-checked kernels as each program starts,
  bool programKnown;            // and then true
  const tcpuCancelFlag* cancel; // the launch's cancel flag, or null
};

// The running launch on this thread, or null outside launches.
LaunchContext* currentLaunch();

// A kernel's failure: recorded for the running launch, or written to stderr outside launches.
void reportFailure(tcpuResult code, std::string message);

// While alive, kernel service calls on this thread report to `failures` (the
// launch whose programs the thread runs); restores the previous launch, so
// nested launches report to their own launch.
class LaunchScope {
public:
  LaunchScope(KernelFailures& failures, const tcpuKernelDesc* kernel, const uint32_t (&grid)[3],
              uint64_t begin, uint64_t end, const tcpuCancelFlag* cancel);
  ~LaunchScope();
  LaunchScope(const LaunchScope&) = delete;
  LaunchScope& operator=(const LaunchScope&) = delete;

private:
  LaunchContext context_;
  LaunchContext* previous_;
};

} // namespace tcpu::detail

#endif
