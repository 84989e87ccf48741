// What the reference-kernel tests share: the runtime with codegen, the
// tutorial kernels' bitcode, launching with typed arguments, and references.
#ifndef TCPU_TESTS_KERNELS_TUTORIAL_TEST_SUPPORT_HPP
#define TCPU_TESTS_KERNELS_TUTORIAL_TEST_SUPPORT_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "module_test.hpp"

namespace tcpu::test {

inline std::string tutorialPath(const std::string& file) {
  return std::string(TCPU_TUTORIAL_KERNELS_DIR) + "/" + file;
}

class TutorialTest : public ModuleTest {
protected:
  // Loads <file> (a .bc or .cpp under the tutorial kernels directory).
  tcpuModule load(const std::string& file) {
    tcpuModule module = nullptr;
    const tcpuResult result = tcpuModuleLoad(&module, tutorialPath(file).c_str());
    return keep(result, module, file);
  }
  // Launches f over grid with the given arguments (each passed by address).
  template <class... Args>
  tcpuResult launch(tcpuFunction f, unsigned gx, unsigned gy, unsigned gz, Args... args) {
    void* params[] = {static_cast<void*>(&args)..., nullptr};
    return tcpuLaunchKernel(f, gx, gy, gz, 1, 1, 1, 0, nullptr, params, nullptr);
  }
};

inline std::vector<float> randomFloats(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v)
    x = dist(rng);
  return v;
}

// IEEE binary16 <-> float, round to nearest even (the tests' own, independent
// of tl's conversions).
inline uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const int32_t exponent = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff)
    return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0));
  if (exponent >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exponent <= 0) {
    if (exponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}
inline float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  float value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    value = mantissa ? NAN : INFINITY;
  } else {
    value = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  }
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  bits |= sign;
  std::memcpy(&value, &bits, 4);
  return value;
}

// Whole vectors through the two conversions above.
inline std::vector<uint16_t> toHalf(const std::vector<float>& values) {
  std::vector<uint16_t> bits(values.size());
  std::transform(values.begin(), values.end(), bits.begin(), floatToHalf);
  return bits;
}
inline std::vector<float> toFloat(const std::vector<uint16_t>& bits) {
  std::vector<float> values(bits.size());
  std::transform(bits.begin(), bits.end(), values.begin(), halfToFloat);
  return values;
}

// |got - want| <= atol + rtol * |want| everywhere; reports the worst index.
inline ::testing::AssertionResult
allClose(const std::vector<float>& got, const std::vector<double>& want, double atol, double rtol) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "size mismatch";
  for (size_t i = 0; i < got.size(); ++i) {
    const double error = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (!(error <= atol + rtol * std::fabs(want[i])))
      return ::testing::AssertionFailure()
             << "index " << i << ": got " << got[i] << ", want " << want[i] << " (error " << error
             << ", atol " << atol << ", rtol " << rtol << ")";
  }
  return ::testing::AssertionSuccess();
}

} // namespace tcpu::test

#endif
