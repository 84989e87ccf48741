// What a launch collects from its kernels' calls into the runtime: the first
// failed device_assert.
#ifndef TCPU_SRC_KERNEL_SERVICES_HPP
#define TCPU_SRC_KERNEL_SERVICES_HPP

#include <atomic>
#include <mutex>
#include <string>

#include "tcpu/status.hpp"

namespace tcpu::detail {

class AssertFailures {
public:
  void record(std::string message);
  bool any() const { return failed_.load(std::memory_order_acquire); }
  // TCPU_ERROR_ASSERT with the first failure's text, or success.
  Status status() const;

private:
  std::atomic<bool> failed_{false};
  mutable std::mutex mutex_;
  std::string first_;
};

// While alive, device_assert failures on this thread go to `failures` (the
// launch whose programs the thread runs); restores the previous target, so
// nested launches report to their own launch.
class AssertScope {
public:
  explicit AssertScope(AssertFailures* failures);
  ~AssertScope();
  AssertScope(const AssertScope&) = delete;
  AssertScope& operator=(const AssertScope&) = delete;

private:
  AssertFailures* previous_;
};

} // namespace tcpu::detail

#endif
