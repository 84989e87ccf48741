// The ModuleLoader codegen registers: LLVM IR (.ll text, .bc bitcode) and C++
// kernel source (.cpp, compiled by clang in process) to kernels, through the
// cache when it can.
#ifndef TCPU_CODEGEN_IR_MODULE_LOADER_HPP
#define TCPU_CODEGEN_IR_MODULE_LOADER_HPP

#include "tcpu/module_loader.hpp"

namespace tcpu::codegen {

class IrModuleLoader final : public ModuleLoader {
public:
  std::string_view formatName() const override { return "llvm-ir or C++ kernel source"; }
  bool accepts(const ModuleSource& source) const override;
  Expected<std::unique_ptr<LoadedModule>> load(const ModuleSource& source) const override;
};

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_IR_MODULE_LOADER_HPP
