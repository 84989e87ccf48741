// Keeps LLVM's fatal-error paths away from the user's process: fatal errors
// and crashes inside LLVM become a Status, and diagnostics that LLVM would
// print (and exit on) are collected.
#ifndef TCPU_CODEGEN_LLVM_GUARD_HPP
#define TCPU_CODEGEN_LLVM_GUARD_HPP

#include <string>
#include <vector>

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/LLVMContext.h>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

// Runs `body`; a report_fatal_error or a crash inside it returns
// TCPU_ERROR_UNKNOWN naming `what` and LLVM's reason instead of ending the process.
Status runGuarded(const char* what, llvm::function_ref<Status()> body);

// Collects the errors an LLVMContext reports (instead of LLVM printing them and exiting).
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(llvm::LLVMContext& context);
  bool hasErrors() const { return !errors_.empty(); }
  std::string joined() const;

private:
  static void handle(const llvm::DiagnosticInfo* info, void* self);
  std::vector<std::string> errors_;
};

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_LLVM_GUARD_HPP
