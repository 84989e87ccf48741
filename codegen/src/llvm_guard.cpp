#include "llvm_guard.hpp"

#include <mutex>

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>

namespace tcpu::codegen {
namespace {

thread_local std::string fatalReason;

void onFatalError(void*, const char* reason, bool) {
  fatalReason = reason ? reason : "unknown fatal error";
  // Inside runGuarded: unwind to it. Elsewhere LLVM's default ending follows.
  if (auto* recovery = llvm::CrashRecoveryContext::GetCurrent()) recovery->HandleExit(1);
}

void installHandlersOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::install_fatal_error_handler(onFatalError);
    // Crash recovery only acts inside RunSafely; other crashes reach the
    // process's own handlers as before.
    llvm::CrashRecoveryContext::Enable();
  });
}

} // namespace

Status runGuarded(const char* what, llvm::function_ref<Status()> body) {
  installHandlersOnce();
  fatalReason.clear();
  Status result;
  llvm::CrashRecoveryContext recovery;
  if (recovery.RunSafely([&] { result = body(); })) return result;
  return Status(TCPU_ERROR_UNKNOWN,
                concat("LLVM failed while ", what, ": ",
                       fatalReason.empty() ? "it crashed (signal caught)" : fatalReason));
}

DiagnosticCollector::DiagnosticCollector(llvm::LLVMContext& context) {
  context.setDiagnosticHandlerCallBack(&DiagnosticCollector::handle, this);
}

void DiagnosticCollector::handle(const llvm::DiagnosticInfo* info, void* self) {
  if (info->getSeverity() != llvm::DS_Error) return; // warnings and remarks are not failures
  std::string text;
  llvm::raw_string_ostream out(text);
  llvm::DiagnosticPrinterRawOStream printer(out);
  info->print(printer);
  static_cast<DiagnosticCollector*>(self)->errors_.push_back(out.str());
}

std::string DiagnosticCollector::joined() const {
  std::string text;
  for (const std::string& error : errors_)
    text += (text.empty() ? "" : "; ") + error;
  return text;
}

} // namespace tcpu::codegen
