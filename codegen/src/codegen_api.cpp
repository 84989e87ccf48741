// The C entry points of libtcpu_codegen, and its registration at load time.
#include <memory>

#include <llvm/Config/llvm-config.h>

#include "ir_module_loader.hpp"
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

} // extern "C"

namespace {
// Linking codegen is enough to load IR: register when the library loads.
[[maybe_unused]] const bool registeredAtLoad = (tcpuCodegenRegister(), true);
} // namespace
