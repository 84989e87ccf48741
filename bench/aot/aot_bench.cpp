// The tutorial matmul (fp32, n x n: matmul_f32, matmul_f32_large, matmul_f32_wrap; bf16 inputs
// with fp32 output: matmul_bf16, checked against an fp64 product), softmax (4096 x 1024, one row
// per program) and layer norm backward (4096 x 1024, dX and the dW/dB reduction), compiled ahead
// of time for a named CPU, timed on a machine without LLVM: scripts/gpu/bundle-aot-bench.sh builds
// it, bench/aot/torch_baseline.py times PyTorch's CPU matmul and softmax beside it. Each figure is
// the median of R launches (default 21) after one warm-up.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <tcpu/tcpu.h>

#include "../bf16_bits.hpp"

extern "C" {
#include "layer_norm_dwdb_kernels.h"
#include "layer_norm_dx_kernels.h"
#include "matmul_bf16_kernels.h"
#include "matmul_kernels.h"
#include "softmax_kernels.h"
}

namespace {

template <class Launch>
double medianMilliseconds(int repetitions, Launch launch) {
  std::vector<double> times;
  for (int r = 0; r <= repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    if (const tcpuResult result = launch(); result != TCPU_SUCCESS) {
      std::fprintf(stderr, "launch failed (%d): %s\n", static_cast<int>(result),
                   tcpuGetLastErrorDetail());
      std::exit(1);
    }
    const std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    if (r > 0) times.push_back(elapsed.count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

using tcpu::bench::bf16Bits;
using tcpu::bench::bf16Value;

// The bf16 matmul, timed, and every 97th element of C checked against the fp64 product of the
// bf16 inputs, within n * 2^-24 * sum |a b| (fp32 sums of exact products in any order, the
// bound the tests use): a unit's own order of summation stays within it, a wrong product does
// not. Returns false where an element is outside it.
bool timeBf16(int n, int repetitions) {
  const size_t count = static_cast<size_t>(n) * n;
  std::vector<uint16_t> a(count), b(count);
  std::vector<float> c(count);
  for (size_t i = 0; i < count; ++i) {
    a[i] = bf16Bits(static_cast<float>(i % 97) * 0.01f - 0.5f);
    b[i] = bf16Bits(static_cast<float>(i % 89) * 0.02f - 0.9f);
  }
  const double ms = medianMilliseconds(repetitions, [&] {
    return matmul_bf16_default(nullptr, a.data(), b.data(), c.data(), n, n, n, n, 1, n, 1, n, 1);
  });
  double worst = 0; // the largest error, as a fraction of its bound
  for (size_t e = 0; e < count; e += 97) {
    const size_t i = e / n, j = e % n;
    double exact = 0, magnitude = 0;
    for (size_t k = 0; k < static_cast<size_t>(n); ++k) {
      const double product = double{bf16Value(a[i * n + k])} * bf16Value(b[k * n + j]);
      exact += product;
      magnitude += std::fabs(product);
    }
    worst = std::max(worst, std::fabs(c[e] - exact) / (n * 0x1p-24 * magnitude));
  }
  std::printf("matmul_bf16 %d: %.3f ms, %.1f GFLOP/s (largest error %.3f of its bound)\n", n, ms,
              2.0 * n * n * n / ms / 1e6, worst);
  return worst <= 1.0;
}

} // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 21;
  if (repetitions < 1 || tcpuInit(0) != TCPU_SUCCESS) return 2;
  int threads = 0;
  tcpuGetNumThreads(&threads);
  std::printf("worker threads: %d\n", threads);
  for (const int n : {512, 1024, 2048}) {
    std::vector<float> a(static_cast<size_t>(n) * n), b(a.size()), c(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<float>(i % 97) * 0.01f - 0.5f;
      b[i] = static_cast<float>(i % 89) * 0.02f - 0.9f;
    }
    // The three launchers take the same arguments: the tutorial's tiles, the large ones, the
    // tutorial's own column wrap.
    const struct {
      const char* name;
      decltype(&matmul_default) launch;
    } kernels[] = {{"matmul_f32", matmul_default},
                   {"matmul_f32_large", matmul_large_default},
                   {"matmul_f32_wrap", matmul_wrap_default}};
    for (const auto& kernel : kernels) {
      const double ms = medianMilliseconds(repetitions, [&] {
        return kernel.launch(nullptr, a.data(), b.data(), c.data(), n, n, n, n, 1, n, 1, n, 1);
      });
      std::printf("%s %d: %.3f ms, %.1f GFLOP/s\n", kernel.name, n, ms, 2.0 * n * n * n / ms / 1e6);
    }
  }
  for (const int n : {512, 1024, 2048})
    if (!timeBf16(n, repetitions)) {
      std::fprintf(stderr, "matmul_bf16 %d: an element is outside its bound\n", n);
      return 1;
    }
  const int rows = 4096, cols = 1024;
  std::vector<float> in(static_cast<size_t>(rows) * cols), out(in.size());
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i % 97) * 0.05f - 1.0f;
  const double ms = medianMilliseconds(5 * repetitions, [&] {
    return softmax_default(nullptr, out.data(), in.data(), cols, cols, rows, cols);
  });
  std::printf("softmax 4096x1024: %.3f ms, %.1f GB/s\n", ms, 2.0 * rows * cols * 4 / ms / 1e6);
  // Layer norm backward, bytes as the tutorial counts them (X, dY read and dX written once):
  // the GROUP_SIZE_M = 128 partial rows and their locks are zeroed before each launch.
  const int group = 128;
  std::vector<float> dy(in.size(), 0.01f), dx(in.size()), w(cols, 0.5f), mean(rows, 0.4f),
      rstd(rows, 1.7f), partialDw(static_cast<size_t>(group) * cols), partialDb(partialDw.size()),
      dw(cols), db(cols);
  std::vector<int32_t> locks(2 * group);
  const double backwardMs = medianMilliseconds(5 * repetitions, [&] {
    std::fill(locks.begin(), locks.end(), 0);
    const tcpuResult dxResult = layer_norm_dx_default(
        nullptr, dx.data(), dy.data(), partialDw.data(), partialDb.data(), in.data(), w.data(),
        mean.data(), rstd.data(), locks.data(), cols, cols);
    if (dxResult != TCPU_SUCCESS) return dxResult;
    return layer_norm_dwdb_default(nullptr, partialDw.data(), partialDb.data(), dw.data(),
                                   db.data(), group, cols);
  });
  // dB sums dY over the rows: 4096 x 0.01.
  if (std::fabs(db[0] - rows * 0.01f) > 1e-2f) {
    std::fprintf(stderr, "layer norm backward: dB[0] = %g, not %g\n", db[0], rows * 0.01);
    return 1;
  }
  std::printf("layer_norm_bwd 4096x1024: %.3f ms, %.1f GB/s\n", backwardMs,
              3.0 * rows * cols * 4 / backwardMs / 1e6);
  return 0;
}
