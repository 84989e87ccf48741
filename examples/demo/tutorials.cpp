// Each tutorial kernel on a small input: launched through the CUDA-style API,
// compared with a reference computed in double, reported with its largest
// error beside the tolerance its test uses (tests/kernels). Vector add is
// compiled from its C++ source at run time; the others load as bitcode.
#include "tutorials.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "tcpu/codegen.h"
#include "tcpu/tcpu.h"

namespace tcpu::demo {
namespace {

std::vector<float> inputs(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t state = seed * 2654435761u + 1;
  for (float& x : v) {
    state = state * 1664525u + 1013904223u;
    x = static_cast<float>(state >> 8) / 8388608.0f - 1.0f; // [-1, 1)
  }
  return v;
}

template <class... Args>
bool launch(tcpuFunction f, unsigned gx, unsigned gy, Args... args) {
  void* params[] = {static_cast<void*>(&args)..., nullptr};
  if (tcpuLaunchKernel(f, gx, gy, 1, 1, 1, 1, 0, nullptr, params, nullptr) == TCPU_SUCCESS)
    return true;
  std::fprintf(stderr, "tcpu_demo: launch failed: %s\n", tcpuGetLastErrorDetail());
  return false;
}

// Largest |got - want| / (1 + |want|): absolute for small values, relative
// for large ones, as one figure per row.
double worstError(const std::vector<float>& got, const std::vector<double>& want) {
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::fabs(got[i] - want[i]) / (1.0 + std::fabs(want[i])));
  return std::isnan(worst) ? INFINITY : worst;
}

struct Result {
  const char* kernel;
  std::string shape;
  double ms, error, tolerance;
  bool launched;
};

class Tutorials {
public:
  explicit Tutorials(const char* directory) : directory_(directory) {}
  ~Tutorials() {
    for (tcpuModule module : modules_)
      tcpuModuleUnload(module);
  }
  Tutorials(const Tutorials&) = delete;
  Tutorials& operator=(const Tutorials&) = delete;

