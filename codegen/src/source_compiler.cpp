#include "source_compiler.hpp"

#include <filesystem>
#include <system_error>
#include <vector>

#include <dlfcn.h>
#if defined(__GLIBC__)
#include <link.h>
#endif

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

#include "debug_log.hpp"
#include "kernel_flags.h"
#include "llvm_guard.hpp"

namespace tcpu::codegen {
namespace {

// The directory of the binary this code is linked into: libtcpu_codegen, or an
// executable that links codegen statically (the tcpu tool). Empty if unknown.
std::filesystem::path ownBinaryDirectory() {
  Dl_info info{};
  const char* binary = nullptr;
#if defined(__GLIBC__)
  link_map* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(&ownBinaryDirectory), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) == 0)
    return {};
  // For the main program glibc reports argv[0], which may be a bare name found on PATH.
  binary = map != nullptr && map->l_name[0] == '\0' ? "/proc/self/exe" : info.dli_fname;
#else
  if (dladdr(reinterpret_cast<void*>(&ownBinaryDirectory), &info) == 0) return {};
  binary = info.dli_fname;
#endif
  if (binary == nullptr) return {};
  std::error_code error;
  const std::filesystem::path path = std::filesystem::canonical(binary, error);
  return error ? std::filesystem::path() : path.parent_path();
}

// Where kernels find tcpu/tl.h: an installed tcpu's <prefix>/include, beside the
// <prefix>/bin or <prefix>/lib holding this binary; else (a build tree) the
// source tree's directories that the build baked in.
const std::vector<std::string>& kernelIncludeDirectories() {
  static const std::vector<std::string> directories = [] {
    // <prefix>/bin, <prefix>/lib, or Debian's multiarch <prefix>/lib/<triple>.
    std::filesystem::path directory = ownBinaryDirectory();
    for (int up = 0; up < 2 && !directory.empty() && directory.has_parent_path(); ++up) {
      directory = directory.parent_path();
      const std::filesystem::path installed = directory / "include";
      std::error_code error;
      if (std::filesystem::is_regular_file(installed / "tcpu" / "tl.h", error)) {
        debugLog(concat("kernel headers: ", installed.string(), " (installed)"));
        return std::vector<std::string>{installed.string()};
      }
    }
    return std::vector<std::string>{TCPU_KERNEL_INCLUDE_DIRS};
  }();
  return directories;
}

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
  for (const std::string& directory : kernelIncludeDirectories())
    arguments.push_back("-I" + directory);
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
  // Parameter names reach the kernel descriptions (tcpuFuncGetParamInfo, AOT launchers).
  invocation->getCodeGenOpts().DiscardValueNames = false;
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

bool isKernelSourceText(std::span<const std::byte> bytes) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const size_t first = text.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string_view::npos) return false;
  const std::string_view rest = text.substr(first);
  return rest.starts_with('#') || rest.starts_with("//") || rest.starts_with("/*");
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
