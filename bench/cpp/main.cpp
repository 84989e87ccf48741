// tcpu_bench: Google Benchmark's main, plus the machine facts every figure
// needs beside it (CPU, features, worker threads).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "tcpu/tcpu.h"

int main(int argc, char** argv) {
  if (tcpuInit(0) != TCPU_SUCCESS) {
    std::fprintf(stderr, "tcpu_bench: tcpuInit failed: %s\n", tcpuGetLastErrorDetail());
    return 1;
  }
  char name[256] = {}, features[1024] = {};
  int threads = 0;
  tcpuDeviceGetName(name, sizeof name, 0);
  tcpuDeviceGetFeatures(features, sizeof features, 0);
  tcpuGetNumThreads(&threads);
  benchmark::AddCustomContext("tcpu_cpu", name);
  benchmark::AddCustomContext("tcpu_features", features);
  benchmark::AddCustomContext("tcpu_threads", std::to_string(threads));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
