#include "cpu/host_cpu.hpp"

#include <fstream>
#include <string>

#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif
#if defined(__linux__) && defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace tcpu::detail {
namespace {

#if defined(__x86_64__) || defined(__i386__)
// __builtin_cpu_supports needs literal names, hence the macro.
#define TCPU_X86_FEATURE(name) {name, [] { return __builtin_cpu_supports(name) != 0; }}
struct Feature {
  const char* name;
  bool (*present)();
};
const Feature kX86Features[] = {
    TCPU_X86_FEATURE("sse4.2"),
    TCPU_X86_FEATURE("avx"),
    TCPU_X86_FEATURE("avx2"),
    TCPU_X86_FEATURE("fma"),
    TCPU_X86_FEATURE("f16c"),
    TCPU_X86_FEATURE("bmi2"),
    TCPU_X86_FEATURE("avx512f"),
    TCPU_X86_FEATURE("avx512dq"),
    TCPU_X86_FEATURE("avx512bw"),
    TCPU_X86_FEATURE("avx512vl"),
    TCPU_X86_FEATURE("avx512cd"),
    TCPU_X86_FEATURE("avx512vnni"),
    TCPU_X86_FEATURE("avx512bf16"),
    TCPU_X86_FEATURE("avx512vbmi"),
    TCPU_X86_FEATURE("avx512vpopcntdq"),
};
#undef TCPU_X86_FEATURE
#endif

} // namespace

std::string hostCpuName() {
#if defined(__APPLE__)
  char buffer[256] = {};
  size_t size = sizeof buffer;
  if (sysctlbyname("machdep.cpu.brand_string", buffer, &size, nullptr, 0) == 0) return buffer;
#elif defined(__linux__)
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    for (const char* key : {"model name", "Model", "Hardware"}) {
      if (line.rfind(key, 0) != 0) continue;
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      const auto start = line.find_first_not_of(" \t", colon + 1);
      if (start != std::string::npos) return line.substr(start);
    }
  }
#endif
  return "unknown CPU";
}

std::string hostCpuFeatures() {
  std::string features;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  for (const Feature& feature : kX86Features) {
    if (!feature.present()) continue;
    if (!features.empty()) features += ' ';
    features += feature.name;
  }
#elif defined(__aarch64__)
  features = "neon";
#if defined(__linux__)
  const unsigned long caps = getauxval(AT_HWCAP);
  if (caps & HWCAP_FPHP) features += " fullfp16";
  if (caps & HWCAP_ASIMDDP) features += " dotprod";
  if (caps & HWCAP_SVE) features += " sve";
#endif
#endif
  return features;
}

int hostVectorBits() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 512;
  if (__builtin_cpu_supports("avx")) return 256;
#endif
  return 128;
}

} // namespace tcpu::detail
