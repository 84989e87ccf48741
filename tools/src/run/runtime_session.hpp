// The tool's use of the runtime: starting it, failed calls as Status values, and handles that
// release what they hold. (The full tool registers codegen's loaders in runCli, so that
// tcpuModuleLoad takes .ll, .bc and .cpp files there; tcpu-rt has the runtime's loaders only.)
#ifndef TCPU_TOOLS_RUNTIME_SESSION_HPP
#define TCPU_TOOLS_RUNTIME_SESSION_HPP

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::cli {

// tcpuInit(0).
Status startRuntime();

// A failed runtime call: its result and "<call>: <tcpuGetLastErrorDetail()>".
Status runtimeFailure(tcpuResult result, std::string_view call);

// A loaded module, unloaded when the handle goes.
class ModuleHandle {
public:
  explicit ModuleHandle(tcpuModule module) : module_(module) {}
  ~ModuleHandle();
  ModuleHandle(ModuleHandle&& other) noexcept : module_(std::exchange(other.module_, nullptr)) {}
  ModuleHandle& operator=(ModuleHandle&&) = delete;
  ModuleHandle(const ModuleHandle&) = delete;
  ModuleHandle& operator=(const ModuleHandle&) = delete;
  tcpuModule get() const { return module_; }

private:
  tcpuModule module_;
};

// A tcpuMemAllocEx allocation ending at a guard page, freed when the buffer goes.
class DeviceBuffer {
public:
  // At least one byte: the runtime refuses empty allocations, and a kernel given an empty
  // buffer must still get a valid pointer. Always guarded (TCPU_MEMALLOC_GUARD): a kernel run
  // from the command line with the wrong sizes is the common case, and the guard turns its first
  // access past a buffer into a crash report naming the kernel where it would otherwise overwrite
  // the heap and crash later somewhere unrelated. What it costs, a mapping and a page of address
  // space per buffer, is nothing beside a compile and a launch; the data stays where the kernel
  // expects it (64-byte aligned), so timings are unchanged.
  static Expected<DeviceBuffer> allocate(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept : pointer_(std::exchange(other.pointer_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&&) = delete;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  tcpuDeviceptr get() const { return pointer_; }

private:
  explicit DeviceBuffer(tcpuDeviceptr pointer) : pointer_(pointer) {}
  tcpuDeviceptr pointer_;
};

// What the compiling loaders take (tcpuJitOption); unset options keep their defaults.
struct ModuleLoadOptions {
  std::optional<std::string> kernelName; // TCPU_JIT_KERNEL_NAME
  std::optional<std::string> signature;  // TCPU_JIT_SIGNATURE
  std::optional<std::string> targetCpu;  // TCPU_JIT_TARGET_CPU
};

// The floating-point options of the compiling loaders (tcpuJitOption), apart from
// ModuleLoadOptions so that the commands that take none keep building theirs from three values.
struct MathOptions {
  std::optional<bool> fpContract;  // TCPU_JIT_FP_CONTRACT
  std::optional<bool> fastMath;    // TCPU_JIT_FAST_MATH
  std::optional<unsigned> mathUlp; // TCPU_JIT_MATH_ULP: 10 or 35 (tenths of an ULP)
};

// Loads `path` through tcpuModuleLoadEx. A path that is missing or not a regular file fails with
// TCPU_ERROR_FILE_NOT_FOUND before the runtime sees it.
Expected<ModuleHandle> loadModule(const std::string& path, const ModuleLoadOptions& options,
                                  const MathOptions& math = {});

// The exit code for a failed loadModule: a bad option value (signature, kernel name, target)
// is a usage error; a file that cannot be read or compiled is an input error.
int exitCodeForLoadFailure(const Status& status, const ModuleLoadOptions& options);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_RUNTIME_SESSION_HPP
