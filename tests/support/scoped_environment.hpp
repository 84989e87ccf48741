// Setting an environment variable for the length of a test (the cache tests point
// TCPU_CACHE_DIR at a temporary directory); the old value comes back afterwards.
#ifndef TCPU_TESTS_SUPPORT_SCOPED_ENVIRONMENT_HPP
#define TCPU_TESTS_SUPPORT_SCOPED_ENVIRONMENT_HPP

#include <cstdlib>
#include <optional>
#include <string>

namespace tcpu::test {

class ScopedEnvironment {
public:
  // Sets `name` to `value`, or unsets it when value is nullopt.
  ScopedEnvironment(std::string name, const std::optional<std::string>& value)
      : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    if (value)
      setenv(name_.c_str(), value->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  ~ScopedEnvironment() {
    if (old_)
      setenv(name_.c_str(), old_->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
  std::string name_;
  std::optional<std::string> old_;
};

} // namespace tcpu::test

#endif // TCPU_TESTS_SUPPORT_SCOPED_ENVIRONMENT_HPP
