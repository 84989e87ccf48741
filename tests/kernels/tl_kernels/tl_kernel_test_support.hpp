// What the tests of tl's kernels through codegen share (tl_test, tl_atomic_test,
// tl_block_ptr_test, tl_dot_test, tl_math_extra_test, tl_shape_scan_sort_test): a fixture
// over one module of test kernels, and bf16 conversions of the tests' own.
#ifndef TCPU_TESTS_KERNELS_TL_KERNEL_TEST_SUPPORT_HPP
#define TCPU_TESTS_KERNELS_TL_KERNEL_TEST_SUPPORT_HPP

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "tutorials/tutorial_test_support.hpp"

namespace tcpu::test {

// The kernels of one file under TCPU_TL_TEST_KERNELS_DIR (kernels/<name>.cpp built to
// <name>.bc), loaded through codegen at their first use and unloaded after the test. A test's
// fixture names its file: `TlAtomic() : TlKernelTest("tl_atomic.bc") {}`.
class TlKernelTest : public TutorialTest {
public:
  using TutorialTest::launch;
  tcpuModule module() {
    if (!module_) module_ = loadKernels();
    return module_;
  }
  tcpuFunction kernel(const std::string& name) { return function(module(), name.c_str()); }

protected:
  explicit TlKernelTest(std::string file) : file_(std::move(file)) {}
  // A load of the file of its own, with codegen's JIT options (as tcpuModuleLoadEx takes them).
  tcpuModule loadKernels(unsigned numOptions = 0, tcpuJitOption* options = nullptr,
                         void** values = nullptr) {
    const std::string path = std::string(TCPU_TL_TEST_KERNELS_DIR) + "/" + file_;
    tcpuModule loaded = nullptr;
    // Two statements: the load must finish before `loaded` is read (g++ evaluates a call's
    // arguments right to left).
    const tcpuResult result = tcpuModuleLoadEx(&loaded, path.c_str(), numOptions, options, values);
    return keep(result, loaded, path);
  }

private:
  std::string file_;
  tcpuModule module_ = nullptr;
};

// fp32 -> bf16, round to nearest even on the top 16 bits; a NaN stays a (quiet) NaN.
inline uint16_t floatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}
inline float bf16ToFloat(uint16_t b) {
  const uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

} // namespace tcpu::test

#endif // TCPU_TESTS_KERNELS_TL_KERNEL_TEST_SUPPORT_HPP
