// Tutorial kernels compiled ahead of time for another system (tests/aot_cross/CMakeLists.txt),
// each checked against a double-precision reference computed here: vector add (exact), softmax
// (SLEEF's vector exp), matmul in fp32 and fp16 (tl::dot's register tiles). A plain program, not
// GoogleTest: it is the AOT path's whole user, a C-API program linking the kernel objects.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <tcpu/tcpu.h>

#include "add_kernel_launch.h"
#include "matmul_f16_f32out_launch.h"
#include "matmul_f32_launch.h"
#include "softmax_1024_launch.h"

namespace {

int failures = 0;

void check(const char* what, tcpuResult result) {
  if (result == TCPU_SUCCESS) return;
  const char* name = "?";
  tcpuGetErrorName(result, &name);
  std::fprintf(stderr, "%s: %s: %s\n", what, name, tcpuGetLastErrorDetail());
  ++failures;
}

// The largest error relative to max(1, |reference|), reported against `tolerance`.
void compare(const char* what, const std::vector<float>& got, const std::vector<double>& want,
             double tolerance) {
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i)
    worst = std::max(worst, std::abs(got[i] - want[i]) / std::max(1.0, std::abs(want[i])));
  const bool ok = worst <= tolerance; // false for NaN too
  std::printf("%-36s max error %.3g (tolerance %.3g) %s\n", what, worst, tolerance,
              ok ? "ok" : "FAILED");
  if (!ok) ++failures;
}

std::vector<float> randomFloats(size_t n, std::mt19937& random) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(n);
  for (float& value : values)
    value = uniform(random);
  return values;
}

void vectorAdd(std::mt19937& random) {
  const int32_t n = 100'003; // a partial last block: the mask
  std::vector<float> x = randomFloats(n, random), y = randomFloats(n, random);
  std::vector<float> out(n, NAN);
  check("add_kernel", add_kernel_default(nullptr, x.data(), y.data(), out.data(), n));
  check("add_kernel sync", tcpuStreamSynchronize(nullptr));
  std::vector<double> want(n);
  for (int32_t i = 0; i < n; ++i)
    want[i] = static_cast<double>(x[i] + y[i]); // one float addition: exact
  compare("vector add", out, want, 0);
}

void softmax(std::mt19937& random) {
  const int32_t rows = 37, cols = 1000;
  std::vector<float> in = randomFloats(static_cast<size_t>(rows) * cols, random);
  for (float& value : in)
    value *= 20.0f; // exp over a wide range
  std::vector<float> out(in.size(), NAN);
  check("softmax_1024",
        softmax_1024_default(nullptr, out.data(), in.data(), cols, cols, rows, cols));
  check("softmax sync", tcpuStreamSynchronize(nullptr));
  std::vector<double> want(in.size());
  for (int32_t r = 0; r < rows; ++r) {
    const float* row = &in[static_cast<size_t>(r) * cols];
    double max = row[0], sum = 0;
    for (int32_t c = 0; c < cols; ++c)
      max = std::max(max, double{row[c]});
    for (int32_t c = 0; c < cols; ++c)
      sum += std::exp(row[c] - max);
    for (int32_t c = 0; c < cols; ++c)
      want[static_cast<size_t>(r) * cols + c] = std::exp(row[c] - max) / sum;
  }
  compare("softmax (SLEEF exp)", out, want, 1e-6);
}

// C = A B for M x K and K x N row-major matrices, sizes that leave partial tiles.
template <class In, class Launch> // launch(a, b, c, M, N, K)
void matmul(const char* what, Launch launch, double tolerance, std::mt19937& random) {
  const int32_t M = 131, N = 77, K = 300;
  const std::vector<float> a32 = randomFloats(static_cast<size_t>(M) * K, random);
  const std::vector<float> b32 = randomFloats(static_cast<size_t>(K) * N, random);
  std::vector<In> a(a32.size()), b(b32.size());
  std::vector<double> aValues(a.size()), bValues(b.size()); // what the kernel sees
  for (size_t i = 0; i < a.size(); ++i)
    aValues[i] = static_cast<double>(static_cast<float>(a[i] = static_cast<In>(a32[i])));
  for (size_t i = 0; i < b.size(); ++i)
    bValues[i] = static_cast<double>(static_cast<float>(b[i] = static_cast<In>(b32[i])));
  std::vector<float> c(static_cast<size_t>(M) * N, NAN);
  check(what, launch(a.data(), b.data(), c.data(), M, N, K));
  check(what, tcpuStreamSynchronize(nullptr));
  std::vector<double> want(c.size(), 0.0);
  for (int32_t m = 0; m < M; ++m)
    for (int32_t k = 0; k < K; ++k)
      for (int32_t n = 0; n < N; ++n)
        want[static_cast<size_t>(m) * N + n] +=
            aValues[static_cast<size_t>(m) * K + k] * bValues[static_cast<size_t>(k) * N + n];
  compare(what, c, want, tolerance);
}

} // namespace

int main() {
  check("tcpuInit", tcpuInit(0));
  std::mt19937 random(20);
  vectorAdd(random);
  softmax(random);
  matmul<float>(
      "matmul fp32 (tl::dot)",
      [](float* a, float* b, float* c, int32_t M, int32_t N, int32_t K) {
        return matmul_f32_default(nullptr, a, b, c, M, N, K, K, 1, N, 1, N, 1);
      },
      1e-5, random);
  // fp16 inputs are the halves' bits; the kernel accumulates in fp32.
  matmul<_Float16>(
      "matmul fp16 -> fp32 (tl::dot)",
      [](_Float16* a, _Float16* b, float* c, int32_t M, int32_t N, int32_t K) {
        uint16_t* aBits = reinterpret_cast<uint16_t*>(a);
        uint16_t* bBits = reinterpret_cast<uint16_t*>(b);
        return matmul_f16_f32out_default(nullptr, aBits, bBits, c, M, N, K, K, 1, N, 1, N, 1);
      },
      1e-5, random);
  std::printf("%s\n", failures == 0 ? "all passed" : "FAILED");
  return failures == 0 ? 0 : 1;
}
