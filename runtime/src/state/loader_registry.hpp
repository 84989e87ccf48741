// The module formats tcpuModuleLoad understands: shared objects (built in)
// and whatever other libraries register.
#ifndef TCPU_SRC_LOADER_REGISTRY_HPP
#define TCPU_SRC_LOADER_REGISTRY_HPP

#include <memory>
#include <mutex>
#include <vector>

#include "tcpu/module_loader.hpp"

namespace tcpu::detail {

class LoaderRegistry {
public:
  LoaderRegistry();
  void add(std::shared_ptr<const ModuleLoader> loader);
  // Loads with the first loader that accepts the source.
  Expected<std::unique_ptr<LoadedModule>> load(const ModuleSource& source) const;

private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const ModuleLoader>> loaders_;
};

} // namespace tcpu::detail

#endif // TCPU_SRC_LOADER_REGISTRY_HPP
