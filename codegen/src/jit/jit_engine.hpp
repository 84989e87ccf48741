// The process's one ORC LLJIT, which links compiled objects into memory. Each
// loaded module gets a JITDylib of its own (so equal symbol names in two
// modules never clash) that is removed again on unload.
#ifndef TCPU_CODEGEN_JIT_ENGINE_HPP
#define TCPU_CODEGEN_JIT_ENGINE_HPP

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <llvm/ExecutionEngine/Orc/LLJIT.h>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

class JitEngine {
public:
  // Created on first use; lives until exit.
  static Expected<JitEngine*> instance();

  struct Linked {
    llvm::orc::JITDylib* library;
    std::vector<uint64_t> addresses; // of the symbols asked for, in order
  };
  // Links `object` into a new JITDylib and returns the addresses of `symbols`.
  // An unresolved external symbol is TCPU_ERROR_NOT_FOUND.
  Expected<Linked> link(const std::string& name, const std::string& object,
                        const std::vector<std::string>& symbols);
  void remove(llvm::orc::JITDylib& library);

private:
  JitEngine(std::unique_ptr<llvm::orc::LLJIT> jit, std::string sleefPath);
  Expected<llvm::orc::JITDylib*> addObject(const std::string& name, const std::string& object);
  Expected<std::vector<uint64_t>> lookup(llvm::orc::JITDylib& library,
                                         const std::vector<std::string>& symbols);
  // What ORC reported while linking (it names the missing symbols only there).
  void recordReport(std::string report);
  std::string takeReports();

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  // One link at a time, so that ORC's reports belong to the link that asks for them.
  std::mutex linkMutex_;
  std::mutex reportsMutex_;
  std::string reports_;
  std::string sleefPath_; // the loaded SLEEF library, searched for Sleef_* symbols
  // compiler-rt's builtins (kernel_flags.h), in every module's link order after its own symbols;
  // null when the archive is missing.
  llvm::orc::JITDylib* builtins_ = nullptr;
};

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_JIT_ENGINE_HPP
