#include "support/compile_options.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace tcpu::codegen {
namespace {

const char* optionName(tcpuJitOption key) {
  switch (key) {
  case TCPU_JIT_KERNEL_NAME:
    return "TCPU_JIT_KERNEL_NAME";
  case TCPU_JIT_SIGNATURE:
    return "TCPU_JIT_SIGNATURE";
  case TCPU_JIT_FP_CONTRACT:
    return "TCPU_JIT_FP_CONTRACT";
  case TCPU_JIT_FAST_MATH:
    return "TCPU_JIT_FAST_MATH";
  case TCPU_JIT_MATH_ULP:
    return "TCPU_JIT_MATH_ULP";
  case TCPU_JIT_TARGET_CPU:
    return "TCPU_JIT_TARGET_CPU";
  case TCPU_JIT_CACHE:
    return "TCPU_JIT_CACHE";
  case TCPU_JIT_CHECK_BOUNDS:
    return "TCPU_JIT_CHECK_BOUNDS";
  case TCPU_JIT_MAX_ENUM:
    break;
  }
  return "unknown option";
}

Expected<bool> flag(const JitOption& option) {
  const auto value = reinterpret_cast<uintptr_t>(option.value);
  if (value > 1)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat(optionName(option.key), "=", value, " must be 0 or 1"));
  return value == 1;
}

Expected<std::string> text(const JitOption& option) {
  if (!option.value)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat(optionName(option.key), " needs a string, got NULL"));
  return std::string(static_cast<const char*>(option.value));
}

// TCPU_CHECK: "bounds" checks bounds; unset, empty or "none" checks nothing.
Expected<bool> boundsCheckFromEnvironment() {
  const char* value = std::getenv("TCPU_CHECK");
  if (!value || std::string_view(value).empty() || std::string_view(value) == "none") return false;
  if (std::string_view(value) == "bounds") return true;
  return Status(TCPU_ERROR_INVALID_VALUE,
                concat("TCPU_CHECK=", value, " is not a check: use 'bounds' or 'none'"));
}

} // namespace

Expected<CompileOptions> CompileOptions::fromJitOptions(const std::vector<JitOption>& options) {
  CompileOptions result;
  bool checkBoundsGiven = false, targetCpuGiven = false;
  for (const JitOption& option : options) {
    Status problem;
    const auto setFlag = [&](bool& field) {
      Expected<bool> value = flag(option);
      if (value)
        field = *value;
      else
        problem = value.status();
    };
    const auto setText = [&](std::string& field) {
      Expected<std::string> value = text(option);
      if (value)
        field = value.take();
      else
        problem = value.status();
    };
    switch (option.key) {
    case TCPU_JIT_KERNEL_NAME:
      setText(result.kernelName);
      break;
    case TCPU_JIT_SIGNATURE:
      setText(result.signature);
      break;
    case TCPU_JIT_FP_CONTRACT:
      setFlag(result.fpContract);
      break;
    case TCPU_JIT_FAST_MATH:
      setFlag(result.fastMath);
      break;
    case TCPU_JIT_CACHE:
      setFlag(result.useCache);
      break;
    case TCPU_JIT_CHECK_BOUNDS:
      setFlag(result.checkBounds);
      checkBoundsGiven = true;
      break;
    case TCPU_JIT_TARGET_CPU:
      setText(result.targetCpu);
      targetCpuGiven = true;
      break;
    case TCPU_JIT_MATH_ULP: {
      const auto ulp = reinterpret_cast<uintptr_t>(option.value);
      if (ulp != 10 && ulp != 35)
        problem = Status(TCPU_ERROR_INVALID_VALUE, concat("TCPU_JIT_MATH_ULP=", ulp,
                                                          " must be 10 (1.0 ULP) or 35 (3.5 ULP)"));
      else
        result.mathUlp = static_cast<int>(ulp);
      break;
    }
    case TCPU_JIT_MAX_ENUM:
      problem = Status(TCPU_ERROR_INVALID_VALUE, "TCPU_JIT_MAX_ENUM is not an option");
      break;
    }
    if (!problem.ok()) return problem;
  }
  // TCPU_TARGET_CPU chooses the CPU for every load that does not (a whole test run on the
  // AVX2 or baseline x86-64 code paths); describeTarget checks the name.
  if (const char* cpu = std::getenv("TCPU_TARGET_CPU"); !targetCpuGiven && cpu && *cpu) {
    result.targetCpu = cpu;
    result.targetCpuFromEnvironment = true;
  }
  if (!checkBoundsGiven) {
    Expected<bool> checkBounds = boundsCheckFromEnvironment();
    if (!checkBounds) return checkBounds.status();
    result.checkBounds = *checkBounds;
  }
  return result;
}

std::string CompileOptions::fingerprint() const {
  return concat("kernel=", kernelName, ";signature=", signature, ";contract=", fpContract,
                ";fast=", fastMath, ";ulp=", mathUlp, ";cpu=", targetCpu, ";bounds=", checkBounds,
                targetTriple.empty() ? "" : concat(";triple=", targetTriple, ";sysroot=", sysroot));
}

} // namespace tcpu::codegen
