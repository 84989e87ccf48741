#include "clang/clang_invocation.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/HeaderSearchOptions.h>
#include <llvm/TargetParser/Host.h>

#include "support/install_layout.hpp"
#include "clang/apple_sdk.hpp"
#include "clang/kernel_headers.hpp"

namespace tcpu::codegen {
namespace {

// Environment variables clang's driver reads for include directories.
constexpr const char* kDriverEnvironment[] = {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH",
                                              "SDKROOT"};

// The C and C++ library headers a wheel carries (support/install_layout.hpp), as clang's driver
// would search a system's: the C++ library's before clang's own headers, the C library's after
// them. Only for the machine's own target without a --sysroot, which they are the headers of;
// empty where tcpu was not installed with them (the system's headers are used, as by clang++).
std::vector<std::string> bundledLibraryHeaders(const CompileOptions& options) {
  static const std::optional<std::filesystem::path> bundle =
      installedPath(std::filesystem::path(kBundleDirectory) / "c++");
  if (!bundle || !options.sysroot.empty() ||
      (!options.targetTriple.empty() && options.targetTriple != llvm::sys::getProcessTriple()))
    return {};
  const std::filesystem::path root = bundle->parent_path();
  return {"-nostdinc++",  "-nostdlibinc",
          "-cxx-isystem", (root / "c++").string(),
          "-cxx-isystem", (root / "c++" / "backward").string(),
          "-idirafter",   (root / "c").string()};
}

} // namespace

CapturedDiagnostics::CapturedDiagnostics()
    : options_(llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>()),
      engine_(clang::CompilerInstance::createDiagnostics(
          options_.get(), new clang::TextDiagnosticPrinter(stream_, options_.get()))) {}

std::vector<std::string> kernelClangArguments(const std::string& name,
                                              const CompileOptions& options) {
  const std::string triple =
      options.targetTriple.empty() ? llvm::sys::getProcessTriple() : options.targetTriple;
  std::vector<std::string> arguments = {
      "clang++", "--target=" + triple, "-x", "c++", "-std=c++20",
      // Frontend at -O2 (no optnone), but no LLVM passes: the IR pipeline
      // optimizes for the target once.
      "-O2", "-Xclang", "-disable-llvm-passes", "-fno-exceptions", "-fno-rtti", "-fno-math-errno",
      // Signed integers wrap, as Triton's do (i32 arithmetic is modulo 2^32 there; C++ would
      // let the optimizer assume no overflow and, e.g., widen `v + 2147483647` to 64 bits).
      "-fwrapv",
      // No forward-progress assumption, as in Triton's LLVM IR: C++ lets the optimizer delete a
      // loop without side effects that never ends, so a kernel that hangs on the GPU would
      // return at once here. Covers tl.h's loops too (they are instantiated in this unit).
      "-fno-finite-loops", options.fpContract ? "-ffp-contract=on" : "-ffp-contract=off",
      "-resource-dir", clangResourceDirectory(), "-emit-llvm", "-c", name};
  for (const std::string& directory : kernelIncludeDirectories())
    arguments.push_back("-I" + directory);
  for (std::string& argument : bundledLibraryHeaders(options))
    arguments.push_back(std::move(argument));
  if (options.fastMath) arguments.push_back("-ffast-math");
  if (!options.sysroot.empty()) arguments.push_back("--sysroot=" + options.sysroot);
  for (std::string& argument : appleSdkArguments(triple, options.sysroot, processAppleSdkSources()))
    arguments.push_back(std::move(argument));
  return arguments;
}

Expected<std::shared_ptr<clang::CompilerInvocation>>
createKernelInvocation(const std::string& name, const CompileOptions& options,
                       CapturedDiagnostics& diagnostics) {
  const std::vector<std::string> arguments = kernelClangArguments(name, options);
  std::vector<const char*> argv;
  for (const std::string& argument : arguments)
    argv.push_back(argument.c_str());
  clang::CreateInvocationOptions invocationOptions;
  invocationOptions.Diags = diagnostics.shared();
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocation(argv, invocationOptions);
  if (!invocation)
    return Status(TCPU_ERROR_INVALID_SOURCE,
                  concat("cannot set up the C++ compiler for ", name, ": ", diagnostics.text()));
  return invocation;
}

Expected<std::string> sourceCompileSignature(const std::string& name,
                                             const CompileOptions& options) {
  std::string signature;
  for (const std::string& argument : kernelClangArguments(name, options))
    signature += argument + '\n';
  for (const char* variable : kDriverEnvironment) {
    const char* value = std::getenv(variable);
    signature += concat(variable, "=", value ? value : "<unset>", "\n");
  }
  static std::mutex mutex;
  static std::map<std::string, std::string> searchPaths; // by the text above
  std::lock_guard lock(mutex);
  if (auto known = searchPaths.find(signature); known != searchPaths.end()) return known->second;
  CapturedDiagnostics diagnostics;
  Expected<std::shared_ptr<clang::CompilerInvocation>> invocation =
      createKernelInvocation(name, options, diagnostics);
  if (!invocation) return invocation.status();
  std::string full = signature;
  const clang::HeaderSearchOptions& search = (*invocation)->getHeaderSearchOpts();
  full += concat("sysroot=", search.Sysroot, "\nresource=", search.ResourceDir, "\n");
  for (const clang::HeaderSearchOptions::Entry& entry : search.UserEntries)
    full += concat("search ", static_cast<int>(entry.Group), " ", entry.Path, "\n");
  searchPaths.emplace(signature, full);
  return full;
}

} // namespace tcpu::codegen
