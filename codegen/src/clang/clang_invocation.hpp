// How kernel source meets clang: the arguments every in-process compile uses (the build's
// kernel flags, tcpu's include directories, the options), the compiler invocation made from
// them, and its diagnostics collected as text.
#ifndef TCPU_CODEGEN_CLANG_INVOCATION_HPP
#define TCPU_CODEGEN_CLANG_INVOCATION_HPP

#include <memory>
#include <string>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <llvm/Support/raw_ostream.h>

#include "support/compile_options.hpp"

namespace tcpu::codegen {

// clang's diagnostics, printed (file:line:column, carets) into text() instead of stderr.
class CapturedDiagnostics {
public:
  CapturedDiagnostics();
  clang::DiagnosticsEngine& engine() { return *engine_; }
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> shared() { return engine_; }
  std::string text() { return stream_.str(); }

private:
  std::string text_;
  llvm::raw_string_ostream stream_{text_};
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options_;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> engine_;
};

// The driver's arguments for compiling `name` (C++ to LLVM IR, no LLVM passes) with `options`.
std::vector<std::string> kernelClangArguments(const std::string& name,
                                              const CompileOptions& options);

// The invocation the driver makes of kernelClangArguments; where it cannot, an error
// (TCPU_ERROR_INVALID_SOURCE) with the driver's messages, which `diagnostics` holds too.
Expected<std::shared_ptr<clang::CompilerInvocation>>
createKernelInvocation(const std::string& name, const CompileOptions& options,
                       CapturedDiagnostics& diagnostics);

// What a compile of `name` with `options` depends on besides the source text and the files it
// reads: clang's arguments, the header search path clang's driver makes of them on this
// installation (which GCC's libstdc++, ...), and the environment variables the driver reads.
// The driver is asked once per process per argument list (about 1 ms), never the compiler.
Expected<std::string> sourceCompileSignature(const std::string& name,
                                             const CompileOptions& options);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_CLANG_INVOCATION_HPP
