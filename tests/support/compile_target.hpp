// What the kernels a test compiles without naming a target run on: the host, or the CPU that
// TCPU_TARGET_CPU names for a whole test run (CI runs the kernel tests for x86-64-v3 and the
// x86-64 baseline too: scripts/platforms/run-target-tests.sh). Tests whose expected bits depend on
// the instruction set (fused multiply-adds) ask here.
#ifndef TCPU_TESTS_SUPPORT_COMPILE_TARGET_HPP
#define TCPU_TESTS_SUPPORT_COMPILE_TARGET_HPP

#include <cstdlib>
#include <string_view>

namespace tcpu::test {

// The CPU TCPU_TARGET_CPU names for the run ("" when unset).
inline std::string_view namedTargetCpu() {
  const char* named = std::getenv("TCPU_TARGET_CPU");
  return named ? named : "";
}

// Whether compiled kernels fuse multiply-adds where contraction is allowed: the target has FMA.
inline bool compileTargetHasFma() {
  // x86-64's levels as LLVM names them: FMA came with v3 (AVX2). Other names are taken to be
  // the host or a CPU like it (codegen refuses a CPU with instruction sets the host lacks).
  if (namedTargetCpu() == "x86-64" || namedTargetCpu() == "x86-64-v2") return false;
#if defined(__x86_64__)
  return __builtin_cpu_supports("fma");
#else
  return true; // AArch64 always has FMA
#endif
}

// Whether the target has SSE4.1's blends (every x86-64 level but the baseline; AArch64's NEON has
// its own): without them LLVM's cost model keeps some select-guarded math scalar.
inline bool compileTargetHasBlends() {
  if (namedTargetCpu() == "x86-64") return false;
#if defined(__x86_64__)
  return __builtin_cpu_supports("sse4.1");
#else
  return true;
#endif
}

// Whether tl's dot of bf16 blocks takes vdpbf16ps: AVX512-BF16 on AMD's Zen (codegen's
// hasBf16Dot). The x86-64 levels do not include it (not even v4); other names are taken to be
// the host.
inline bool compileTargetHasBf16Dot() {
  if (namedTargetCpu().starts_with("x86-64")) return false;
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx512bf16") && __builtin_cpu_is("amd");
#else
  return false;
#endif
}

// Whether the target has AMX's bf16 tiles (tl's dot of bf16 blocks in multiples of 32 takes them
// there). Not in any x86-64 level.
inline bool compileTargetHasAmxBf16() {
  if (namedTargetCpu().starts_with("x86-64")) return false;
#if defined(__x86_64__)
  return __builtin_cpu_supports("amx-bf16");
#else
  return false;
#endif
}

} // namespace tcpu::test

#endif // TCPU_TESTS_SUPPORT_COMPILE_TARGET_HPP
