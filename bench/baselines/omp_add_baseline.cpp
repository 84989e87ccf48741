#include "omp_add_baseline.hpp"

namespace tcpu::bench {

void ompAdd(const float* a, const float* b, float* out, int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; ++i)
    out[i] = a[i] + b[i];
}

void fillParallel(float* a, float* b, float* out, int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000) * 0.5f;
    b[i] = static_cast<float>(i % 7);
    out[i] = 0.0f;
  }
}

bool verifySum(const float* a, const float* b, const float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    if (out[i] != a[i] + b[i]) return false;
  return true;
}

} // namespace tcpu::bench
