// The demo's kernels, in the triton-cpu ABI, built into a module that
// tcpuModuleLoad opens. Each program works on one block, as in Triton.
#include <cstdint>

#include "tcpu/kernel.hpp"

// Tutorial 01: out = a + b, BLOCK elements per program.
template <int BLOCK>
void vector_add(const float* a, const float* b, float* out, int32_t n, uint32_t pid, uint32_t,
                uint32_t, uint32_t, uint32_t, uint32_t) {
  const int64_t start = int64_t{pid} * BLOCK;
  const int64_t end = start + BLOCK < n ? start + BLOCK : n;
  for (int64_t i = start; i < end; ++i)
    out[i] = a[i] + b[i];
}
TCPU_EXPORT_KERNEL_AS(vector_add, vector_add<1024>)

// y = alpha * x + y.
template <int BLOCK>
void saxpy(float alpha, const float* x, float* y, int32_t n, uint32_t pid, uint32_t, uint32_t,
           uint32_t, uint32_t, uint32_t) {
  const int64_t start = int64_t{pid} * BLOCK;
  const int64_t end = start + BLOCK < n ? start + BLOCK : n;
  for (int64_t i = start; i < end; ++i)
    y[i] = alpha * x[i] + y[i];
}
TCPU_EXPORT_KERNEL_AS(saxpy, saxpy<1024>)

// A 2-D grid: program (x, y) transposes one TILE x TILE tile of a rows x cols matrix.
template <int TILE>
void transpose(const float* in, float* out, int32_t rows, int32_t cols, uint32_t px, uint32_t py,
               uint32_t, uint32_t, uint32_t, uint32_t) {
  const int32_t r0 = static_cast<int32_t>(py) * TILE, c0 = static_cast<int32_t>(px) * TILE;
  for (int32_t r = r0; r < r0 + TILE && r < rows; ++r)
    for (int32_t c = c0; c < c0 + TILE && c < cols; ++c)
      out[int64_t{c} * rows + r] = in[int64_t{r} * cols + c];
}
TCPU_EXPORT_KERNEL_AS(transpose, transpose<32>)

// One program per row: sums of a rows x cols matrix, accumulated in double.
void row_sum(const float* in, double* sums, int32_t cols, uint32_t row, uint32_t, uint32_t,
             uint32_t, uint32_t, uint32_t) {
  double total = 0;
  const float* line = in + int64_t{row} * cols;
  for (int32_t c = 0; c < cols; ++c)
    total += line[c];
  sums[row] = total;
}
TCPU_EXPORT_KERNEL(row_sum)
