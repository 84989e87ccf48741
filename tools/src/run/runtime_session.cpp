#include "run/runtime_session.hpp"

#include <filesystem>

#include "cli/exit_codes.hpp"

namespace tcpu::cli {

Status startRuntime() {
  if (const tcpuResult result = tcpuInit(0); result != TCPU_SUCCESS)
    return runtimeFailure(result, "tcpuInit");
  return {};
}

Status runtimeFailure(tcpuResult result, std::string_view call) {
  return Status(result, concat(call, ": ", tcpuGetLastErrorDetail()));
}

ModuleHandle::~ModuleHandle() {
  if (module_) tcpuModuleUnload(module_);
}

Expected<DeviceBuffer> DeviceBuffer::allocate(std::size_t bytes) {
  tcpuDeviceptr pointer = 0;
  if (const tcpuResult result =
          tcpuMemAllocEx(&pointer, bytes == 0 ? 1 : bytes, TCPU_MEMALLOC_GUARD);
      result != TCPU_SUCCESS)
    return runtimeFailure(result, "tcpuMemAllocEx");
  return DeviceBuffer(pointer);
}

DeviceBuffer::~DeviceBuffer() {
  if (pointer_) tcpuMemFree(pointer_);
}

Expected<ModuleHandle> loadModule(const std::string& path, const ModuleLoadOptions& options,
                                  const MathOptions& math) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    return Status(
        TCPU_ERROR_FILE_NOT_FOUND,
        concat("module '", path, "' ",
               std::filesystem::exists(path, error) ? "is not a regular file" : "does not exist"));
  std::vector<tcpuJitOption> keys;
  std::vector<void*> values;
  for (const auto& [key, value] : {std::pair{TCPU_JIT_KERNEL_NAME, &options.kernelName},
                                   {TCPU_JIT_SIGNATURE, &options.signature},
                                   {TCPU_JIT_TARGET_CPU, &options.targetCpu}}) {
    if (!*value) continue;
    keys.push_back(key);
    values.push_back(const_cast<char*>((*value)->c_str()));
  }
  const auto addNumber = [&](tcpuJitOption key, uintptr_t number) {
    keys.push_back(key);
    values.push_back(reinterpret_cast<void*>(number)); // numbers travel as the pointer's value
  };
  if (math.fpContract) addNumber(TCPU_JIT_FP_CONTRACT, *math.fpContract);
  if (math.fastMath) addNumber(TCPU_JIT_FAST_MATH, *math.fastMath);
  if (math.mathUlp) addNumber(TCPU_JIT_MATH_ULP, *math.mathUlp);
  tcpuModule module = nullptr;
  const tcpuResult result = tcpuModuleLoadEx(
      &module, path.c_str(), static_cast<unsigned>(keys.size()), keys.data(), values.data());
  // The runtime's detail names the call and the path already.
  if (result != TCPU_SUCCESS) return Status(result, tcpuGetLastErrorDetail());
  return ModuleHandle(module);
}

int exitCodeForLoadFailure(const Status& status, const ModuleLoadOptions& options) {
  switch (status.code()) {
  case TCPU_ERROR_INVALID_VALUE: // a malformed signature, or one that does not fit the kernel
    return kExitUsage;
  case TCPU_ERROR_NOT_FOUND: // no kernel of the name given, or no kernel at all
    return options.kernelName ? kExitUsage : kExitInputOutput;
  case TCPU_ERROR_NOT_SUPPORTED: // a target CPU LLVM does not know
    return options.targetCpu ? kExitUsage : kExitInputOutput;
  default:
    return kExitInputOutput;
  }
}

} // namespace tcpu::cli
