#include "loader/shared_library_writer.hpp"

#include <dlfcn.h>
#include <sleef.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include "cache/temporary_files.hpp"
#include "loader/compile_job.hpp"
#include "support/debug_log.hpp"
#include "support/install_layout.hpp"
#include "support/kill_point.hpp"
#include "support/phase_timer.hpp"
#include "tcpu/kernel_abi.h"
#include "tcpu/module_loader.hpp"

namespace tcpu::codegen {
namespace {

#if defined(__ELF__) // the linking below is ELF's (ld.lld); elsewhere writeSharedLibrary refuses
// The file of the library that defines `symbol` in this process.
std::optional<std::string> libraryOf(const void* symbol) {
  Dl_info info{};
  if (dladdr(symbol, &info) && info.dli_fname && *info.dli_fname) return info.dli_fname;
  return std::nullopt;
}

// Bitcode defining tcpu_kernel_desc_<name> for each kernel: the descriptor tcpu/kernel.hpp's
// TCPU_EXPORT_KERNEL writes, so that the runtime's shared-object loader (or a dlsym) finds the
// kernels as it finds precompiled C++ ones.
Expected<LinkedCode> descriptorCode(const std::vector<KernelInfo>& kernels) {
  llvm::LLVMContext context;
  llvm::Module module("tcpu-kernel-descriptors", context);
  llvm::Type* i32 = llvm::Type::getInt32Ty(context);
  llvm::Type* i64 = llvm::Type::getInt64Ty(context);
  llvm::PointerType* ptr = llvm::PointerType::getUnqual(context);
  // tcpuParamDesc and tcpuKernelDesc (kernel_abi.h).
  llvm::StructType* paramType = llvm::StructType::get(context, {i32, i32, i32, i32, ptr});
  llvm::StructType* kernelType = llvm::StructType::get(context, {i32, i32, ptr, ptr, ptr, i32});
  llvm::FunctionType* entryType =
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, i64, i64, ptr}, false);
  const auto number = [&](uint32_t value) { return llvm::ConstantInt::get(i32, value); };
  const auto text = [&](const std::string& value) -> llvm::Constant* {
    llvm::Constant* bytes = llvm::ConstantDataArray::getString(context, value);
    auto* global = new llvm::GlobalVariable(module, bytes->getType(), true,
                                            llvm::GlobalValue::PrivateLinkage, bytes, ".name");
    global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    return global;
  };

  LinkedCode code;
  for (const KernelInfo& kernel : kernels) {
    std::vector<llvm::Constant*> params;
    for (size_t k = 0; k < kernel.params.size(); ++k) {
      const tcpuParamDesc& param = kernel.params[k];
      const bool named = k < kernel.paramNames.size() && !kernel.paramNames[k].empty();
      params.push_back(llvm::ConstantStruct::get(
          paramType,
          {number(param.type), number(param.pointee), number(param.size), number(param.align),
           named ? text(kernel.paramNames[k]) : llvm::ConstantPointerNull::get(ptr)}));
    }
    llvm::Constant* paramArray = llvm::ConstantPointerNull::get(ptr);
    if (!params.empty()) {
      llvm::ArrayType* arrayType = llvm::ArrayType::get(paramType, params.size());
      paramArray =
          new llvm::GlobalVariable(module, arrayType, true, llvm::GlobalValue::PrivateLinkage,
                                   llvm::ConstantArray::get(arrayType, params), ".params");
    }
    llvm::Function* entry = llvm::Function::Create(entryType, llvm::GlobalValue::ExternalLinkage,
                                                   kernel.entrySymbol, module);
    const std::string symbol = TCPU_KERNEL_DESC_PREFIX + kernel.name;
    new llvm::GlobalVariable(
        module, kernelType, true, llvm::GlobalValue::ExternalLinkage,
        llvm::ConstantStruct::get(kernelType,
                                  {number(TCPU_KERNEL_ABI_VERSION),
                                   number(static_cast<uint32_t>(params.size())), text(kernel.name),
                                   entry, paramArray, number(kernel.flags)}),
        symbol);
    code.exports.push_back(symbol);
  }
  llvm::raw_string_ostream out(code.bitcode);
  llvm::WriteBitcodeToFile(module, out);
  out.flush();
  return code;
}

// ld.lld installed with tcpu (a wheel's), else from LLVM's own bin directory (the LLVM codegen
// was built with), else from PATH.
std::optional<std::string> findLinker() {
  if (auto bundled = installedPath(std::filesystem::path(kBundleDirectory) / "bin" / "ld.lld"))
    return bundled->string();
  for (const char* name : {"ld.lld", "ld.lld-" TCPU_LLVM_MAJOR})
    for (bool ownDirectory : {true, false}) {
      llvm::ErrorOr<std::string> found =
          ownDirectory ? llvm::sys::findProgramByName(name, {TCPU_LLVM_TOOLS_DIR})
                       : llvm::sys::findProgramByName(name);
      if (found) return *found;
    }
  return std::nullopt;
}

