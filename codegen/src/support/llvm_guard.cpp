#include "support/llvm_guard.hpp"

#include <cstdio>
#include <mutex>

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>

namespace tcpu::codegen {
namespace {

// Where the guarded compile running on this thread wants LLVM's reason.
thread_local std::string* fatalReasonSink = nullptr;

void onFatalError(void*, const char* reason, bool) {
  const char* text = reason ? reason : "unknown fatal error";
  // Inside runGuarded: unwind to it. Elsewhere LLVM ends the process next; say why first.
  if (auto* recovery = llvm::CrashRecoveryContext::GetCurrent()) {
    if (fatalReasonSink) *fatalReasonSink = text;
    recovery->HandleExit(1);
  }
  std::fprintf(stderr, "tcpu: LLVM fatal error outside a guarded compile: %s\n", text);
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
  std::string fatalReason;
  Status result;
  llvm::CrashRecoveryContext recovery;
  // On a thread with a large stack: deeply nested input must not overflow
  // the caller's (a stack overflow cannot be recovered from).
  constexpr unsigned kStackBytes = 64u << 20;
  const auto guardedBody = [&] {
    fatalReasonSink = &fatalReason;
    result = body();
    fatalReasonSink = nullptr;
  };
  if (recovery.RunSafelyOnThread(guardedBody, kStackBytes)) return result;
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
