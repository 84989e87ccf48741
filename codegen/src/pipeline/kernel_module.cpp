#include "pipeline/kernel_module.hpp"

#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>

namespace tcpu::codegen {

Expected<std::unique_ptr<llvm::Module>> parseKernelModule(std::span<const std::byte> bytesIn,
                                                          const std::string& name,
                                                          llvm::LLVMContext& context) {
  const llvm::StringRef bytes(reinterpret_cast<const char*>(bytesIn.data()), bytesIn.size());
  llvm::SMDiagnostic diagnostic;
  // A copy, because LLVM's text parser needs a NUL after the last byte.
  const std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(bytes, name);
  std::unique_ptr<llvm::Module> module = llvm::parseIR(*buffer, diagnostic, context);
  if (!module)
    return Status(TCPU_ERROR_INVALID_SOURCE,
                  concat(name, ":", diagnostic.getLineNo(), ":", diagnostic.getColumnNo() + 1, ": ",
                         diagnostic.getMessage().str()));
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyModule(*module, &out))
    return Status(TCPU_ERROR_INVALID_SOURCE,
                  concat(name, ": the IR fails LLVM's verifier: ", out.str()));
  // Objects are linked without running initializers, so a module that needs them is refused.
  for (const char* list : {"llvm.global_ctors", "llvm.global_dtors"})
    if (const llvm::GlobalVariable* table = module->getNamedGlobal(list);
        table && table->hasInitializer() && !table->getInitializer()->isNullValue())
      return Status(TCPU_ERROR_NOT_SUPPORTED,
                    concat(name, ": the module has static constructors or destructors (", list,
                           "), which kernel modules cannot have"));
  // Appending linkage is for LLVM's special arrays; the code generator stops with a fatal error
  // on any other global that has it (found by tests/fuzz/fuzz_ir).
  for (const llvm::GlobalVariable& global : module->globals())
    if (global.hasAppendingLinkage() && global.getSection() != "llvm.metadata" &&
        !llvm::is_contained(
            {"llvm.used", "llvm.compiler.used", "llvm.global_ctors", "llvm.global_dtors"},
            global.getName()))
      return Status(TCPU_ERROR_INVALID_SOURCE,
                    concat(name, ": global @", global.getName().str(),
                           " has appending linkage, which only LLVM's special arrays "
                           "(llvm.used, llvm.global_ctors, ...) can have"));
  return module;
}

} // namespace tcpu::codegen
