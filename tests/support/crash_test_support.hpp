// Death tests of kernels that crash the process (tcpu's crash report).
#ifndef TCPU_TESTS_SUPPORT_CRASH_TEST_SUPPORT_HPP
#define TCPU_TESTS_SUPPORT_CRASH_TEST_SUPPORT_HPP

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace tcpu::test {

// Call in SetUp, before anything starts threads: death tests re-run the test binary (a fork of
// a process with threads is unsafe), and under a sanitizer the child leaves fatal signals to
// tcpu and the default action (the sanitizer's own handler would report the fault, failing the
// sanitizer stage, and end the process by exit instead of the signal).
inline void prepareCrashTests() {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const char* variable : {"ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"}) {
    const char* value = std::getenv(variable);
    std::string options = value ? std::string(value) + ":" : std::string();
    options += "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0";
    setenv(variable, options.c_str(), 1);
  }
}

// The same for a child started through a shell (a command that the kernel may kill): a prefix
// that appends those options to the sanitizers' variables. Harmless without a sanitizer.
inline std::string sanitizersLeaveFatalSignalsPrefix() {
  std::string prefix;
  for (const char* variable : {"ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"})
    prefix += std::string(variable) + "=\"${" + variable + ":+$" + variable +
              ":}handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0\" ";
  return prefix;
}

} // namespace tcpu::test

#endif // TCPU_TESTS_SUPPORT_CRASH_TEST_SUPPORT_HPP