// Links `object` into a shared object at `output`, needing the SLEEF library and the runtime
// this process has loaded (found by their symbols; run paths to their directories).
Status linkSharedObject(const std::string& object, const std::filesystem::path& output) {
  const std::optional<std::string> linker = findLinker();
  if (!linker)
    return Status(TCPU_ERROR_NOT_SUPPORTED,
                  "ld.lld was not found (in " TCPU_LLVM_TOOLS_DIR " or on PATH)");
  const std::optional<std::string> sleef =
      libraryOf(reinterpret_cast<const void*>(&Sleef_expf_u10));
  const std::optional<std::string> runtime =
      libraryOf(reinterpret_cast<const void*>(&tcpuKernelPrint));
  if (!sleef || !runtime)
    return Status(TCPU_ERROR_NOT_SUPPORTED,
                  "the SLEEF library or the tcpu runtime of this process cannot be located");
  const std::filesystem::path objectPath = output.string() + ".o";
  {
    std::ofstream file(objectPath, std::ios::binary);
    file.write(object.data(), static_cast<std::streamsize>(object.size()));
    if (!file.flush()) {
      const std::string why = std::strerror(errno); // a full disk, a read-only one
      std::error_code ignored;
      std::filesystem::remove(objectPath, ignored);
      return Status(TCPU_ERROR_OPERATING_SYSTEM,
                    concat("cannot write ", objectPath.string(), ": ", why));
    }
  }
  std::vector<std::string> arguments = {
      *linker, "-shared",     "-z", "noexecstack",   "-z",
      "now",   "--as-needed", "-o", output.string(), objectPath.string()};
  // compiler-rt's builtins, statically: only the helpers the object calls are pulled in.
  if (!compilerRtBuiltins().empty()) arguments.push_back(compilerRtBuiltins());
  for (const std::string& library : {*sleef, *runtime}) {
    arguments.push_back(library);
    arguments.push_back("-rpath");
    arguments.push_back(std::filesystem::path(library).parent_path().string());
  }
  std::vector<llvm::StringRef> argv(arguments.begin(), arguments.end());
  // Kept in a named string: the redirects refer to it until the linker has run.
  const std::string log = output.string() + ".log";
  const std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log),
                                                      llvm::StringRef(log)};
  std::string error;
  const int exitCode =
      llvm::sys::ExecuteAndWait(*linker, argv, std::nullopt, redirects, 0, 0, &error);
  killPointForTests("link");
  std::error_code ignored;
  std::filesystem::remove(objectPath, ignored);
  std::string report;
  if (std::ifstream file(log); file) report.assign(std::istreambuf_iterator<char>(file), {});
  std::filesystem::remove(log, ignored);
  if (exitCode != 0)
    return Status(
        TCPU_ERROR_UNKNOWN,
        concat("ld.lld failed (", exitCode < 0 ? error : concat("exit ", exitCode), "): ", report));
  return {};
}
#endif // __ELF__

} // namespace

Status writeSharedLibrary(std::span<const std::byte> image,
                          const std::vector<JitOption>& jitOptions,
                          const std::filesystem::path& path) {
#if !defined(__ELF__)
  (void)image;
  (void)jitOptions;
  (void)path;
  return Status(TCPU_ERROR_NOT_SUPPORTED, "shared objects are written only for ELF targets");
#else
  Expected<CompileJob> job = prepareCompileJob(image, "", jitOptions);
  if (!job) return job.status();
  job->linkedCode = descriptorCode;
  Expected<CompiledModule> compiled = compileJob(*job);
  if (!compiled) return compiled.status();

  // Linked beside its final name, then renamed: readers see the whole file or none.
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  // The cache's temporaries (`tcpu cache clear` knows them).
  const std::filesystem::path temporary = temporaryPathFor(path);
  const PhaseTimer linking;
  Status linked = linkSharedObject(compiled->object, temporary);
  linking.report("ld.lld");
  if (!linked.ok()) {
    std::filesystem::remove(temporary, error);
    return linked;
  }
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    return Status(TCPU_ERROR_FILE_NOT_FOUND,
                  concat("cannot write ", path.string(), ": ", error.message()));
  }
  debugLog(concat("wrote shared object ", path.string()));
  return {};
#endif
}

} // namespace tcpu::codegen
