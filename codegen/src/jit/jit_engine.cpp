#include "jit/jit_engine.hpp"

#include <dlfcn.h>
#include <sleef.h>

#include <atomic>
#include <mutex>

#include <llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/Support/MemoryBuffer.h>

#include "jit/perf_map.hpp"
#include "support/debug_log.hpp"
#include "support/install_layout.hpp"
#include "target/target.hpp"
#include "tcpu/environment.hpp"
#include "tcpu/kernel_abi.h"

namespace tcpu::codegen {
namespace {

// The file of the SLEEF library this process loaded (codegen links it), found
// from one of its functions, so JIT'd code resolves Sleef_* from that same library.
std::string loadedSleefPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&Sleef_expf_u10), &info) && info.dli_fname)
    return info.dli_fname;
  return {};
}

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

// The runtime's kernel services (kernel_abi.h), bound to the runtime codegen is linked with.
// A search of the process would miss them where that runtime is not in the global scope:
// loaded by a library opened with RTLD_LOCAL, as Python opens its extension modules.
llvm::orc::SymbolMap runtimeServices(llvm::orc::LLJIT& jit) {
  const auto entry = [](auto* function) {
    return llvm::orc::ExecutorSymbolDef(llvm::orc::ExecutorAddr::fromPtr(function),
                                        llvm::JITSymbolFlags::Exported);
  };
  return {
      {jit.mangleAndIntern("tcpuKernelPrint"), entry(&tcpuKernelPrint)},
      {jit.mangleAndIntern("tcpuKernelAssertFail"), entry(&tcpuKernelAssertFail)},
      // Every tl atomic takes its stripe's lock from this table and waits in the function.
      {jit.mangleAndIntern("tcpuKernelAtomicLocks"), entry(tcpuKernelAtomicLocks)},
      {jit.mangleAndIntern("tcpuKernelAtomicWait"), entry(&tcpuKernelAtomicWait)},
      {jit.mangleAndIntern("tcpuKernelFindBuffer"), entry(&tcpuKernelFindBuffer)},
      {jit.mangleAndIntern("tcpuKernelEnterProgram"), entry(&tcpuKernelEnterProgram)},
      {jit.mangleAndIntern("tcpuKernelReportAccess"), entry(&tcpuKernelReportAccess)},
      {jit.mangleAndIntern("tcpuKernelCancelPending"), entry(&tcpuKernelCancelPending)},
      {jit.mangleAndIntern("tcpuKernelCancelled"), entry(&tcpuKernelCancelled)},
  };
}

// What profilers and debuggers see of JIT'd code, each on request (docs/profiling.md):
// TCPU_PERF_MAP=1 lists every linked function in perf's map; TCPU_GDB_JIT=1 registers every
// object with GDB's JIT interface, so a backtrace inside a kernel names it. Neither can fail a
// load: what does not work is reported under TCPU_DEBUG.
bool flagOn(const char* name) {
  Expected<bool> flag = environmentFlag(name, false); // tcpuInit has reported a bad value
  return flag && *flag;
}

void attachProfilerSupport(llvm::orc::LLJIT& jit) {
  auto* layer = llvm::dyn_cast<llvm::orc::ObjectLinkingLayer>(&jit.getObjLinkingLayer());
  if (flagOn("TCPU_PERF_MAP")) {
    std::unique_ptr<PerfMapPlugin> plugin =
        layer ? PerfMapPlugin::open(PerfMapPlugin::defaultPath()) : nullptr;
    if (plugin)
      layer->addPlugin(std::move(plugin));
    else
      debugLog(concat("TCPU_PERF_MAP: cannot write ", PerfMapPlugin::defaultPath(),
                      layer ? "" : " (the JIT does not link with JITLink)"));
  }
  if (flagOn("TCPU_GDB_JIT"))
    if (llvm::Error error = llvm::orc::enableDebuggerSupport(jit))
      debugLog("TCPU_GDB_JIT: " + errorText(std::move(error)));
}

} // namespace

JitEngine::JitEngine(std::unique_ptr<llvm::orc::LLJIT> jit, std::string sleefPath)
    : jit_(std::move(jit)), sleefPath_(std::move(sleefPath)) {}

