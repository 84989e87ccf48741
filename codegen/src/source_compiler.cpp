#include "source_compiler.hpp"

#include <filesystem>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/TargetParser/Host.h>

#include "kernel_flags.h"
#include "llvm_guard.hpp"

namespace tcpu::codegen {
namespace {

Status compileInto(std::string_view source, const std::string& name, const CompileOptions& options,
                   std::string& bitcode) {
  std::string diagnosticsText;
  llvm::raw_string_ostream diagnosticsStream(diagnosticsText);
  auto diagnosticOptions = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  auto* printer = new clang::TextDiagnosticPrinter(diagnosticsStream, diagnosticOptions.get());
  auto diagnostics = clang::CompilerInstance::createDiagnostics(diagnosticOptions.get(), printer);

  const std::string triple = "--target=" + llvm::sys::getProcessTriple();
  const std::string resourceDir = TCPU_CLANG_RESOURCE_DIR;
  std::vector<std::string> arguments = {
      "clang++", triple, "-x", "c++", "-std=c++20",
      // Frontend at -O2 (no optnone), but no LLVM passes: the IR pipeline
      // optimizes for the target once.
      "-O2", "-Xclang", "-disable-llvm-passes", "-fno-exceptions", "-fno-rtti", "-fno-math-errno",
      options.fpContract ? "-ffp-contract=on" : "-ffp-contract=off", "-resource-dir", resourceDir,
      "-emit-llvm", "-c", name};
  for (const char* directory : {TCPU_KERNEL_INCLUDE_DIRS})
    arguments.push_back(std::string("-I") + directory);
  if (options.fastMath) arguments.push_back("-ffast-math");
  std::vector<const char*> argv;
  for (const std::string& argument : arguments)
    argv.push_back(argument.c_str());

  clang::CreateInvocationOptions invocationOptions;
  invocationOptions.Diags = diagnostics;
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocation(argv, invocationOptions);
  if (!invocation)
    return Status(TCPU_ERROR_INVALID_SOURCE, concat("cannot set up the C++ compiler for ", name,
                                                    ": ", diagnosticsStream.str()));
  // The text is compiled from memory; `name` only places it (and its includes).
  invocation->getPreprocessorOpts().addRemappedFile(
      name,
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source.data(), source.size()), name)
          .release());
  invocation->getFrontendOpts().DisableFree = false;
  // The compiler's own options (not the printer's, which keeps its carets):
  // without carets it prints no "N errors generated." summary to stderr.
  invocation->getDiagnosticOpts().ShowCarets = false;

  clang::CompilerInstance compiler;
  compiler.setInvocation(std::move(invocation));
  compiler.setDiagnostics(diagnostics.get());
  llvm::LLVMContext context;
  clang::EmitLLVMOnlyAction action(&context);
  const bool compiled = compiler.ExecuteAction(action);
  std::unique_ptr<llvm::Module> module = compiled ? action.takeModule() : nullptr;
  if (!module)
    return Status(TCPU_ERROR_INVALID_SOURCE,
                  concat("C++ kernel source does not compile:\n", diagnosticsStream.str()));
  llvm::raw_string_ostream out(bitcode);
  llvm::WriteBitcodeToFile(*module, out);
  out.flush();
  return {};
}

} // namespace

bool isKernelSourcePath(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".cpp" || extension == ".cc" || extension == ".cxx";
}

Expected<std::string> compileSourceToBitcode(std::string_view source, const std::string& name,
                                             const CompileOptions& options) {
  std::string bitcode;
  Status status = runGuarded("compiling C++ kernel source",
                             [&] { return compileInto(source, name, options, bitcode); });
  if (!status.ok()) return status;
  return bitcode;
}

} // namespace tcpu::codegen
