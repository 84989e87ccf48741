/* xsmm_nest(a, b, c, n): C = A B (fp32, row-major, n a multiple of 128) through the tutorial
 * matmul's loop nest as matmul_f32_large runs it (128 x 128 tiles of C, one program per tile in
 * GROUP_SIZE_M = 8 order, k steps of 64, guided OpenMP schedule), with libxsmm's JIT'd
 * micro-kernel in place of tl's dot: the route triton-cpu takes (issue 19 asked for it to be
 * measured). Built into the AOT bundle where libxsmm's static library is installed (Debian's
 * libxsmm-dev); bench/aot/paired_matmul.py times it beside tcpu and torch.mm. Returns 0, or 1
 * where libxsmm has no kernel for the shape or n is not a multiple of 128. */
#include <libxsmm.h>
#include <string.h>

enum { kBlockM = 128, kBlockN = 128, kBlockK = 64, kGroupM = 8 };

int xsmm_nest(const float* a, const float* b, float* c, int n) {
  if (n <= 0 || n % kBlockM != 0) return 1;
  /* Row-major C = A B is column-major C^T = B^T A^T: libxsmm's m is the tile's columns. */
  const float alpha = 1.0f, beta = 1.0f;
  const int flags = LIBXSMM_GEMM_FLAGS('N', 'N'), ldc = kBlockN;
  const libxsmm_smmfunction kernel =
      libxsmm_smmdispatch(kBlockN, kBlockM, kBlockK, &n, &n, &ldc, &alpha, &beta, &flags, NULL);
  if (!kernel) return 1;
  const int programsM = n / kBlockM, programsN = n / kBlockN;
#pragma omp parallel for schedule(guided)
  for (int pid = 0; pid < programsM * programsN; ++pid) {
    const int inGroup = kGroupM * programsN, first = pid / inGroup * kGroupM;
    const int groupSize = programsM - first < kGroupM ? programsM - first : kGroupM;
    const int pidM = first + pid % inGroup % groupSize, pidN = pid % inGroup / groupSize;
    _Alignas(64) float acc[kBlockM * kBlockN];
    memset(acc, 0, sizeof acc);
    for (int k = 0; k < n; k += kBlockK)
      kernel(b + (size_t)k * n + (size_t)pidN * kBlockN, a + (size_t)pidM * kBlockM * n + k, acc);
    for (int i = 0; i < kBlockM; ++i)
      memcpy(c + ((size_t)pidM * kBlockM + i) * n + (size_t)pidN * kBlockN, acc + i * kBlockN,
             kBlockN * sizeof(float));
  }
  return 0;
}
