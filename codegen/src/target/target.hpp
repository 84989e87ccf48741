// The CPU we compile for: the host with all its features by default, or a
// named CPU; the TargetMachine for it; and which SLEEF variants it can call.
#ifndef TCPU_CODEGEN_TARGET_HPP
#define TCPU_CODEGEN_TARGET_HPP

#include <memory>
#include <string>

#include <llvm/Target/TargetMachine.h>

#include "support/compile_options.hpp"

namespace tcpu::codegen {

struct TargetDescription {
  std::string triple;
  std::string cpu;
  std::string features; // "+avx2,+fma,..." (empty for a named CPU: implied by it)
};

// SLEEF's ISA suffixes usable on the target, per vector width ("" if none).
struct SleefIsa {
  std::string scalar;  // "purecfma" or "purec"
  std::string bits128; // "avx2128", "sse4", "advsimd"
  std::string bits256; // "avx2"
  std::string bits512; // "avx512f"
};

// Registers LLVM's native target once per process.
void initializeNativeTarget();

// cpuName empty: the host with all its features. triple (ahead-of-time code for another system)
// empty: this process's; otherwise cpuName empty means LLVM's "generic" CPU of that triple.
Expected<TargetDescription> describeTarget(const std::string& cpuName,
                                           const std::string& triple = {});

// Whether code for `target` runs on this machine: on x86, a named CPU whose instruction sets
// (AVX-512, AMX, ...) the host lacks is refused, naming what is missing.
Status checkRunsOnHost(const TargetDescription& target);
// forJit: code for ORC in this process; otherwise a relocatable object for a system linker.
Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(const TargetDescription& target,
                                                                   const CompileOptions& options,
                                                                   bool forJit = true);
SleefIsa sleefIsaFor(const llvm::TargetMachine& machine);
// The "prefer-vector-width" kernels are compiled with: "512" where 512-bit vectors are legal
// (x86 with AVX-512), "" (the CPU's own tuning) elsewhere. LLVM's tuning for Intel's AVX-512
// CPUs (Skylake-SP to Emerald Rapids) prefers 256-bit vectors, for the clock drop of 512-bit
// code on the early parts; for block kernels that halves the work of each FMA, and dot's register
// tile follows the preferred width (__tcpu_target_vector_bits). AMD's prefer 512 already.
std::string kernelVectorWidth(const llvm::TargetMachine& machine);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_TARGET_HPP
