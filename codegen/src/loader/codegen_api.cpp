// The C entry points of libtcpu_codegen, and its registration at load time.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <llvm/Config/llvm-config.h>

#include "cache/cache_limit.hpp"
#include "cache/object_cache.hpp"
#include "loader/ir_module_loader.hpp"
#include "loader/shared_library_writer.hpp"
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

tcpuResult tcpuCodegenWriteSharedObject(const void* image, size_t size, const char* path,
                                        unsigned int numOptions, tcpuJitOption* options,
                                        void** optionValues) {
  using tcpu::Status;
  const auto failed = [](const std::string& message) {
    return tcpu::reportStatus(
        Status(TCPU_ERROR_INVALID_VALUE, "tcpuCodegenWriteSharedObject: " + message));
  };
  if (!image || size == 0) return failed(!image ? "image is NULL" : "size is 0");
  if (!path || !*path) return failed("path is NULL or empty");
  tcpu::Expected<std::vector<tcpu::JitOption>> collected =
      tcpu::collectJitOptions(numOptions, options, optionValues);
  if (!collected) return failed(collected.status().message());
  try {
    const Status written = tcpu::codegen::writeSharedLibrary(
        {static_cast<const std::byte*>(image), size}, *collected, path);
    if (written.ok()) return TCPU_SUCCESS;
    return tcpu::reportStatus(
        Status(written.code(), "tcpuCodegenWriteSharedObject: " + written.message()));
  } catch (const std::exception& e) {
    return tcpu::reportStatus(
        Status(TCPU_ERROR_UNKNOWN,
               std::string("tcpuCodegenWriteSharedObject: internal error: ") + e.what()));
  }
}

tcpuResult tcpuCodegenTrimCache(void) {
  try {
    tcpu::Expected<std::optional<tcpu::codegen::ObjectCache>> cache =
        tcpu::codegen::objectCacheFromEnvironment();
    if (!cache)
      return tcpu::reportStatus(
          tcpu::Status(cache.status().code(), "tcpuCodegenTrimCache: " + cache.status().message()));
    if (*cache) tcpu::codegen::trimCache((*cache)->directory(), (*cache)->maxBytes());
    return TCPU_SUCCESS;
  } catch (const std::exception& e) {
    return tcpu::reportStatus(tcpu::Status(
        TCPU_ERROR_UNKNOWN, std::string("tcpuCodegenTrimCache: internal error: ") + e.what()));
  }
}

} // extern "C"

namespace {
// Linking codegen is enough to load IR: register when the library loads.
[[maybe_unused]] const bool registeredAtLoad = (tcpuCodegenRegister(), true);
} // namespace
