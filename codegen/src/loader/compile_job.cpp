#include "loader/compile_job.hpp"

#include <fstream>

#include "support/debug_log.hpp"
#include "support/file_stamps.hpp"
#include "support/phase_timer.hpp"
#include "clang/source_cache_key.hpp"
#include "clang/source_compiler.hpp"

namespace tcpu::codegen {
namespace {

// The entry of C++ source under its source key (source_cache_key.hpp), if one is there and the
// files it was compiled from are unchanged.
std::optional<CompiledModule> loadSourceEntry(const ObjectCache& cache, const std::string& key) {
  std::optional<CompiledModule> entry = cache.load(key);
  if (entry && !stampsCurrent(entry->inputs)) return std::nullopt;
  return entry;
}

// Writes the three texts of a compile to the dump directory.
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

Expected<CompileJob> prepareCompileJob(std::span<const std::byte> bytes, const std::string& path,
                                       const std::vector<JitOption>& jitOptions) {
  CompileJob job;
  Expected<CompileOptions> options = CompileOptions::fromJitOptions(jitOptions);
  if (!options) return options.status();
  job.options = options.take();
  Expected<TargetDescription> target = describeTarget(job.options.targetCpu);
  if (!target) return target.status();
  job.target = target.take();
  // (An explicit TCPU_JIT_TARGET_CPU may ask for code to read, not to run.)
  if (job.options.targetCpuFromEnvironment)
    if (Status runs = checkRunsOnHost(job.target); !runs.ok()) return runs;
  if (job.options.useCache) {
    Expected<std::optional<ObjectCache>> environment = objectCacheFromEnvironment();
    if (!environment) return environment.status();
    job.cache = environment.take();
  }
  job.bytes = bytes;
  job.path = path;
  const bool fromMemory = path.empty();
  if (isKernelSourcePath(path) || (fromMemory && isKernelSourceText(bytes)))
    job.sourceName = fromMemory ? kMemorySourceName : path;
  return job;
}

Expected<CompiledModule> compileJob(const CompileJob& job) {
  const ObjectCache* modules = job.cache && !job.linkedCode ? &*job.cache : nullptr;
  const bool withTexts = job.withTexts || !job.dumpDirectory.empty();
  const bool readCache = modules && !withTexts;
  const std::string_view sourceText(reinterpret_cast<const char*>(job.bytes.data()),
                                    job.bytes.size());
  // C++ source is looked up by its own key first: a hit skips clang too.
  std::string sourceKey;
  if (!job.sourceName.empty() && readCache) {
    Expected<std::string> key = sourceCacheKey(sourceText, job.sourceName, job.options, job.target);
    if (!key) return key.status();
    sourceKey = key.take();
    if (std::optional<CompiledModule> entry = loadSourceEntry(*modules, sourceKey)) return *entry;
  }

  // C++ kernel source becomes bitcode first (clang, in process), then goes the IR way.
  SourceBitcode fromSource;
  std::span<const std::byte> ir = job.bytes;
  if (!job.sourceName.empty()) {
    const PhaseTimer timer;
    Expected<SourceBitcode> bitcode =
        compileSource(sourceText, job.sourceName, job.options, job.cache ? &*job.cache : nullptr);
    if (!bitcode) return bitcode.status();
    fromSource = bitcode.take();
    debugLog(concat("clang compiled ", job.sourceName, " in ", timer.elapsed()));
    ir = std::as_bytes(std::span(fromSource.bitcode));
  }
  const std::string key =
      modules || !job.dumpDirectory.empty() ? cacheKey(ir, job.options, job.target) : "";
  std::optional<CompiledModule> compiled;
  if (readCache) compiled = modules->load(key);
  if (!compiled) {
    const PhaseTimer timer;
    Expected<CompiledModule> fresh = compileModule(
        CompileRequest{ir, job.name(), job.options, job.target, withTexts, job.linkedCode});
    if (!fresh) return fresh.status();
    debugLog(concat("compiled ", job.name(), " in ", timer.elapsed()));
    compiled = fresh.take();
    if (!job.dumpDirectory.empty()) dump(job.dumpDirectory, job.path, key, *compiled);
    if (modules) modules->store(key, *compiled);
  }
  // Under the source key too, with the files clang read, unless something it depends on
  // changed while it compiled (the key would not describe the entry).
  if (!sourceKey.empty() && fromSource.inputsKnown) {
    Expected<std::string> keyNow =
        sourceCacheKey(sourceText, job.sourceName, job.options, job.target);
    if (keyNow && *keyNow == sourceKey) {
      compiled->inputs = std::move(fromSource.inputs);
      modules->store(sourceKey, *compiled);
    } else {
      debugLog(concat("cache: tcpu's headers changed while ", job.sourceName,
                      " compiled: not stored under its source key"));
    }
  }
  return std::move(*compiled);
}

} // namespace tcpu::codegen
