// tcpu_demo: loads a module of kernels, launches them over grids through the
// CUDA-style API, checks every result against a plain loop, and prints a
// table of timings. The README's first command runs it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "tcpu/codegen.h"
#include "tcpu/tcpu.h"
#include "tutorials.hpp"

namespace {

bool check(tcpuResult result, const char* what) {
  if (result == TCPU_SUCCESS) return true;
  const char* name = "?";
  tcpuGetErrorName(result, &name);
  std::fprintf(stderr, "tcpu_demo: %s failed: %s: %s\n", what, name, tcpuGetLastErrorDetail());
  return false;
}

// Median wall time of `runs` calls, in milliseconds.
double medianMs(int runs, const std::function<void()>& body) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    body();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct Row {
  std::string kernel, grid;
  double ms, gigabytes;
  bool ok;
};

void printRow(const Row& row) {
  std::printf("  %-12s %-16s %10.3f %10.2f   %s\n", row.kernel.c_str(), row.grid.c_str(), row.ms,
              row.gigabytes / (row.ms * 1e-3), row.ok ? "ok" : "MISMATCH");
}

constexpr int kRuns = 5;

// Tutorial 01's vector add (BLOCK 1024) over n elements, timed and checked exactly.
Row vectorAddRow(const char* label, tcpuFunction add, int32_t n) {
  std::vector<float> a(n), b(n), out(n);
  for (int32_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000) * 0.25f;
    b[i] = static_cast<float>(i % 77);
  }
  const float *pa = a.data(), *pb = b.data();
  float* po = out.data();
  int32_t count = n;
  void* params[] = {&pa, &pb, &po, &count};
  const unsigned grid = (static_cast<unsigned>(n) + 1023) / 1024;
  bool ok = true;
  const double ms = medianMs(kRuns, [&] {
    ok &= check(tcpuLaunchKernel(add, grid, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr), label);
  });
  for (int32_t i = 0; i < n && ok; ++i)
    ok = out[i] == a[i] + b[i];
  return {label, std::to_string(grid) + "x1x1", ms, 12.0 * n / 1e9, ok};
}

} // namespace

