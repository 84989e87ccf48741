// A fixture for tests that load modules through codegen: initializes the
// runtime, registers codegen, and unloads every module a test kept.
#ifndef TCPU_TESTS_SUPPORT_MODULE_TEST_HPP
#define TCPU_TESTS_SUPPORT_MODULE_TEST_HPP

#include <string>
#include <vector>

#include "tcpu/codegen.h"
#include "tcpu_assertions.hpp"

namespace tcpu::test {

class ModuleTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TCPU(tcpuInit(0));
    ASSERT_TCPU(tcpuCodegenRegister());
  }
  void TearDown() override {
    for (tcpuModule module : modules_)
      EXPECT_TCPU(tcpuModuleUnload(module));
  }
  // The module a load returned: kept for unloading when the load succeeded,
  // a test failure naming `what` when it did not.
  tcpuModule keep(tcpuResult result, tcpuModule module, const std::string& what) {
    EXPECT_EQ(result, TCPU_SUCCESS) << what << ": " << tcpuGetLastErrorDetail();
    if (result == TCPU_SUCCESS) modules_.push_back(module);
    return module;
  }
  tcpuFunction function(tcpuModule module, const char* name) {
    tcpuFunction f = nullptr;
    EXPECT_EQ(tcpuModuleGetFunction(&f, module, name), TCPU_SUCCESS) << tcpuGetLastErrorDetail();
    return f;
  }
  std::vector<tcpuModule> modules_;
};

} // namespace tcpu::test

#endif // TCPU_TESTS_SUPPORT_MODULE_TEST_HPP
