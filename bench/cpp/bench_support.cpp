#include "bench_support.hpp"

#include <cstdlib>
#include <map>
#include <string>

#include "tcpu/codegen.h"

namespace tcpu::bench {

namespace {
// TCPU_BENCH_TARGET_CPU=NAME compiles the kernels for that LLVM CPU instead of the host's, e.g.
// x86-64-v3 for AVX2 figures on an AVX-512 machine (with ONEDNN_MAX_CPU_ISA=AVX2 for oneDNN's).
tcpuResult loadModule(tcpuModule* module, const char* path) {
  const char* cpu = std::getenv("TCPU_BENCH_TARGET_CPU");
  if (!cpu || !*cpu) return tcpuModuleLoad(module, path);
  tcpuJitOption option = TCPU_JIT_TARGET_CPU;
  void* value = const_cast<char*>(cpu);
  return tcpuModuleLoadEx(module, path, 1, &option, &value);
}

// Each module is loaded once per process (the benchmarks run on one thread)
// and stays loaded: every benchmark launches from the same module.
tcpuFunction moduleFunction(const std::string& path, const char* name) {
  static std::map<std::string, tcpuModule> modules;
  auto [entry, inserted] = modules.try_emplace(path, nullptr);
  if (inserted && loadModule(&entry->second, path.c_str()) != TCPU_SUCCESS) entry->second = nullptr;
  tcpuFunction function = nullptr;
  if (!entry->second || tcpuModuleGetFunction(&function, entry->second, name) != TCPU_SUCCESS)
    return nullptr;
  return function;
}
} // namespace

tcpuFunction benchFunction(const char* name) {
  return moduleFunction(TCPU_BENCH_KERNELS_PATH, name);
}

tcpuFunction bitcodeFunction(const std::string& path, const char* name) {
  tcpuCodegenRegister();
  return moduleFunction(path, name);
}

tcpuFunction tutorialFunction(const char* file, const char* name) {
  return bitcodeFunction(std::string(TCPU_TUTORIAL_KERNELS_DIR) + "/" + file, name);
}

std::vector<float> filled(size_t count, float scale) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<float>(i % 97) * scale - 1.0f;
  return values;
}

std::vector<uint16_t> toBf16(const std::vector<float>& values) {
  std::vector<uint16_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    bits[i] = bf16Bits(values[i]);
  return bits;
}

bool succeeded(benchmark::State& state, tcpuResult result) {
  if (result == TCPU_SUCCESS) return true;
  state.SkipWithError((std::string("tcpu call failed: ") + tcpuGetLastErrorDetail()).c_str());
  return false;
}

} // namespace tcpu::bench
