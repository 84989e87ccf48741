// Helpers shared by the runtime tests.
#ifndef TCPU_TESTS_RUNTIME_TEST_SUPPORT_HPP
#define TCPU_TESTS_RUNTIME_TEST_SUPPORT_HPP

#include "tcpu_assertions.hpp"

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
    EXPECT_TCPU(tcpuSetSchedule(TCPU_SCHEDULE_DEFAULT, 0));
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
