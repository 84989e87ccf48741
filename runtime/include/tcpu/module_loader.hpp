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
  // One of the texts of tcpuModuleGetText; formats without texts keep this default.
  virtual Expected<std::string> text(tcpuModuleText kind) const {
    return Status(TCPU_ERROR_NOT_SUPPORTED,
                  concat("this module format has no text of kind ", static_cast<int>(kind)));
  }
};

struct JitOption {
  tcpuJitOption key;
  void* value;
};

// What tcpuModuleLoad / tcpuModuleLoadData were given.
struct ModuleSource {
  std::string path;                 // the file, or empty for tcpuModuleLoadData
  std::span<const std::byte> bytes; // the whole image
  std::vector<JitOption> options;   // from the *Ex calls; keys already checked to be known
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

// The options of a *Ex call, their keys checked (TCPU_ERROR_INVALID_VALUE naming the bad one).
TCPU_API Expected<std::vector<JitOption>>
collectJitOptions(unsigned int numOptions, tcpuJitOption* options, void** optionValues);

// For libraries that add C entry points of their own (libtcpu_codegen): records a failed
// `status` as this thread's tcpuGetLastErrorDetail() and returns its code.
TCPU_API tcpuResult reportStatus(const Status& status);

} // namespace tcpu

#endif // TCPU_MODULE_LOADER_HPP