  tcpuFunction function(const char* file, const char* name) {
    tcpuModule module = nullptr;
    tcpuFunction f = nullptr;
    const std::string path = directory_ + "/" + file;
    if (tcpuModuleLoad(&module, path.c_str()) != TCPU_SUCCESS ||
        (modules_.push_back(module), tcpuModuleGetFunction(&f, module, name)) != TCPU_SUCCESS)
      std::fprintf(stderr, "tcpu_demo: %s: %s\n", path.c_str(), tcpuGetLastErrorDetail());
    return f;
  }

private:
  std::string directory_;
  std::vector<tcpuModule> modules_;
};

// Times one call (the kernels here are small: a single run is the figure).
double timedMs(const std::function<bool()>& body, bool& launched) {
  const auto start = std::chrono::steady_clock::now();
  launched = body();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

Result vectorAdd(Tutorials& t) {
  const int32_t n = 100000 + 7;
  const auto a = inputs(n, 1), b = inputs(n, 2);
  std::vector<float> out(n);
  std::vector<double> want(n);
  for (size_t i = 0; i < want.size(); ++i)
    want[i] = static_cast<double>(a[i] + b[i]); // fp32 addition is exact to compare
  Result r{"vector_add (.cpp)", std::to_string(n), 0, 0, 0, false};
  if (tcpuFunction f = t.function("vector_add.cpp", "add_kernel"))
    r.ms =
        timedMs([&] { return launch(f, (n + 1023) / 1024, 1, a.data(), b.data(), out.data(), n); },
                r.launched);
  r.error = worstError(out, want);
  return r;
}

Result softmax(Tutorials& t) {
  const int32_t rows = 300, cols = 781;
  const auto x = inputs(size_t(rows) * cols, 3);
  std::vector<float> y(x.size());
  std::vector<double> want(x.size());
  for (int32_t r = 0; r < rows; ++r) {
    const float* row = x.data() + size_t(r) * cols;
    double top = -INFINITY, total = 0;
    for (int32_t c = 0; c < cols; ++c)
      top = std::max(top, double(row[c]));
    for (int32_t c = 0; c < cols; ++c)
      total += std::exp(row[c] - top);
    for (int32_t c = 0; c < cols; ++c)
      want[size_t(r) * cols + c] = std::exp(row[c] - top) / total;
  }
  Result r{"softmax", std::to_string(rows) + "x" + std::to_string(cols), 0, 0, 1e-5, false};
  // One row per program: the CPU grid for the persistent kernel (kernels/README.md).
  if (tcpuFunction f = t.function("softmax.bc", "softmax_1024"))
    r.ms = timedMs(
        [&] { return launch(f, unsigned(rows), 1, y.data(), x.data(), cols, cols, rows, cols); },
        r.launched);
  r.error = worstError(y, want);
  return r;
}

Result matmul(Tutorials& t) {
  const int32_t m = 200, n = 130, k = 300;
  const auto a = inputs(size_t(m) * k, 4), b = inputs(size_t(k) * n, 5);
  std::vector<float> c(size_t(m) * n);
  std::vector<double> want(c.size(), 0.0);
  for (int32_t i = 0; i < m; ++i)
    for (int32_t p = 0; p < k; ++p)
      for (int32_t j = 0; j < n; ++j)
        want[size_t(i) * n + j] += double(a[size_t(i) * k + p]) * b[size_t(p) * n + j];
  Result r{"matmul_f32",
           std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
           0,
           0,
           1e-5 * k,
           false};
  const unsigned grid = unsigned(((m + 63) / 64) * ((n + 63) / 64));
  if (tcpuFunction f = t.function("matmul.bc", "matmul_f32"))
    r.ms = timedMs(
        [&] { return launch(f, grid, 1, a.data(), b.data(), c.data(), m, n, k, k, 1, n, 1, n, 1); },
        r.launched);
  r.error = worstError(c, want);
  return r;
}

Result layerNorm(Tutorials& t) {
  const int32_t rows = 64, cols = 3000;
  const auto x = inputs(size_t(rows) * cols, 6), w = inputs(cols, 7), b = inputs(cols, 8);
  std::vector<float> y(x.size()), mean(rows), rstd(rows);
  std::vector<double> want(x.size());
  for (int32_t r = 0; r < rows; ++r) {
    const float* row = x.data() + size_t(r) * cols;
    double mu = 0, var = 0;
    for (int32_t c = 0; c < cols; ++c)
      mu += row[c];
    mu /= cols;
    for (int32_t c = 0; c < cols; ++c)
      var += (row[c] - mu) * (row[c] - mu);
    const double inv = 1.0 / std::sqrt(var / cols + 1e-5);
    for (int32_t c = 0; c < cols; ++c)
      want[size_t(r) * cols + c] = (row[c] - mu) * inv * w[c] + b[c];
  }
  Result r{"layer_norm fwd", std::to_string(rows) + "x" + std::to_string(cols), 0, 0, 2e-5, false};
  if (tcpuFunction f = t.function("layer_norm.bc", "layer_norm_fwd_f32"))
    r.ms = timedMs(
        [&] {
          return launch(f, rows, 1, x.data(), y.data(), w.data(), b.data(), mean.data(),
                        rstd.data(), cols, cols, 1e-5f);
        },
        r.launched);
  r.error = worstError(y, want);
  return r;
}

Result asinKernel(Tutorials& t) {
  const int32_t n = 50000 + 3;
  const auto x = inputs(n, 9);
  std::vector<float> y(n);
  std::vector<double> want(n);
  for (int32_t i = 0; i < n; ++i)
    want[size_t(i)] = std::asin(double(x[size_t(i)]));
  Result r{"asin (SLEEF)", std::to_string(n), 0, 0, 2.4e-7, false}; // 1 ULP of values <= pi/2
  if (tcpuFunction f = t.function("extern_math.bc", "asin_kernel"))
    r.ms =
        timedMs([&] { return launch(f, (n + 1023) / 1024, 1, x.data(), y.data(), n); }, r.launched);
  r.error = worstError(y, want);
  return r;
}

} // namespace

bool runTutorials(const char* kernelsDirectory) {
  tcpuCodegenRegister();
  Tutorials tutorials(kernelsDirectory);
  std::printf("\nTriton's tutorials in tl (%s), against double references:\n", kernelsDirectory);
  std::printf("  %-18s %-14s %10s %12s %12s   %s\n", "kernel", "shape", "ms", "max error",
              "tolerance", "check");
  bool allOk = true;
  for (const auto& run : {vectorAdd, softmax, matmul, layerNorm, asinKernel}) {
    const Result r = run(tutorials);
    const bool ok = r.launched && r.error <= r.tolerance;
    allOk = allOk && ok;
    std::printf("  %-18s %-14s %10.3f %12.2e %12.2e   %s\n", r.kernel, r.shape.c_str(), r.ms,
                r.error, r.tolerance, ok ? "ok" : "MISMATCH");
  }
  return allOk;
}

} // namespace tcpu::demo
