#include "jit/perf_map.hpp"

#include <unistd.h>

#include <cinttypes>

#include <llvm/ExecutionEngine/JITLink/JITLink.h>

#include "tcpu/status.hpp"

namespace tcpu::codegen {

std::unique_ptr<PerfMapPlugin> PerfMapPlugin::open(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "a");
  if (!file) return nullptr;
  return std::unique_ptr<PerfMapPlugin>(new PerfMapPlugin(file));
}

std::string PerfMapPlugin::defaultPath() {
  return concat("/tmp/perf-", static_cast<long long>(getpid()), ".map");
}

PerfMapPlugin::~PerfMapPlugin() {
  std::fclose(file_);
}

void PerfMapPlugin::modifyPassConfig(llvm::orc::MaterializationResponsibility&,
                                     llvm::jitlink::LinkGraph&,
                                     llvm::jitlink::PassConfiguration& config) {
  // After fix-ups every symbol has its final address.
  config.PostFixupPasses.push_back([this](llvm::jitlink::LinkGraph& graph) {
    write(graph);
    return llvm::Error::success();
  });
}

void PerfMapPlugin::write(const llvm::jitlink::LinkGraph& graph) {
  std::lock_guard lock(mutex_);
  for (const llvm::jitlink::Symbol* symbol : graph.defined_symbols()) {
    if (!symbol->isCallable() || !symbol->hasName() || symbol->getSize() == 0) continue;
    const llvm::StringRef name = symbol->getName();
    std::fprintf(file_, "%" PRIx64 " %" PRIx64 " %.*s\n", symbol->getAddress().getValue(),
                 static_cast<uint64_t>(symbol->getSize()), static_cast<int>(name.size()),
                 name.data());
  }
  std::fflush(file_); // perf reads the file after the run, which may end without exit()
}

} // namespace tcpu::codegen
