// tcpu info: what this machine and this build of tcpu are (CPU, threads, LLVM, SLEEF) and
// where the compile cache is, as text or JSON.
#include <sleef.h>

#include <array>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

#include "cache/cache_files.hpp"
#include "cache/cache_limit.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "formats/format_size.hpp"
#include "formats/json_text.hpp"
#include "run/runtime_session.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{"info",
                        "[--json]",
                        "show the CPU, threads, LLVM and SLEEF versions, and the cache",
                        "",
                        {{"json", "", "print one JSON object instead of text"}},
                        0,
                        0};

struct CacheSummary {
  std::optional<std::string> directory; // nullopt: no cache
  std::string absence;                  // why there is none
  std::size_t entries = 0;              // compiled modules (.tcpuobj)
  uint64_t bytes = 0;                   // all of tcpu's files: what the limit counts
  uint64_t limit = 0;                   // TCPU_CACHE_MAX_SIZE (0: none)
};

struct SystemInfo {
  std::string tcpuVersion;
  std::string cpuName;
  std::string cpuFeatures;
  int cores = 0;
  int threads = 0;
  int vectorBits = 0;
  std::string llvmVersion = LLVM_VERSION_STRING;
  std::string llvmHostCpu;
  std::string sleefVersion;
  CacheSummary cache;
};

Expected<int> deviceAttribute(tcpuDeviceAttribute attribute, const char* name) {
  int value = 0;
  if (const tcpuResult result = tcpuDeviceGetAttribute(&value, attribute, 0);
      result != TCPU_SUCCESS)
    return runtimeFailure(result, concat("tcpuDeviceGetAttribute(", name, ")"));
  return value;
}

// A text the runtime writes into a buffer (name, features): grown until it fits.
template <class Query>
Expected<std::string> deviceText(Query query, const char* call) {
  for (std::size_t size = 256; size <= (1u << 20); size *= 4) {
    std::vector<char> buffer(size, '\0');
    if (const tcpuResult result = query(buffer.data(), static_cast<int>(size), 0);
        result != TCPU_SUCCESS)
      return runtimeFailure(result, call);
    const std::string text(buffer.data());
    if (text.size() + 1 < size) return text;
  }
  return Status(TCPU_ERROR_UNKNOWN, concat(call, ": the text does not fit 1 MiB"));
}

Expected<CacheSummary> summarizeCache() {
  CacheSummary summary;
  std::optional<std::filesystem::path> directory =
      codegen::cacheDirectory(std::nullopt, summary.absence);
  if (!directory) return summary;
  summary.directory = directory->string();
  Expected<uint64_t> limit = codegen::cacheSizeLimitFromEnvironment();
  if (!limit) return limit.status();
  summary.limit = *limit;
  Expected<std::vector<codegen::CacheFile>> files = codegen::listCacheFiles(*directory);
  if (!files) return files.status();
  for (const codegen::CacheFile& file : *files) {
    summary.entries += file.kind == codegen::CacheFile::Kind::Entry;
    summary.bytes += file.size;
  }
  return summary;
}

Expected<SystemInfo> collect() {
  SystemInfo info;
  info.tcpuVersion = concat(TCPU_VERSION_MAJOR, ".", TCPU_VERSION_MINOR, ".", TCPU_VERSION_PATCH);
  info.sleefVersion =
      concat(SLEEF_VERSION_MAJOR, ".", SLEEF_VERSION_MINOR, ".", SLEEF_VERSION_PATCHLEVEL);
  info.llvmHostCpu = llvm::sys::getHostCPUName().str();
  Expected<std::string> name = deviceText(tcpuDeviceGetName, "tcpuDeviceGetName");
  if (!name) return name.status();
  info.cpuName = name.take();
  Expected<std::string> features = deviceText(tcpuDeviceGetFeatures, "tcpuDeviceGetFeatures");
  if (!features) return features.status();
  info.cpuFeatures = features.take();
  for (const auto& [slot, attribute, label] :
       {std::tuple{&info.cores, TCPU_DEVICE_ATTRIBUTE_NUM_CORES, "NUM_CORES"},
        {&info.vectorBits, TCPU_DEVICE_ATTRIBUTE_VECTOR_BITS, "VECTOR_BITS"}}) {
    Expected<int> value = deviceAttribute(attribute, label);
    if (!value) return value.status();
    *slot = *value;
  }
  if (const tcpuResult result = tcpuGetNumThreads(&info.threads); result != TCPU_SUCCESS)
    return runtimeFailure(result, "tcpuGetNumThreads");
  Expected<CacheSummary> cache = summarizeCache();
  if (!cache) return cache.status();
  info.cache = cache.take();
  return info;
}

void printText(const SystemInfo& info, std::ostream& out) {
  const auto row = [&](const char* label, const std::string& value) {
    out << label << std::string(14 - std::string_view(label).size(), ' ') << value << "\n";
  };
  row("tcpu", info.tcpuVersion);
  row("cpu", info.cpuName);
  row("features", info.cpuFeatures);
  row("cores", std::to_string(info.cores));
  row("threads", std::to_string(info.threads));
  row("vector bits", std::to_string(info.vectorBits));
  row("llvm", concat(info.llvmVersion, " (host cpu ", info.llvmHostCpu, ")"));
  row("sleef", info.sleefVersion);
  const CacheSummary& cache = info.cache;
  row("cache",
      cache.directory
          ? concat(*cache.directory, " (", cache.entries,
                   cache.entries == 1 ? " entry, " : " entries, ", formatSize(cache.bytes), " of ",
                   cache.limit == 0 ? "no limit" : concat(formatSize(cache.limit), " limit"), ")")
          : cache.absence);
}

void printJson(const SystemInfo& info, std::ostream& out) {
  std::string features;
  std::istringstream words(info.cpuFeatures);
  for (std::string word; words >> word;)
    features += (features.empty() ? "" : ", ") + jsonString(word);
  const CacheSummary& cache = info.cache;
  out << "{\n"
      << "  \"tcpu_version\": " << jsonString(info.tcpuVersion) << ",\n"
      << "  \"cpu_name\": " << jsonString(info.cpuName) << ",\n"
      << "  \"cpu_features\": [" << features << "],\n"
      << "  \"cores\": " << info.cores << ",\n"
      << "  \"threads\": " << info.threads << ",\n"
      << "  \"vector_bits\": " << info.vectorBits << ",\n"
      << "  \"llvm_version\": " << jsonString(info.llvmVersion) << ",\n"
      << "  \"llvm_host_cpu\": " << jsonString(info.llvmHostCpu) << ",\n"
      << "  \"sleef_version\": " << jsonString(info.sleefVersion) << ",\n"
      << "  \"cache\": {\"directory\": "
      << (cache.directory ? jsonString(*cache.directory) : "null")
      << ", \"enabled\": " << (cache.directory ? "true" : "false");
  if (!cache.directory) out << ", \"reason\": " << jsonString(cache.absence);
  out << ", \"entries\": " << cache.entries << ", \"bytes\": " << cache.bytes
      << ", \"limit_bytes\": " << cache.limit << "}\n}\n";
}

} // namespace

int runInfo(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  if (Status started = startRuntime(); !started.ok())
    return reportFailure(console, "info", started, kExitInputOutput);
  Expected<SystemInfo> info = collect();
  if (!info) return reportFailure(console, "info", info.status(), kExitInputOutput);
  if (start.arguments->has("json"))
    printJson(*info, console.out);
  else
    printText(*info, console.out);
  return kExitSuccess;
}

} // namespace tcpu::cli
