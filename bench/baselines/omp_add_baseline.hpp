// The hand-written OpenMP vector add that tcpu's vector add is measured
// against, compiled for the host CPU (-march=native where supported).
#ifndef TCPU_BENCH_OMP_ADD_BASELINE_HPP
#define TCPU_BENCH_OMP_ADD_BASELINE_HPP

#include <cstdint>

namespace tcpu::bench {

void ompAdd(const float* a, const float* b, float* out, int64_t n);
// Fills a and b with known values and out with zeros, in parallel.
void fillParallel(float* a, float* b, float* out, int64_t n);
bool verifySum(const float* a, const float* b, const float* out, int64_t n);

} // namespace tcpu::bench

#endif // TCPU_BENCH_OMP_ADD_BASELINE_HPP
