#include "modules/linked_kernels_module.hpp"

#include <set>
#include <string>
#include <vector>

namespace tcpu::detail {
namespace {

class LinkedKernelsModule final : public LoadedModule {
public:
  explicit LinkedKernelsModule(std::vector<const tcpuKernelDesc*> kernels)
      : kernels_(std::move(kernels)) {}

  const tcpuKernelDesc* findKernel(const std::string& name) const override {
    for (const tcpuKernelDesc* kernel : kernels_)
      if (name == kernel->name) return kernel;
    return nullptr;
  }
  std::vector<std::string> kernelNames() const override {
    std::vector<std::string> names;
    for (const tcpuKernelDesc* kernel : kernels_)
      names.emplace_back(kernel->name);
    return names;
  }

private:
  std::vector<const tcpuKernelDesc*> kernels_;
};

} // namespace

Expected<std::unique_ptr<LoadedModule>>
linkedKernelsModule(std::span<const tcpuKernelDesc* const> kernels) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (!kernels[i]) return Status(TCPU_ERROR_INVALID_VALUE, concat("kernels[", i, "] is NULL"));
    if (!kernels[i]->name)
      return Status(TCPU_ERROR_INVALID_VALUE, concat("kernels[", i, "]->name is NULL"));
    if (!names.insert(kernels[i]->name).second)
      return Status(TCPU_ERROR_INVALID_VALUE, concat("kernels[", i, "]->name '", kernels[i]->name,
                                                     "' is used by an earlier kernel too"));
  }
  return std::unique_ptr<LoadedModule>(new LinkedKernelsModule({kernels.begin(), kernels.end()}));
}

} // namespace tcpu::detail
