// The full tcpu tool: every subcommand, with codegen's compiling module loaders registered so
// that `run` and `dump` take .ll, .bc and .cpp modules.
#include <array>
#include <memory>

#include "cli/cli_dispatch.hpp"
#include "cli/commands.hpp"
#include "loader/ir_module_loader.hpp"
#include "support/compile_options.hpp"
#include "target/target.hpp"
#include "tcpu/frontend_cache.hpp"
#include "tcpu/module_loader.hpp"

namespace tcpu::cli {
namespace {

constexpr std::array<Subcommand, 8> kSubcommands = {{
    {"compile", "compile one kernel specialization to a header and an object (AOT)", runCompile},
    {"link", "generate a dispatcher over compiled specializations", runLink},
    {"run", "load a kernel, launch it on generated or .npy inputs, write .npy outputs", runRun},
    {"info", "show the CPU, threads, LLVM and SLEEF versions, and the cache", runInfo},
    {"cache", "list or clear the compiled-kernel cache", runCache},
    {"dump", "print a module's optimized IR or assembly", runDump},
    {"ptx", "compile a kernel module to PTX for an NVIDIA GPU", runPtx},
    {"xcheck", "run kernel cases on a backend, or compare two runs (CPU vs GPU) by their rules",
     runXcheck},
}};

// Codegen's variables: the cache's (TCPU_CACHE_DISABLE, TCPU_CACHE_MAX_SIZE), TCPU_CHECK, and
// TCPU_TARGET_CPU (a CPU LLVM knows, whose code runs here).
Status checkCompilerEnvironment() {
  if (Status cache = codegen::FrontEndCache::checkEnvironment(); !cache.ok()) return cache;
  Expected<codegen::CompileOptions> options = codegen::CompileOptions::fromJitOptions({});
  if (!options) return options.status();
  if (!options->targetCpuFromEnvironment) return {};
  Expected<codegen::TargetDescription> target = codegen::describeTarget(options->targetCpu);
  if (!target)
    return Status(TCPU_ERROR_INVALID_VALUE, concat("TCPU_TARGET_CPU='", options->targetCpu,
                                                   "': ", target.status().message()));
  if (Status runs = codegen::checkRunsOnHost(*target); !runs.ok())
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("TCPU_TARGET_CPU='", options->targetCpu, "': ", runs.message()));
  return {};
}

} // namespace

int runCli(std::span<const std::string> arguments, Console console) {
  // The tool links codegen statically, so codegen's load-time registration (in the shared
  // library only) does not happen: register here, once.
  static const bool registered = [] {
    registerModuleLoader(std::make_shared<codegen::IrModuleLoader>());
    return true;
  }();
  (void)registered;
  return dispatchCli({"tcpu", "tcpu runs Triton-style grid kernels on the CPU.", kSubcommands,
                      checkCompilerEnvironment},
                     arguments, console);
}

} // namespace tcpu::cli
