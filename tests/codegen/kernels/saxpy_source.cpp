// A kernel given to tcpuModuleLoad as C++ source: compiled in process by
// clang, then optimized like any IR kernel. Kernels are extern "C" so that
// their names are plain.
#include <cmath>
#include <cstdint>

#include "tcpu/kernel_abi.h" // found through the include directories tcpu passes

static_assert(TCPU_KERNEL_ABI_VERSION >= 1);

extern "C" void saxpy(float alpha, const float* x, float* y, int32_t n, uint32_t pid, uint32_t,
                      uint32_t, uint32_t, uint32_t, uint32_t) {
  const int32_t start = static_cast<int32_t>(pid) * 512;
  for (int32_t i = start; i < start + 512 && i < n; ++i)
    y[i] = alpha * x[i] + y[i];
}

extern "C" void exp_source(const float* x, float* y, int32_t n, uint32_t pid, uint32_t, uint32_t,
                           uint32_t, uint32_t, uint32_t) {
  const int32_t start = static_cast<int32_t>(pid) * 512;
  for (int32_t i = start; i < start + 512 && i < n; ++i)
    y[i] = std::exp(x[i]);
}
