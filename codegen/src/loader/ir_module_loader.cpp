#include "loader/ir_module_loader.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>

#include "cache/object_cache.hpp"
#include "jit/compiler.hpp"
#include "jit/jit_engine.hpp"
#include "support/debug_log.hpp"
#include "support/file_stamps.hpp"
#include "clang/source_cache_key.hpp"
#include "clang/source_compiler.hpp"

namespace tcpu::codegen {
namespace {

// What a module was loaded from, kept to compile it again for its texts: IR, or C++ source
// (whose bitcode a cache hit never made).
struct ModuleInput {
  std::vector<std::byte> bytes;
  std::string sourceName; // non-empty: `bytes` is C++ source, compiled under this name
  CompileRequest request; // bytes unset
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
    CompileRequest request = input_.request;
    request.withTexts = true;
    std::string bitcode;
    request.bytes = input_.bytes;
    if (!input_.sourceName.empty()) {
      Expected<std::string> compiled = compileSourceToBitcode(
          std::string_view(reinterpret_cast<const char*>(input_.bytes.data()), input_.bytes.size()),
          input_.sourceName, request.options);
      if (!compiled) return compiled.status();
      bitcode = compiled.take();
      request.bytes = std::span<const std::byte>(reinterpret_cast<const std::byte*>(bitcode.data()),
                                                 bitcode.size());
    }
    Expected<CompiledModule> compiled = compileModule(request);
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

// Writes the three texts of a compile to TCPU_DUMP_DIR.
void dump(const std::filesystem::path& directory, const std::string& origin, const std::string& key,
          const CompiledModule& compiled) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  const std::string stem =
      concat(origin.empty() ? "module" : std::filesystem::path(origin).stem().string(), "-",
             key.substr(0, 12));
  for (const auto& [suffix, text] : {std::pair{".input.ll", &compiled.inputIr},
                                     {".opt.ll", &compiled.optimizedIr},
                                     {".s", &compiled.assembly}}) {
    std::ofstream out(directory / (stem + suffix), std::ios::binary | std::ios::trunc);
    out << *text;
    if (!out) debugLog(concat("cannot write dump ", (directory / (stem + suffix)).string()));
  }
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

namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// The entry of C++ source under its source key (source_cache_key.hpp), if one is there and the
// files it was compiled from are unchanged.
std::optional<CompiledModule> loadSourceEntry(const ObjectCache& cache, const std::string& key) {
  std::optional<CompiledModule> entry = cache.load(key);
  if (entry && !stampsCurrent(entry->inputs)) return std::nullopt;
  return entry;
}

} // namespace

Expected<std::unique_ptr<LoadedModule>> IrModuleLoader::load(const ModuleSource& source) const {
  Expected<CompileOptions> options = CompileOptions::fromJitOptions(source.options);
  if (!options) return options.status();
  Expected<TargetDescription> target = describeTarget(options->targetCpu);
  if (!target) return target.status();
  // A CPU named by the environment applies to every load of the process, launched ones too: it
  // must run here. (An explicit TCPU_JIT_TARGET_CPU may ask for code to read, not to run.)
  if (options->targetCpuFromEnvironment)
    if (Status runs = checkRunsOnHost(*target); !runs.ok()) return runs;
  Expected<JitEngine*> engine = JitEngine::instance();
  if (!engine) return engine.status();

  const std::string name = source.path.empty() ? "<memory image>" : source.path;
  const bool fromMemory = source.path.empty();
  const bool isSource =
      isKernelSourcePath(source.path) || (fromMemory && isKernelSourceText(source.bytes));
  const std::string_view sourceText(reinterpret_cast<const char*>(source.bytes.data()),
                                    source.bytes.size());
  ModuleInput input{{source.bytes.begin(), source.bytes.end()},
                    isSource ? (fromMemory ? kMemorySourceName : source.path) : std::string(),
                    CompileRequest{{}, name, *options, *target, false, {}}};
  const char* dumpDirectory = std::getenv("TCPU_DUMP_DIR");
  const bool withTexts = dumpDirectory && *dumpDirectory;
  std::optional<ObjectCache> cache;
  if (options->useCache) {
    Expected<std::optional<ObjectCache>> environment = objectCacheFromEnvironment();
    if (!environment) return environment.status();
    cache = environment.take();
  }

  // C++ source is looked up by its own key first: a hit skips clang too. (A dump needs the
  // texts, which only a compile produces: it skips the cache reads.)
  std::optional<CompiledModule> compiled;
  std::string sourceKey;
  if (isSource && cache && !withTexts) {
    Expected<std::string> key = sourceCacheKey(sourceText, input.sourceName, *options, *target);
    if (!key) return key.status();
    sourceKey = key.take();
    compiled = loadSourceEntry(*cache, sourceKey);
  }
  if (!compiled) {
    // C++ kernel source becomes bitcode first (clang, in process), then goes the IR way.
    SourceBitcode fromSource;
    std::span<const std::byte> ir = source.bytes;
    if (isSource) {
      const auto start = std::chrono::steady_clock::now();
      Expected<SourceBitcode> bitcode =
          compileSource(sourceText, input.sourceName, *options, cache ? &*cache : nullptr);
      if (!bitcode) return bitcode.status();
      fromSource = bitcode.take();
      debugLog(
          concat("clang compiled ", input.sourceName, " in ", millisecondsSince(start), " ms"));
      ir = std::span<const std::byte>(reinterpret_cast<const std::byte*>(fromSource.bitcode.data()),
                                      fromSource.bitcode.size());
    }
    CompileRequest request{ir, name, *options, *target, withTexts, {}};
    const std::string key = cacheKey(ir, *options, *target);
    if (cache && !withTexts) compiled = cache->load(key);
    if (!compiled) {
      const auto start = std::chrono::steady_clock::now();
      Expected<CompiledModule> fresh = compileModule(request);
      if (!fresh) return fresh.status();
      debugLog(concat("compiled ", request.name, " in ", millisecondsSince(start), " ms"));
      compiled = fresh.take();
      if (withTexts) dump(dumpDirectory, source.path, key, *compiled);
      if (cache) cache->store(key, *compiled);
    }
    // Under the source key too, with the files clang read, unless something it depends on
    // changed while it compiled (the key would not describe the entry).
    if (!sourceKey.empty() && fromSource.inputsKnown) {
      Expected<std::string> keyNow =
          sourceCacheKey(sourceText, input.sourceName, *options, *target);
      if (keyNow && *keyNow == sourceKey) {
        compiled->inputs = std::move(fromSource.inputs);
        cache->store(sourceKey, *compiled);
      } else {
        debugLog(concat("cache: tcpu's headers changed while ", input.sourceName,
                        " compiled: not stored under its source key"));
      }
    }
  }

  std::vector<std::string> symbols;
  for (const KernelInfo& kernel : compiled->kernels)
    symbols.push_back(kernel.entrySymbol);
  Expected<JitEngine::Linked> linked = (*engine)->link(name, compiled->object, symbols);
  if (!linked) return linked.status();
  return std::unique_ptr<LoadedModule>(new JitModule(**engine, *linked->library,
                                                     std::move(compiled->kernels),
                                                     linked->addresses, std::move(input)));
}

} // namespace tcpu::codegen
