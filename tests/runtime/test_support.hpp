// Helpers shared by the runtime tests.
#ifndef TCPU_TESTS_RUNTIME_TEST_SUPPORT_HPP
#define TCPU_TESTS_RUNTIME_TEST_SUPPORT_HPP

#include <gtest/gtest.h>

#include <string>

#include "tcpu/tcpu.h"

// Fails the test with the runtime's detail message when a call does not succeed.
#define ASSERT_TCPU(call)                                                                          \
  do {                                                                                             \
    const tcpuResult tcpu_result_ = (call);                                                        \
    ASSERT_EQ(tcpu_result_, TCPU_SUCCESS) << #call << ": " << tcpuGetLastErrorDetail();            \
  } while (0)

#define EXPECT_TCPU(call)                                                                          \
  do {                                                                                             \
    const tcpuResult tcpu_result_ = (call);                                                        \
    EXPECT_EQ(tcpu_result_, TCPU_SUCCESS) << #call << ": " << tcpuGetLastErrorDetail();            \
  } while (0)

// Expects `call` to fail with `code` and a detail containing `needle`.
#define EXPECT_TCPU_ERROR(call, code, needle)                                                      \
  do {                                                                                             \
    EXPECT_EQ((call), (code)) << #call;                                                            \
    EXPECT_NE(std::string(tcpuGetLastErrorDetail()).find(needle), std::string::npos)               \
        << #call << ": detail was: " << tcpuGetLastErrorDetail();                                  \
  } while (0)

namespace tcpu::test {

// Initializes the runtime and loads the test kernels; restores default
// settings afterwards so tests do not leak settings into each other.
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TCPU(tcpuInit(0));
    ASSERT_TCPU(tcpuModuleLoad(&module_, TCPU_TEST_KERNELS_PATH));
  }
  void TearDown() override {
    EXPECT_TCPU(tcpuSetNumThreads(0));
    EXPECT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_STATIC, 0));
    EXPECT_TCPU(tcpuSetLaunchHooks(nullptr, nullptr, nullptr));
    EXPECT_TCPU(tcpuModuleUnload(module_));
  }
  tcpuFunction function(const char* name) {
    tcpuFunction f = nullptr;
    EXPECT_EQ(tcpuModuleGetFunction(&f, module_, name), TCPU_SUCCESS) << tcpuGetLastErrorDetail();
    return f;
  }
  tcpuModule module_ = nullptr;
};

} // namespace tcpu::test

#endif // TCPU_TESTS_RUNTIME_TEST_SUPPORT_HPP
