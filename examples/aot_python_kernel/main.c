/* Runs two Triton-language kernels (kernels.py) compiled ahead of time by
 * `python3 -m tcpu.compile`, from plain C: add_kernel through its dispatcher over two
 * specializations, row_max_kernel through its own. Both results are exact (one float addition
 * per element; an integer maximum). The program links libtcpu_runtime, not Python or LLVM. */
#include <stdint.h>
#include <stdio.h>

#include <tcpu/tcpu.h>

#include "add_kernel.h"
#include "row_max.h"

enum { kN = 10000, kRows = 37, kCols = 200, kStride = 256 };

static _Alignas(64) float x[kN + 1], y[kN + 1], out[kN + 1];
static int32_t matrix[kRows * kStride], maxima[kRows];

static int failed(const char* what, tcpuResult result) {
  if (result == TCPU_SUCCESS) return 0;
  const char* name = "?";
  tcpuGetErrorName(result, &name);
  fprintf(stderr, "%s: %s: %s\n", what, name, tcpuGetLastErrorDetail());
  return 1;
}

/* n elements from `offset` floats in (offset 1: unaligned, the plain specialization). */
static int check_add(int offset, int32_t n) {
  for (int i = 0; i <= kN; ++i) {
    x[i] = (float)i / 7.0f;
    y[i] = 1.0f / (float)(i + 3);
    out[i] = -1.0f;
  }
  if (failed("add_kernel_default",
             add_kernel_default(NULL, x + offset, y + offset, out + offset, n)) ||
      failed("synchronize", tcpuStreamSynchronize(NULL)))
    return 1;
  for (int i = 0; i < n; ++i)
    if (out[offset + i] != x[offset + i] + y[offset + i]) {
      fprintf(stderr, "add (offset %d): out[%d] = %.9g, expected %.9g\n", offset, i,
              (double)out[offset + i], (double)(x[offset + i] + y[offset + i]));
      return 1;
    }
  printf("add_kernel, offset %d, n = %d: ok\n", offset, (int)n);
  return 0;
}

static int check_row_max(void) {
  uint32_t state = 12345u;
  for (int i = 0; i < kRows * kStride; ++i) {
    state = state * 1664525u + 1013904223u;
    matrix[i] = (int32_t)(state >> 1) - (1 << 30);
  }
  if (failed("row_max_default", row_max_default(NULL, matrix, maxima, kRows, kCols, kStride)) ||
      failed("synchronize", tcpuStreamSynchronize(NULL)))
    return 1;
  for (int r = 0; r < kRows; ++r) {
    int32_t expected = matrix[r * kStride];
    for (int c = 1; c < kCols; ++c)
      if (matrix[r * kStride + c] > expected) expected = matrix[r * kStride + c];
    if (maxima[r] != expected) {
      fprintf(stderr, "row_max: row %d = %d, expected %d\n", r, (int)maxima[r], (int)expected);
      return 1;
    }
  }
  printf("row_max_kernel, %d x %d: ok\n", kRows, kCols);
  return 0;
}

int main(void) {
  if (failed("tcpuInit", tcpuInit(0)) || failed("load_add_kernel", load_add_kernel()) ||
      failed("load_row_max", load_row_max()))
    return 1;
  int errors = check_add(0, kN) + check_add(1, kN - 7) + check_row_max();
  unload_add_kernel();
  unload_row_max();
  return errors != 0;
}
