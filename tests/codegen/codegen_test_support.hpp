// What the codegen tests share: an initialized runtime with codegen
// registered, a private cache directory per test, and IR kernel paths.
#ifndef TCPU_TESTS_CODEGEN_CODEGEN_TEST_SUPPORT_HPP
#define TCPU_TESTS_CODEGEN_CODEGEN_TEST_SUPPORT_HPP

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "module_test.hpp"

namespace tcpu::test {

inline std::string irPath(const std::string& name) {
  return std::string(TCPU_CODEGEN_TEST_KERNELS_DIR) + "/" + name;
}

// Options for tcpuModuleLoadEx, kept alive with the arrays it needs.
struct JitOptions {
  std::vector<tcpuJitOption> keys;
  std::vector<void*> values;
  JitOptions& set(tcpuJitOption key, const char* value) {
    keys.push_back(key);
    values.push_back(const_cast<char*>(value));
    return *this;
  }
  JitOptions& set(tcpuJitOption key, uintptr_t value) {
    keys.push_back(key);
    values.push_back(reinterpret_cast<void*>(value));
    return *this;
  }
  unsigned count() const { return static_cast<unsigned>(keys.size()); }
};

class CodegenTest : public ModuleTest {
protected:
  void SetUp() override {
    ModuleTest::SetUp();
    if (HasFatalFailure()) return;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    cacheDir_ = std::filesystem::temp_directory_path() /
                (std::string("tcpu-test-cache-") + info->test_suite_name() + "-" + info->name() +
                 "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(cacheDir_);
    setenv("TCPU_CACHE_DIR", cacheDir_.c_str(), 1);
    unsetenv("TCPU_CACHE_DISABLE");
    unsetenv("TCPU_DUMP_DIR");
  }
  void TearDown() override {
    ModuleTest::TearDown();
    std::filesystem::remove_all(cacheDir_);
  }
  // Loads an IR kernel file (unloaded at the end of the test).
  tcpuModule load(const std::string& name, const JitOptions& options = {}) {
    tcpuModule module = nullptr;
    const tcpuResult result = tcpuModuleLoadEx(&module, irPath(name).c_str(), options.count(),
                                               const_cast<tcpuJitOption*>(options.keys.data()),
                                               const_cast<void**>(options.values.data()));
    return keep(result, module, name);
  }
  std::string text(tcpuModule module, tcpuModuleText kind) {
    const char* value = nullptr;
    EXPECT_EQ(tcpuModuleGetText(&value, module, kind), TCPU_SUCCESS) << tcpuGetLastErrorDetail();
    return value ? value : "";
  }
  std::filesystem::path cacheDir_;
};

} // namespace tcpu::test

#endif // TCPU_TESTS_CODEGEN_CODEGEN_TEST_SUPPORT_HPP
