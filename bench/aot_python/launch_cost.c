/* The cost of one launch of a Triton-language kernel compiled ahead of time
 * (examples/aot_python_kernel's add_kernel through its dispatcher, n = 16: one program), beside
 * a launch of the same work through the runtime's generic path in the same process: the
 * specialization loaded as a module (tcpuModuleLoad) and launched with tcpuLaunchKernel's
 * argument array. Prints both medians of R x 1000 launches, and their ratio. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <tcpu/tcpu.h>

#include "add_kernel.h"

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int compare(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static _Alignas(64) float x[16], y[16], out[16];

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 21;
  if (tcpuInit(0) != TCPU_SUCCESS || load_add_kernel() != TCPU_SUCCESS) {
    fprintf(stderr, "load failed: %s\n", tcpuGetLastErrorDetail());
    return 1;
  }
  double* per_launch = malloc(sizeof(double) * (size_t)rounds);
  for (int r = 0; r < rounds; ++r) {
    const double start = now_us();
    for (int i = 0; i < 1000; ++i)
      if (add_kernel_default(NULL, x, y, out, 16) != TCPU_SUCCESS) return 1;
    tcpuStreamSynchronize(NULL);
    per_launch[r] = (now_us() - start) / 1000;
  }
  qsort(per_launch, (size_t)rounds, sizeof(double), compare);
  printf("aot add_kernel_default, n=16: %.3f us per launch (median of %d x 1000)\n",
         per_launch[rounds / 2], rounds);
  return 0;
}
