// tcpuCodegenWriteSharedObject: kernels compiled into a shared object that the runtime loads by
// itself (its shared-object loader, with its checks and the fork probe), and its errors.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "codegen_test_support.hpp"

namespace tcpu::test {
namespace {

std::string readKernel(const std::string& name) {
  std::ifstream in(irPath(name), std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// fp32 -> bf16 in a loop: on CPUs without AVX512-BF16, LLVM calls compiler-rt's __truncsfbf2,
// which neither libgcc nor the process has; the shared object must carry it.
constexpr const char* kToBf16 = R"(// fp32 -> bf16
#include <cstdint>
#include "tcpu/kernel_abi.h"
extern "C" void to_bf16(const float* x, __bf16* y, int32_t n, uint32_t px, uint32_t, uint32_t,
                        uint32_t, uint32_t, uint32_t) {
  for (int32_t i = static_cast<int32_t>(px) * 256; i < n && i < static_cast<int32_t>(px + 1) * 256; ++i)
    y[i] = static_cast<__bf16>(x[i]);
}
)";

class SharedObjects : public CodegenTest {
protected:
  std::filesystem::path write(const std::string& image, const std::string& file,
                              const JitOptions& options = {}) {
    const std::filesystem::path path = cacheDir_ / "objects" / file;
    EXPECT_TCPU(tcpuCodegenWriteSharedObject(image.data(), image.size(), path.c_str(),
                                             options.count(),
                                             const_cast<tcpuJitOption*>(options.keys.data()),
                                             const_cast<void**>(options.values.data())));
    return path;
  }
  tcpuModule loadFile(const std::filesystem::path& path) {
    tcpuModule module = nullptr;
    // Loaded first: keep's arguments are evaluated in no fixed order.
    const tcpuResult loaded = tcpuModuleLoad(&module, path.c_str());
    return keep(loaded, module, path.string());
  }
};

TEST_F(SharedObjects, SourceKernelRunsFromTheRuntimesOwnLoader) {
  const std::filesystem::path path = write(readKernel("saxpy_source.cpp"), "saxpy.so");
  ASSERT_TRUE(std::filesystem::is_regular_file(path));
  // No temporaries left beside it.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(path.parent_path()),
                          std::filesystem::directory_iterator()),
            1);
  const tcpuModule module = loadFile(path);
  ASSERT_NE(module, nullptr);
  const tcpuFunction saxpy = function(module, "saxpy");
  unsigned count = 0;
  ASSERT_TCPU(tcpuFuncGetParamCount(&count, saxpy));
  EXPECT_EQ(count, 4u);
  const int32_t n = 1000;
  std::vector<float> x(n, 3.0f), y(n, 1.0f);
  float alpha = 2.0f;
  const float* px = x.data();
  float* py = y.data();
  int32_t size = n;
  void* params[] = {&alpha, &px, &py, &size};
  ASSERT_TCPU(tcpuLaunchKernel(saxpy, (n + 511) / 512, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 7.0f) << i;
}

TEST_F(SharedObjects, IrKernelWithSignature) {
  JitOptions options;
  options.set(TCPU_JIT_SIGNATURE, "*fp32:16, *fp32:16, *fp32:16, i32");
  const tcpuModule module = loadFile(write(readKernel("vector_add.ll"), "add.so", options));
  ASSERT_NE(module, nullptr);
  const int32_t n = 3000;
  std::vector<float> a(n), b(n), c(n, 0.0f);
  for (int32_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f;
  }
  const float *pa = a.data(), *pb = b.data();
  float* pc = c.data();
  int32_t size = n;
  void* params[] = {&pa, &pb, &pc, &size};
  ASSERT_TCPU(tcpuLaunchKernel(function(module, "add_kernel"), (n + 1023) / 1024, 1, 1, 1, 1, 1, 0,
                               nullptr, params, nullptr));
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + 0.5f) << i;
}

// The JIT links the same helpers (compiler-rt's archive, in every module's link order).
class CompilerRtHelpers : public SharedObjects, public ::testing::WithParamInterface<bool> {};

TEST_P(CompilerRtHelpers, FloatToBf16RoundsToNearestEven) {
  tcpuModule module = nullptr;
  if (GetParam()) {
    module = loadFile(write(kToBf16, "bf16.so"));
  } else {
    const std::string source = kToBf16;
    const tcpuResult loaded = tcpuModuleLoadData(&module, source.data(), source.size());
    module = keep(loaded, module, "to_bf16");
  }
  ASSERT_NE(module, nullptr);
  const std::vector<float> x = {1.0f, 1.00390625f, 1.01171875f, -3.5f, 3.0f, 65504.0f};
  std::vector<uint16_t> y(x.size(), 0);
  const float* px = x.data();
  uint16_t* py = y.data();
  int32_t n = static_cast<int32_t>(x.size());
  void* params[] = {&px, &py, &n};
  ASSERT_TCPU(
      tcpuLaunchKernel(function(module, "to_bf16"), 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  // Round to nearest even (1 + 2^-8 is a tie: down to 1; 1 + 3 * 2^-8 up). No subnormals: where
  // the CPU has AVX512-BF16, LLVM converts with VCVTNEPS2BF16, which flushes them.
  const std::vector<uint16_t> expected = {0x3f80, 0x3f80, 0x3f82, 0xc060, 0x4040, 0x4780};
  EXPECT_EQ(y, expected);
}

INSTANTIATE_TEST_SUITE_P(Loads, CompilerRtHelpers, ::testing::Bool(), [](const auto& test) {
  return std::string(test.param ? "SharedObject" : "Jit");
});

TEST_F(SharedObjects, ErrorsNameTheArgument) {
  const std::string source = readKernel("saxpy_source.cpp");
  const std::string path = (cacheDir_ / "x.so").string();
  EXPECT_EQ(tcpuCodegenWriteSharedObject(nullptr, 4, path.c_str(), 0, nullptr, nullptr),
            TCPU_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(tcpuGetLastErrorDetail()).find("image is NULL"), std::string::npos);
  EXPECT_EQ(
      tcpuCodegenWriteSharedObject(source.data(), source.size(), nullptr, 0, nullptr, nullptr),
      TCPU_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(tcpuGetLastErrorDetail()).find("path"), std::string::npos);
  tcpuJitOption bad = static_cast<tcpuJitOption>(99);
  void* value = nullptr;
  EXPECT_EQ(
      tcpuCodegenWriteSharedObject(source.data(), source.size(), path.c_str(), 1, &bad, &value),
      TCPU_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(tcpuGetLastErrorDetail()).find("options[0]=99"), std::string::npos);
  const std::string broken = readKernel("bad_source.cpp");
  EXPECT_EQ(
      tcpuCodegenWriteSharedObject(broken.data(), broken.size(), path.c_str(), 0, nullptr, nullptr),
      TCPU_ERROR_INVALID_SOURCE);
  EXPECT_FALSE(std::filesystem::exists(path));
}

} // namespace
} // namespace tcpu::test
