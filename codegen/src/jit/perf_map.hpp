// JIT'd code for profilers: with TCPU_PERF_MAP=1 every function the JIT links is listed in
// /tmp/perf-<pid>.map, perf's convention for code it finds no file for ("START SIZE name",
// hexadecimal, one line each), so `perf report` names kernels instead of showing addresses.
#ifndef TCPU_CODEGEN_JIT_PERF_MAP_HPP
#define TCPU_CODEGEN_JIT_PERF_MAP_HPP

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>

namespace tcpu::codegen {

class PerfMapPlugin : public llvm::orc::ObjectLinkingLayer::Plugin {
public:
  // The plugin writing `path` (appending: other JITs of the process may write there too), or
  // null when it cannot be opened.
  static std::unique_ptr<PerfMapPlugin> open(const std::string& path);
  // perf's file for this process: /tmp/perf-<pid>.map.
  static std::string defaultPath();
  ~PerfMapPlugin() override;

  void modifyPassConfig(llvm::orc::MaterializationResponsibility& responsibility,
                        llvm::jitlink::LinkGraph& graph,
                        llvm::jitlink::PassConfiguration& config) override;
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility&) override {
    return llvm::Error::success();
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib&, llvm::orc::ResourceKey) override {
    return llvm::Error::success(); // perf maps only grow; a later module may reuse the range
  }
  void notifyTransferringResources(llvm::orc::JITDylib&, llvm::orc::ResourceKey,
                                   llvm::orc::ResourceKey) override {}

private:
  explicit PerfMapPlugin(std::FILE* file) : file_(file) {}
  void write(const llvm::jitlink::LinkGraph& graph);

  std::mutex mutex_;
  std::FILE* file_;
};

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_JIT_PERF_MAP_HPP
