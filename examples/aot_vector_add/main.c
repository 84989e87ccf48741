/* Runs vector add compiled ahead of time (two specializations, one dispatcher:
 * add_kernel.h, written by `tcpu link`) from plain C. The program links
 * libtcpu_runtime, not LLVM. */
#include <stdint.h>
#include <stdio.h>

#include <tcpu/tcpu.h>

#include "add_kernel.h"

enum { kCapacity = 1 << 16, kSlack = 64 };

/* Room for kCapacity elements at any offset below kSlack, and a tail to check. */
static _Alignas(64) float x[kCapacity + 2 * kSlack];
static _Alignas(64) float y[kCapacity + 2 * kSlack];
static _Alignas(64) float out[kCapacity + 2 * kSlack];

static const float kUntouched = -12345.0f;

static int failed(const char* what, tcpuResult result) {
  if (result == TCPU_SUCCESS) return 0;
  const char* name = "?";
  tcpuGetErrorName(result, &name);
  fprintf(stderr, "%s: %s: %s\n", what, name, tcpuGetLastErrorDetail());
  return 1;
}

/* Adds n elements starting `offset` floats into the buffers, through add_kernel_default
 * on `stream`, and checks each sum exactly (one float addition, as in C) and that
 * nothing around the n outputs was written. */
static int check(const char* what, tcpuStream stream, int offset, int32_t n) {
  for (int i = 0; i < kCapacity + 2 * kSlack; ++i) {
    x[i] = (float)i / 3.0f;
    y[i] = 1.0f / (float)(i + 1);
    out[i] = kUntouched;
  }
  if (failed(what, add_kernel_default(stream, x + offset, y + offset, out + offset, n)) ||
      failed(what, tcpuStreamSynchronize(stream)))
    return 1;
  for (int i = 0; i < kCapacity + 2 * kSlack; ++i) {
    const int inside = i >= offset && i < offset + n;
    const float expected = inside ? x[i] + y[i] : kUntouched;
    if (out[i] != expected) {
      fprintf(stderr, "%s: out[%d] = %.9g, expected %.9g\n", what, i - offset, (double)out[i],
              (double)expected);
      return 1;
    }
  }
  printf("%-52s ok\n", what);
  return 0;
}

int main(void) {
  if (failed("tcpuInit", tcpuInit(0)) || failed("load_add_kernel", load_add_kernel())) return 1;
  tcpuStream stream = NULL;
  if (failed("tcpuStreamCreate", tcpuStreamCreate(&stream, 0))) return 1;

  int errors = 0;
  /* 16-byte aligned pointers, n divisible by 16: the "*fp32:16, ..., i32:16" specialization. */
  errors += check("aligned, n = 65536", NULL, 0, kCapacity);
  errors += check("aligned, n = 65536 - 48 (ragged last block)", NULL, 0, kCapacity - 48);
  errors += check("aligned, n = 4096, on a created stream", stream, 0, 4096);
  /* Anything else: the unhinted "*fp32, ..., i32" specialization. */
  errors += check("aligned, odd n = 65535", NULL, 0, kCapacity - 1);
  errors += check("misaligned (+1 float), n = 65536", NULL, 1, kCapacity);
  errors += check("misaligned (+3 floats), odd n = 1001", stream, 3, 1001);
  errors += check("n = 0 (an empty grid)", NULL, 0, 0);

  /* Both specializations share one algorithm; other ids are refused. */
  if (add_kernel_get_num_algos() != 1 ||
      add_kernel(NULL, x, y, out, 16, add_kernel_get_num_algos()) != TCPU_ERROR_INVALID_VALUE) {
    fprintf(stderr, "add_kernel: %d algorithms, or an invalid algo_id accepted\n",
            add_kernel_get_num_algos());
    ++errors;
  }

  errors += failed("tcpuStreamDestroy", tcpuStreamDestroy(stream));
  errors += failed("unload_add_kernel", unload_add_kernel());
  if (errors == 0) printf("aot_vector_add: all checks passed\n");
  return errors == 0 ? 0 : 1;
}