Expected<JitEngine*> JitEngine::instance() {
  static std::mutex mutex;
  static JitEngine* engine = nullptr; // never destroyed: kernels may run until exit
  std::lock_guard lock(mutex);
  if (engine) return engine;
  initializeNativeTarget();
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return Status(TCPU_ERROR_NOT_SUPPORTED,
                  concat("cannot start the LLVM JIT: ", errorText(jit.takeError())));
  attachProfilerSupport(**jit);
  engine = new JitEngine(std::move(*jit), loadedSleefPath());
  if (const std::string& archive = compilerRtBuiltins(); !archive.empty()) {
    auto builtins = llvm::orc::StaticLibraryDefinitionGenerator::Load(
        engine->jit_->getObjLinkingLayer(), archive.c_str());
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        engine->jit_->getDataLayout().getGlobalPrefix());
    if (builtins && process) {
      engine->builtins_ = &engine->jit_->getExecutionSession().createBareJITDylib("compiler-rt");
      engine->builtins_->addGenerator(std::move(*builtins));
      engine->builtins_->addGenerator(std::move(*process));
    } else {
      std::string reason = builtins ? "" : errorText(builtins.takeError());
      if (!process) reason += errorText(process.takeError());
      debugLog(concat("cannot load compiler-rt's builtins (", archive, "): ", reason));
    }
  }
  // ORC reports link errors here (instead of printing them); lookup() adds them to its error.
  engine->jit_->getExecutionSession().setErrorReporter([](llvm::Error error) {
    std::string report = errorText(std::move(error));
    debugLog("JIT: " + report);
    engine->recordReport(std::move(report));
  });
  return engine;
}

Expected<JitEngine::Linked> JitEngine::link(const std::string& name, const std::string& object,
                                            const std::vector<std::string>& symbols) {
  std::lock_guard lock(linkMutex_);
  takeReports(); // stale reports from ORC's background work are not this link's
  Expected<llvm::orc::JITDylib*> library = addObject(name, object);
  if (!library) return library.status();
  Expected<std::vector<uint64_t>> addresses = lookup(**library, symbols);
  if (!addresses) {
    remove(**library);
    return addresses.status();
  }
  return Linked{*library, addresses.take()};
}

Expected<llvm::orc::JITDylib*> JitEngine::addObject(const std::string& name,
                                                    const std::string& object) {
  static std::atomic<uint64_t> counter{0};
  auto library = jit_->createJITDylib(concat(name, "#", counter++));
  if (!library)
    return Status(TCPU_ERROR_UNKNOWN,
                  concat("cannot create a JIT library: ", errorText(library.takeError())));
  if (llvm::Error error = library->define(llvm::orc::absoluteSymbols(runtimeServices(*jit_)))) {
    remove(*library);
    return Status(TCPU_ERROR_UNKNOWN,
                  concat("cannot define the runtime's services: ", errorText(std::move(error))));
  }
  const char prefix = jit_->getDataLayout().getGlobalPrefix();
  if (!sleefPath_.empty()) {
    auto sleef = llvm::orc::DynamicLibrarySearchGenerator::Load(sleefPath_.c_str(), prefix);
    if (sleef)
      library->addGenerator(std::move(*sleef));
    else
      debugLog("cannot search SLEEF: " + errorText(sleef.takeError()));
  }
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return Status(TCPU_ERROR_UNKNOWN,
                  concat("cannot search the process's symbols: ", errorText(process.takeError())));
  library->addGenerator(std::move(*process));
  // All symbols: compiler-rt builds its helpers with hidden visibility.
  if (builtins_)
    library->addToLinkOrder(*builtins_, llvm::orc::JITDylibLookupFlags::MatchAllSymbols);
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object, name);
  if (llvm::Error error = jit_->addObjectFile(*library, std::move(buffer))) {
    remove(*library);
    return Status(TCPU_ERROR_INVALID_IMAGE,
                  concat("cannot add the compiled object: ", errorText(std::move(error))));
  }
  return &*library;
}

Expected<std::vector<uint64_t>> JitEngine::lookup(llvm::orc::JITDylib& library,
                                                  const std::vector<std::string>& symbols) {
  std::vector<uint64_t> addresses;
  for (const std::string& symbol : symbols) {
    auto address = jit_->lookup(library, symbol);
    if (!address) {
      std::string reason = errorText(address.takeError());
      if (std::string reports = takeReports(); !reports.empty()) reason = reports + "; " + reason;
      const bool unresolved = reason.find("Symbols not found") != std::string::npos;
      return Status(
          unresolved ? TCPU_ERROR_NOT_FOUND : TCPU_ERROR_INVALID_IMAGE,
          concat(unresolved ? "unresolved external symbol(s) while linking: " : "linking failed: ",
                 reason));
    }
    addresses.push_back(address->getValue());
  }
  return addresses;
}

void JitEngine::recordReport(std::string report) {
  std::lock_guard lock(reportsMutex_);
  reports_ += (reports_.empty() ? "" : "; ") + report;
}

std::string JitEngine::takeReports() {
  std::lock_guard lock(reportsMutex_);
  return std::exchange(reports_, std::string());
}

void JitEngine::remove(llvm::orc::JITDylib& library) {
  if (llvm::Error error = jit_->getExecutionSession().removeJITDylib(library))
    debugLog("removing a JIT library failed: " + errorText(std::move(error)));
}

} // namespace tcpu::codegen
