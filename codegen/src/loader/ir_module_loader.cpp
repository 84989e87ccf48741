#include "loader/ir_module_loader.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "jit/jit_engine.hpp"
#include "loader/compile_job.hpp"
#include "clang/source_compiler.hpp"

namespace tcpu::codegen {
namespace {

// What a module was loaded from, kept to compile it again for its texts: IR, or C++ source
// (whose bitcode a cache hit never made).
struct ModuleInput {
  std::vector<std::byte> bytes;
  CompileJob job; // bytes unset, no cache, no dumps
};

// Kernels linked into the JIT; removed from it when the module is unloaded.
class JitModule final : public LoadedModule {
public:
  JitModule(JitEngine& engine, llvm::orc::JITDylib& library, std::vector<KernelInfo> kernels,
            const std::vector<uint64_t>& entries, ModuleInput input)
      : engine_(engine), library_(library), kernels_(std::move(kernels)), input_(std::move(input)) {
    descriptors_.reserve(kernels_.size());
    for (size_t k = 0; k < kernels_.size(); ++k) {
      KernelInfo& kernel = kernels_[k];
      for (size_t p = 0; p < kernel.params.size(); ++p)
        kernel.params[p].name =
            kernel.paramNames[p].empty() ? nullptr : kernel.paramNames[p].c_str();
      descriptors_.push_back(
          tcpuKernelDesc{TCPU_KERNEL_ABI_VERSION, static_cast<uint32_t>(kernel.params.size()),
                         kernel.name.c_str(), reinterpret_cast<tcpuKernelEntry>(entries[k]),
                         kernel.params.empty() ? nullptr : kernel.params.data(), kernel.flags});
    }
  }
  ~JitModule() override { engine_.remove(library_); }
  JitModule(const JitModule&) = delete;
  JitModule& operator=(const JitModule&) = delete;

  const tcpuKernelDesc* findKernel(const std::string& name) const override {
    for (size_t k = 0; k < kernels_.size(); ++k)
      if (kernels_[k].name == name) return &descriptors_[k];
    return nullptr;
  }
  std::vector<std::string> kernelNames() const override {
    std::vector<std::string> names;
    for (const KernelInfo& kernel : kernels_)
      names.push_back(kernel.name);
    return names;
  }
  // Texts are produced on request by compiling again with them kept: loads
  // (and cache hits) stay fast, and the texts match what runs.
  Expected<std::string> text(tcpuModuleText kind) const override {
    CompileJob job = input_.job;
    job.bytes = input_.bytes;
    job.withTexts = true;
    Expected<CompiledModule> compiled = compileJob(job);
    if (!compiled) return compiled.status();
    switch (kind) {
    case TCPU_MODULE_TEXT_INPUT_IR:
      return compiled->inputIr;
    case TCPU_MODULE_TEXT_OPTIMIZED_IR:
      return compiled->optimizedIr;
    case TCPU_MODULE_TEXT_ASSEMBLY:
      return compiled->assembly;
    case TCPU_MODULE_TEXT_MAX_ENUM:
      break;
    }
    return Status(TCPU_ERROR_INVALID_VALUE, concat("kind=", static_cast<int>(kind)));
  }

private:
  JitEngine& engine_;
  llvm::orc::JITDylib& library_;
  std::vector<KernelInfo> kernels_;
  std::vector<tcpuKernelDesc> descriptors_;
  ModuleInput input_;
};

bool startsWith(std::span<const std::byte> bytes, std::string_view prefix) {
  return bytes.size() >= prefix.size() &&
         std::memcmp(bytes.data(), prefix.data(), prefix.size()) == 0;
}

} // namespace

bool IrModuleLoader::accepts(const ModuleSource& source) const {
  const std::string extension = std::filesystem::path(source.path).extension().string();
  if (extension == ".ll" || extension == ".bc" || isKernelSourcePath(source.path)) return true;
  if (startsWith(source.bytes, "BC\xC0\xDE") || startsWith(source.bytes, "\xDE\xC0\x17\x0B"))
    return true; // bitcode, or bitcode in a wrapper
  if (source.path.empty() && isKernelSourceText(source.bytes)) return true;
  // IR text from memory: its first meaningful token is one only IR starts with.
  size_t i = 0;
  while (i < source.bytes.size() && std::isspace(static_cast<unsigned char>(source.bytes[i])))
    ++i;
  const auto rest = source.bytes.subspan(i);
  for (std::string_view token :
       {";", "source_filename", "target ", "define ", "declare ", "@", "%", "!"})
    if (startsWith(rest, token)) return true;
  return false;
}

Expected<std::unique_ptr<LoadedModule>> IrModuleLoader::load(const ModuleSource& source) const {
  Expected<CompileJob> job = prepareCompileJob(source.bytes, source.path, source.options);
  if (!job) return job.status();
  Expected<JitEngine*> engine = JitEngine::instance();
  if (!engine) return engine.status();
  // Each compiling load writes its texts there (a dump needs them, which only a compile
  // produces: cache reads are skipped).
  if (const char* dumpDirectory = std::getenv("TCPU_DUMP_DIR"); dumpDirectory && *dumpDirectory)
    job->dumpDirectory = dumpDirectory;
  Expected<CompiledModule> compiled = compileJob(*job);
  if (!compiled) return compiled.status();

  std::vector<std::string> symbols;
  for (const KernelInfo& kernel : compiled->kernels)
    symbols.push_back(kernel.entrySymbol);
  Expected<JitEngine::Linked> linked = (*engine)->link(job->name(), compiled->object, symbols);
  if (!linked) return linked.status();
  ModuleInput input{{source.bytes.begin(), source.bytes.end()}, job.take()};
  input.job.bytes = {};
  input.job.cache.reset();
  input.job.dumpDirectory.clear();
  return std::unique_ptr<LoadedModule>(new JitModule(**engine, *linked->library,
                                                     std::move(compiled->kernels),
                                                     linked->addresses, std::move(input)));
}

} // namespace tcpu::codegen
