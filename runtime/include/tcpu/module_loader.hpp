// Extending tcpuModuleLoad with new module formats. The runtime loads shared
// objects itself; a library that can turn other bytes into kernels (codegen:
// LLVM IR, kernel source) registers a ModuleLoader, so that the runtime never
// links LLVM.
#ifndef TCPU_MODULE_LOADER_HPP
#define TCPU_MODULE_LOADER_HPP

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/kernel_abi.h"
#include "tcpu/status.hpp"

namespace tcpu {

// Kernels whose code stays valid as long as this object lives.
class LoadedModule {
public:
  virtual ~LoadedModule() = default;
  // The kernel named `name`, or nullptr.
  virtual const tcpuKernelDesc* findKernel(const std::string& name) const = 0;
  // Names of the kernels it holds, where the format can list them.
  virtual std::vector<std::string> kernelNames() const = 0;
};

// What tcpuModuleLoad / tcpuModuleLoadData were given.
struct ModuleSource {
  std::string path;                 // the file, or empty for tcpuModuleLoadData
  std::span<const std::byte> bytes; // the whole image
};

class ModuleLoader {
public:
  virtual ~ModuleLoader() = default;
  // Short name of the format, used in messages ("llvm-ir").
  virtual std::string_view formatName() const = 0;
  // Whether these bytes (and path) are this loader's format. Cheap: magic numbers, extensions.
  virtual bool accepts(const ModuleSource& source) const = 0;
  virtual Expected<std::unique_ptr<LoadedModule>> load(const ModuleSource& source) const = 0;
};

// Adds a loader, or replaces the one with the same formatName. Thread-safe.
TCPU_API void registerModuleLoader(std::shared_ptr<const ModuleLoader> loader);

} // namespace tcpu

#endif // TCPU_MODULE_LOADER_HPP
