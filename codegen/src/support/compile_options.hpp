// How one module is compiled: what the caller asked for through
// tcpuJitOption values, with the defaults filled in.
#ifndef TCPU_CODEGEN_COMPILE_OPTIONS_HPP
#define TCPU_CODEGEN_COMPILE_OPTIONS_HPP

#include <string>
#include <vector>

#include "tcpu/module_loader.hpp"

namespace tcpu::codegen {

struct CompileOptions {
  std::string kernelName; // the kernel the signature applies to; empty: the only kernel
  std::string signature;  // Triton signature string; empty: types from the IR alone
  bool fpContract = true; // fuse a*b+c into FMA, as Triton's enable_fp_fusion
  bool fastMath = false;
  int mathUlp = 10;                      // SLEEF accuracy: 10 (1.0 ULP) or 35 (3.5 ULP)
  std::string targetCpu;                 // empty: the host CPU with all its features
  bool targetCpuFromEnvironment = false; // targetCpu came from TCPU_TARGET_CPU
  // Ahead-of-time code for another system (tcpu compile --triple): an LLVM triple such as
  // "aarch64-linux-gnu", and the sysroot whose C and C++ headers its kernel source sees (the
  // host's are for the host's ABI). Empty: this process's triple and the host's headers.
  std::string targetTriple;
  std::string sysroot;
  bool useCache = true;
  bool checkBounds = false; // instrument loads and stores (bounds_check.hpp)

  // The options in order; TCPU_CHECK in the environment where TCPU_JIT_CHECK_BOUNDS is not one.
  static Expected<CompileOptions> fromJitOptions(const std::vector<JitOption>& options);
  // Everything above that changes the generated code, for the cache key.
  std::string fingerprint() const;
};

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_COMPILE_OPTIONS_HPP