int main(int argc, char** argv) {
  const char* modulePath = argc > 1 ? argv[1] : TCPU_DEMO_KERNELS_PATH;
  if (!check(tcpuInit(0), "tcpuInit")) return 1;
  char cpu[256] = {};
  int threads = 0;
  tcpuDeviceGetName(cpu, sizeof cpu, 0);
  tcpuGetNumThreads(&threads);
  std::printf("tcpu demo: %s, %d worker threads\nmodule: %s\n\n", cpu, threads, modulePath);

  tcpuModule module;
  if (!check(tcpuModuleLoad(&module, modulePath), "tcpuModuleLoad")) return 1;
  tcpuFunction vectorAdd, saxpy, transpose, rowSum;
  if (!check(tcpuModuleGetFunction(&vectorAdd, module, "vector_add"), "get vector_add") ||
      !check(tcpuModuleGetFunction(&saxpy, module, "saxpy"), "get saxpy") ||
      !check(tcpuModuleGetFunction(&transpose, module, "transpose"), "get transpose") ||
      !check(tcpuModuleGetFunction(&rowSum, module, "row_sum"), "get row_sum"))
    return 1;

  std::printf("  %-12s %-16s %10s %10s   %s\n", "kernel", "grid", "ms", "GB/s", "check");
  std::vector<Row> rows;

  // Tutorial 01's kernel at 2^24 elements, precompiled into the module.
  rows.push_back(vectorAddRow("vector_add", vectorAdd, 1 << 24));
  { // saxpy, y updated in place: checked after one launch
    const int32_t n = (1 << 22) + 17;
    std::vector<float> x(n), y(n), expected(n);
    for (int32_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i % 100) / 8.0f;
      y[i] = 1.0f;
    }
    float alpha = 2.0f;
    for (int32_t i = 0; i < n; ++i)
      expected[i] = alpha * x[i] + y[i];
    const float* px = x.data();
    float* py = y.data();
    int32_t count = n;
    void* params[] = {&alpha, &px, &py, &count};
    const unsigned grid = (n + 1023) / 1024;
    bool ok = check(tcpuLaunchKernel(saxpy, grid, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr),
                    "launch saxpy");
    for (int32_t i = 0; i < n && ok; ++i)
      ok = y[i] == expected[i];
    const double ms = medianMs(
        kRuns, [&] { tcpuLaunchKernel(saxpy, grid, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr); });
    rows.push_back({"saxpy", std::to_string(grid) + "x1x1", ms, 12.0 * n / 1e9, ok});
  }
  { // transpose on a 2-D grid of 32x32 tiles, ragged edges
    const int32_t r = 3000, c = 2001;
    std::vector<float> in(size_t(r) * c), out(size_t(r) * c, -1.0f);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<float>(i);
    const float* pin = in.data();
    float* pout = out.data();
    int32_t rowsArg = r, colsArg = c;
    void* params[] = {&pin, &pout, &rowsArg, &colsArg};
    const unsigned gx = (c + 31) / 32, gy = (r + 31) / 32;
    bool launched = true;
    const double ms = medianMs(kRuns, [&] {
      launched &=
          check(tcpuLaunchKernel(transpose, gx, gy, 1, 1, 1, 1, 0, nullptr, params, nullptr),
                "launch transpose");
    });
    bool ok = launched;
    for (int32_t i = 0; i < r && ok; ++i)
      for (int32_t j = 0; j < c && ok; ++j)
        ok = out[size_t(j) * r + i] == in[size_t(i) * c + j];
    rows.push_back({"transpose", std::to_string(gx) + "x" + std::to_string(gy) + "x1", ms,
                    8.0 * r * c / 1e9, ok});
  }
  { // row sums on 4 streams at once, timed with events
    const int32_t r = 4096, c = 1024, streams = 4;
    std::vector<float> in(size_t(r) * c);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<float>(i % 13) - 6.0f;
    std::vector<double> sums(r, 0.0);
    tcpuStream stream[streams];
    tcpuEvent start, stop;
    bool ok =
        check(tcpuEventCreate(&start, 0), "event") && check(tcpuEventCreate(&stop, 0), "event");
    for (auto& s : stream)
      ok = ok && check(tcpuStreamCreate(&s, 0), "tcpuStreamCreate");
    ok = ok && check(tcpuEventRecord(start, nullptr), "record");
    const int32_t rowsPerStream = r / streams;
    for (int32_t s = 0; s < streams && ok; ++s) {
      const float* pin = in.data() + size_t(s) * rowsPerStream * c;
      double* psum = sums.data() + size_t(s) * rowsPerStream;
      int32_t cols = c;
      void* params[] = {&pin, &psum, &cols}; // copied by the launch: reuse is safe
      ok = check(
          tcpuLaunchKernel(rowSum, rowsPerStream, 1, 1, 1, 1, 1, 0, stream[s], params, nullptr),
          "launch row_sum");
    }
    ok = ok && check(tcpuEventRecord(stop, nullptr), "record"); // the null stream waits for all
    float ms = 0;
    ok = ok && check(tcpuEventSynchronize(stop), "sync") &&
         check(tcpuEventElapsedTime(&ms, start, stop), "elapsed");
    for (int32_t i = 0; i < r && ok; ++i) {
      double expected = 0;
      for (int32_t j = 0; j < c; ++j)
        expected += in[size_t(i) * c + j];
      ok = sums[i] == expected;
    }
    for (auto& s : stream)
      tcpuStreamDestroy(s);
    tcpuEventDestroy(start);
    tcpuEventDestroy(stop);
    rows.push_back({"row_sum", "4 streams x 1024", ms, 4.0 * r * c / 1e9, ok});
  }

  // The same kernel as LLVM IR, compiled for this CPU by codegen; ragged: the last block is masked.
  tcpuCodegenRegister();
  const auto loadStart = std::chrono::steady_clock::now();
  tcpuModule jit;
  tcpuFunction jitAdd = nullptr;
  if (!check(tcpuModuleLoad(&jit, TCPU_DEMO_IR_PATH), "tcpuModuleLoad(vector_add.ll)") ||
      !check(tcpuModuleGetFunction(&jitAdd, jit, "add_kernel"), "get add_kernel"))
    return 1;
  const double jitLoadMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - loadStart)
          .count();
  rows.push_back(vectorAddRow("add (JIT IR)", jitAdd, (1 << 24) + 3));
  tcpuModuleUnload(jit);

  bool allOk = true;
  for (const Row& row : rows) {
    printRow(row);
    allOk = allOk && row.ok;
  }
  tcpuModuleUnload(module);
  std::printf("\ncodegen loaded kernels/ir/vector_add.ll in %.1f ms (a compile, or a cache hit)\n",
              jitLoadMs);
  allOk = tcpu::demo::runTutorials(TCPU_TUTORIAL_KERNELS_DIR) && allOk;
  std::printf("\n%s\n", allOk ? "all results match their references" : "SOME RESULTS DIFFER");
  return allOk ? 0 : 1;
}
