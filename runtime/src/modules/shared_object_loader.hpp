// Loads shared objects of precompiled kernels (ELF or Mach-O) with dlopen.
#ifndef TCPU_SRC_SHARED_OBJECT_LOADER_HPP
#define TCPU_SRC_SHARED_OBJECT_LOADER_HPP

#include "tcpu/module_loader.hpp"

namespace tcpu::detail {

class SharedObjectLoader final : public ModuleLoader {
public:
  std::string_view formatName() const override { return "shared object"; }
  bool accepts(const ModuleSource& source) const override;
  Expected<std::unique_ptr<LoadedModule>> load(const ModuleSource& source) const override;
};

} // namespace tcpu::detail

#endif // TCPU_SRC_SHARED_OBJECT_LOADER_HPP
