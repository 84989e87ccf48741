// Codegen's checks at loop back-edges: a cancelled launch stops programs that are running, an
// endless one included, and loops with a small constant trip count are left unchecked.
#include <chrono>
#include <string>
#include <thread>

#include "codegen_test_support.hpp"

namespace tcpu::test {
namespace {

// `v == v` holds for every value but NaN: the loop is endless for the value passed, and stays a
// loop (kernels compile with no forward-progress assumption).
constexpr const char* kEndless = R"(// endless kernel
#include <cstdint>
extern "C" void endless(float* y, float v, uint32_t pid, uint32_t, uint32_t, uint32_t, uint32_t,
                        uint32_t) {
  while (v == v)
    y[pid] += 1.0f;
}
)";

// Only the entry's loop over its programs has a trip count codegen cannot bound.
constexpr const char* kBounded = R"(// bounded kernel
#include <cstdint>
extern "C" void twice(float* y, uint32_t pid, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  for (int i = 0; i < 512; ++i)
    y[pid * 512 + i] *= 2.0f;
}
)";

class CancelChecks : public CodegenTest {
protected:
  tcpuModule loadSource(const std::string& source, const char* what) {
    tcpuModule module = nullptr;
    const tcpuResult loaded = tcpuModuleLoadData(&module, source.data(), source.size());
    return keep(loaded, module, what);
  }
  static size_t checks(const std::string& ir) {
    size_t count = 0;
    for (size_t at = ir.find("@tcpuKernelCancelPending monotonic"); at != std::string::npos;
         at = ir.find("@tcpuKernelCancelPending monotonic", at + 1))
      ++count;
    return count;
  }
  tcpuCancelFlag flag_{0};
};

TEST_F(CancelChecks, AnEndlessProgramStopsWhenItsLaunchIsCancelled) {
  const tcpuModule module = loadSource(kEndless, "endless");
  if (!module) return;
  EXPECT_GE(checks(text(module, TCPU_MODULE_TEXT_OPTIMIZED_IR)), 1u);
  float y[4] = {};
  float* py = y;
  float value = 1.0f;
  void* params[] = {&py, &value};
  void* extra[] = {TCPU_LAUNCH_PARAM_CANCEL_FLAG, &flag_, TCPU_LAUNCH_PARAM_END};
  std::thread raiser([this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    tcpuCancelFlagRaise(&flag_);
  });
  const auto start = std::chrono::steady_clock::now();
  const tcpuResult result =
      tcpuLaunchKernel(function(module, "endless"), 4, 1, 1, 1, 1, 1, 0, nullptr, params, extra);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  raiser.join();
  EXPECT_EQ(result, TCPU_ERROR_CANCELLED) << tcpuGetLastErrorDetail();
  EXPECT_LT(elapsed, std::chrono::seconds(5));
  tcpuCancelFlagLower(&flag_);
  EXPECT_EQ(tcpuKernelCancelPending, 0);
  // The module stays usable: a NaN ends the loop at once.
  value = __builtin_nanf("");
  ASSERT_TCPU(
      tcpuLaunchKernel(function(module, "endless"), 4, 1, 1, 1, 1, 1, 0, nullptr, params, extra));
}

TEST_F(CancelChecks, LoopsWithASmallConstantTripCountAreNotChecked) {
  const tcpuModule module = loadSource(kBounded, "bounded");
  if (!module) return;
  EXPECT_EQ(checks(text(module, TCPU_MODULE_TEXT_OPTIMIZED_IR)), 1u)
      << "only the loop over the programs should be checked";
  std::vector<float> y(1024, 1.5f);
  float* py = y.data();
  void* params[] = {&py};
  ASSERT_TCPU(
      tcpuLaunchKernel(function(module, "twice"), 2, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(y, std::vector<float>(1024, 3.0f));
}

} // namespace
} // namespace tcpu::test
