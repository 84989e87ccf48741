#include "pipeline/linked_code.hpp"

#include <set>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

namespace tcpu::codegen {

Status linkCode(llvm::Module& module, const LinkedCode& code) {
  llvm::Expected<std::unique_ptr<llvm::Module>> linked = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(code.bitcode, "aot-launcher"), module.getContext());
  if (!linked)
    return Status(TCPU_ERROR_UNKNOWN, concat("the AOT launcher's bitcode does not parse (a tcpu "
                                             "bug): ",
                                             llvm::toString(linked.takeError())));
  (*linked)->setTargetTriple(module.getTargetTriple());
  (*linked)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*linked)))
    return Status(TCPU_ERROR_UNKNOWN,
                  "the AOT launcher does not link with the kernel (a tcpu bug)");
  const std::set<std::string> exports(code.exports.begin(), code.exports.end());
  for (llvm::GlobalValue& global : module.global_values()) {
    if (global.isDeclaration() || global.hasLocalLinkage()) continue;
    if (exports.contains(global.getName().str())) {
      global.setVisibility(llvm::GlobalValue::DefaultVisibility);
      continue;
    }
    global.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  for (const std::string& name : exports)
    if (const llvm::GlobalValue* global = module.getNamedValue(name);
        !global || global->isDeclaration())
      return Status(TCPU_ERROR_UNKNOWN,
                    concat("the AOT launcher does not define '", name, "' (a tcpu bug)"));
  return {};
}

} // namespace tcpu::codegen
