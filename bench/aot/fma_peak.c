/* fma_peak(iterations): one thread's fp32 multiply-add throughput in GFLOP/s, from 24 independent
 * chains of 512-bit FMAs (enough to cover two FMA pipes of 4 cycles' latency), the ceiling that
 * bench/aot/paired_matmul.py quotes matmul rates against on the GPU host's Xeon. Built only for
 * targets with AVX-512 (scripts/gpu/bundle-aot-bench.sh). */
#include <immintrin.h>
#include <time.h>

// clang-format off
#define TCPU_CHAINS(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) \
  X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23)
// clang-format on
#define TCPU_DECLARE(i) __m512 chain##i = _mm512_set1_ps((float)(i));
#define TCPU_STEP(i) chain##i = _mm512_fmadd_ps(chain##i, scale, offset);
#define TCPU_SUM(i) sum += _mm512_reduce_add_ps(chain##i);

double fma_peak(long iterations) {
  const __m512 scale = _mm512_set1_ps(0.9999999f), offset = _mm512_set1_ps(1e-7f);
  TCPU_CHAINS(TCPU_DECLARE)
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (long i = 0; i < iterations; ++i) {
    TCPU_CHAINS(TCPU_STEP)
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  float sum = 0.0f;
  TCPU_CHAINS(TCPU_SUM)
  const double seconds =
      (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
  volatile float sink = sum; /* the chains' results are used, so they are not folded away */
  (void)sink;
  return 24.0 * 16.0 * 2.0 * (double)iterations / seconds / 1e9;
}
