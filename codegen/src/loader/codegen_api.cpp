// The C entry points of libtcpu_codegen, and its registration at load time.
#include <memory>
#include <optional>

#include <llvm/Config/llvm-config.h>

#include "loader/ir_module_loader.hpp"
#include "target/target.hpp"
#include "tcpu/codegen.h"

extern "C" {

tcpuResult tcpuCodegenRegister(void) {
  tcpu::registerModuleLoader(std::make_shared<tcpu::codegen::IrModuleLoader>());
  return TCPU_SUCCESS;
}

const char* tcpuCodegenLlvmVersion(void) {
  return LLVM_VERSION_STRING;
}

const char* tcpuCodegenSleefVersion(void) {
  return TCPU_SLEEF_VERSION;
}

tcpuResult tcpuCodegenHostTarget(const char** cpu, const char** features) {
  if (!cpu || !features) return TCPU_ERROR_INVALID_VALUE;
  // The host does not change while the process runs: described once.
  static const std::optional<tcpu::codegen::TargetDescription> host =
      []() -> std::optional<tcpu::codegen::TargetDescription> {
    tcpu::Expected<tcpu::codegen::TargetDescription> described = tcpu::codegen::describeTarget("");
    if (!described) return std::nullopt;
    return described.take();
  }();
  if (!host) return TCPU_ERROR_NOT_SUPPORTED;
  *cpu = host->cpu.c_str();
  *features = host->features.c_str();
  return TCPU_SUCCESS;
}

} // extern "C"

namespace {
// Linking codegen is enough to load IR: register when the library loads.
[[maybe_unused]] const bool registeredAtLoad = (tcpuCodegenRegister(), true);
} // namespace
