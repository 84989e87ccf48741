#include "clang/source_compiler.hpp"

#include <time.h>

#include <chrono>
#include <filesystem>
#include <system_error>

#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/HeaderSearchOptions.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include "support/debug_log.hpp"
#include "support/kill_point.hpp"
#include "support/llvm_guard.hpp"
#include "clang/clang_invocation.hpp"
#include "clang/kernel_headers.hpp"
#include "clang/precompiled_header.hpp"

namespace tcpu::codegen {
namespace {

// Records every file the compile reads, system headers included, except the PCH-like module
// files and names that are no files.
class InputCollector final : public clang::DependencyCollector {
public:
  bool needSystemDependencies() override { return true; }
  bool sawDependency(llvm::StringRef file, bool, bool, bool isModuleFile, bool isMissing) override {
    return !isModuleFile && !isMissing && !file.starts_with("<");
  }
};

// Now, on the clock file times come from: the kernel stamps files with a clock read once a tick
// (a few ms), so a file written after a fine-grained "now" may still carry an earlier time.
int64_t fileClockNowNs() {
#if defined(CLOCK_REALTIME_COARSE)
  timespec now{};
  clock_gettime(CLOCK_REALTIME_COARSE, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
#else
  const auto now = std::chrono::system_clock::now() - std::chrono::milliseconds(10);
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
#endif
}

// The inputs worth stamping: not the source itself (its text is part of the key), not tcpu's
// headers (their content is). Empty, with `known` false, when one may have changed while the
// compile ran (modified at or after `startedNs`): clang may have read either version.
std::vector<FileStamp> stampInputs(llvm::ArrayRef<std::string> files, const std::string& name,
                                   int64_t startedNs, bool& known) {
  std::vector<FileStamp> stamps;
  known = false;
  for (const std::string& file : files) {
    std::error_code error;
    // Not normalized: "dir/../x" is where dir's link points, which ".." cannot know.
    const std::filesystem::path absolute = std::filesystem::absolute(file, error);
    if (file == name || (!error && isKernelHeader(absolute))) continue;
    std::optional<FileStamp> stamp = error ? std::nullopt : stampFile(absolute.string());
    if (!stamp) {
      debugLog(concat("cache: cannot stamp ", file, ", which the compile read"));
      return {};
    }
    if (stamp->modifiedNs >= startedNs) {
      debugLog(concat("cache: ", absolute.string(), " changed while it compiled"));
      return {};
    }
    stamps.push_back(std::move(*stamp));
  }
  known = true;
  return stamps;
}

Status compileInto(std::string_view source, const std::string& name, const CompileOptions& options,
                   const std::optional<std::filesystem::path>& pch, SourceBitcode& result) {
  CapturedDiagnostics diagnostics;
  Expected<std::shared_ptr<clang::CompilerInvocation>> created =
      createKernelInvocation(name, options, diagnostics);
  if (!created) return created.status();
  std::shared_ptr<clang::CompilerInvocation> invocation = created.take();
  // The text is compiled from memory; `name` only places it (and its includes).
  invocation->getPreprocessorOpts().addRemappedFile(
      name,
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source.data(), source.size()), name)
          .release());
  if (pch) {
    invocation->getPreprocessorOpts().ImplicitPCHInclude = pch->string();
    // Every file the header was built from is checked, system headers too (by default clang
    // checks only the others).
    invocation->getHeaderSearchOpts().ModulesValidateSystemHeaders = true;
  }
  invocation->getFrontendOpts().DisableFree = false;
  // Parameter names reach the kernel descriptions (tcpuFuncGetParamInfo, AOT launchers).
  invocation->getCodeGenOpts().DiscardValueNames = false;
  // The compiler's own options (not the printer's, which keeps its carets):
  // without carets it prints no "N errors generated." summary to stderr.
  invocation->getDiagnosticOpts().ShowCarets = false;

  clang::CompilerInstance compiler;
  compiler.setInvocation(std::move(invocation));
  compiler.setDiagnostics(&diagnostics.engine());
  auto inputs = std::make_shared<InputCollector>();
  compiler.addDependencyCollector(inputs);
  llvm::LLVMContext context;
  clang::EmitLLVMOnlyAction action(&context);
  debugLog(concat("clang: compiling ", name, pch ? concat(" with ", pch->string()) : ""));
  const int64_t started = fileClockNowNs();
  const bool compiled = compiler.ExecuteAction(action);
  std::unique_ptr<llvm::Module> module = compiled ? action.takeModule() : nullptr;
  killPointForTests("clang");
  if (!module)
    return Status(TCPU_ERROR_INVALID_SOURCE,
                  concat("C++ kernel source does not compile:\n", diagnostics.text()));
  llvm::raw_string_ostream out(result.bitcode);
  llvm::WriteBitcodeToFile(*module, out);
  out.flush();
  result.inputs = stampInputs(inputs->getDependencies(), name, started, result.inputsKnown);
  return {};
}

Status compileGuarded(std::string_view source, const std::string& name,
                      const CompileOptions& options,
                      const std::optional<std::filesystem::path>& pch, SourceBitcode& result) {
  result = {};
  return runGuarded("compiling C++ kernel source",
                    [&] { return compileInto(source, name, options, pch, result); });
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

Expected<SourceBitcode> compileSource(std::string_view source, const std::string& name,
                                      const CompileOptions& options, const ObjectCache* pchCache) {
  std::optional<std::filesystem::path> pch;
  if (pchCache && startsWithTlInclude(source)) pch = precompiledTl(*pchCache, options, false);
  SourceBitcode result;
  Status status = compileGuarded(source, name, options, pch, result);
  // A compile that fails with the precompiled header is tried without it: clang refuses a header
  // one of whose files changed since, and a damaged one makes it fail or crash in ways that need
  // not name the file. When the compile then succeeds, the header was at fault: rebuilt for the
  // compiles that follow.
  if (!status.ok() && pch) {
    debugLog(concat("pch: the compile with ", pch->string(), " failed: compiling without"));
    status = compileGuarded(source, name, options, std::nullopt, result);
    if (status.ok()) {
      debugLog(concat("pch: ", pch->string(), " was at fault: rebuilding it"));
      precompiledTl(*pchCache, options, true);
    }
  }
  if (!status.ok()) return status;
  return result;
}

Expected<std::string> compileSourceToBitcode(std::string_view source, const std::string& name,
                                             const CompileOptions& options) {
  Expected<SourceBitcode> compiled = compileSource(source, name, options, nullptr);
  if (!compiled) return compiled.status();
  return std::move(compiled->bitcode);
}

} // namespace tcpu::codegen
