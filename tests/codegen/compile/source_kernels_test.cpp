// Kernels given as C++ source compile in process (clang) and run.
#include <cmath>
#include <fstream>
#include <iterator>
#include <vector>

#include "codegen_test_support.hpp"

namespace tcpu::test {
namespace {

// The same source, compiled at run time (.cpp) and at build time by tcpu_add_kernels (.bc).
class SourceKernels : public CodegenTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(SourceKernels, CompileAndRun) {
  const tcpuModule module = load(GetParam());
  const int32_t n = 5000;
  std::vector<float> x(n), y(n, 1.0f);
  for (int32_t i = 0; i < n; ++i)
    x[i] = static_cast<float>(i % 97) * 0.5f;
  float alpha = 2.0f; // a power of two: alpha * x is exact, fused or not
  const float* px = x.data();
  float* py = y.data();
  int32_t count = n;
  void* params[] = {&alpha, &px, &py, &count};
  ASSERT_TCPU(tcpuLaunchKernel(function(module, "saxpy"), (n + 511) / 512, 1, 1, 1, 1, 1, 0,
                               nullptr, params, nullptr));
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 2.0f * x[i] + 1.0f) << i;
  // std::exp from C++ source reaches SLEEF too.
  EXPECT_NE(text(module, TCPU_MODULE_TEXT_ASSEMBLY).find("Sleef_expf"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Forms, SourceKernels,
                         ::testing::Values("saxpy_source.cpp", "saxpy_source.bc"),
                         [](const auto& test) {
                           return std::string(test.param).find(".cpp") != std::string::npos
                                      ? std::string("RunTimeSource")
                                      : std::string("BuildTimeBitcode");
                         });

// tcpuModuleLoadData takes C++ source too (what the Python package compiles): text that starts
// with a comment or a preprocessor directive.
class SourceFromMemory : public CodegenTest {
protected:
  static std::string readSource(const std::string& name) {
    std::ifstream in(irPath(name), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
};

TEST_F(SourceFromMemory, CompilesAndRuns) {
  const std::string source = readSource("saxpy_source.cpp");
  ASSERT_TRUE(source.starts_with("//"));
  tcpuModule module = nullptr;
  const tcpuResult loaded = tcpuModuleLoadData(&module, source.data(), source.size());
  keep(loaded, module, "saxpy from memory");
  if (!module) return;
  std::vector<float> x(600, 3.0f), y(600, 1.0f);
  float alpha = 2.0f;
  const float* px = x.data();
  float* py = y.data();
  int32_t n = 600;
  void* params[] = {&alpha, &px, &py, &n};
  ASSERT_TCPU(
      tcpuLaunchKernel(function(module, "saxpy"), 2, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(y, std::vector<float>(600, 7.0f));
}

TEST_F(SourceFromMemory, ErrorsNameTheMemorySource) {
  const std::string source = "#include <cstdint>\nint f() { return undeclared_name; }\n";
  tcpuModule module = nullptr;
  EXPECT_TCPU_ERROR(tcpuModuleLoadData(&module, source.data(), source.size()),
                    TCPU_ERROR_INVALID_SOURCE,
                    "/<tcpu>/kernel.cpp:2:18: error: use of undeclared identifier");
}

TEST(SourceKernelErrors, CompileErrorsComeBackWithLineAndColumn) {
  ASSERT_TCPU(tcpuInit(0));
  ASSERT_TCPU(tcpuCodegenRegister());
  tcpuModule module;
  EXPECT_TCPU_ERROR(tcpuModuleLoad(&module, irPath("bad_source.cpp").c_str()),
                    TCPU_ERROR_INVALID_SOURCE,
                    "bad_source.cpp:3:15: error: use of undeclared identifier");
}

} // namespace
} // namespace tcpu::test
