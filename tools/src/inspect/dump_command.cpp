// tcpu dump: a module's input IR, optimized IR or assembly, as codegen produces it for a load
// with the same options (tcpuModuleGetText).
#include <array>

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "run/runtime_session.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{
    "dump",
    "<module.ll|.bc|.cpp> [options]",
    "print a module's optimized IR or assembly",
    "Compiles the module as tcpuModuleLoadEx would with these options and prints one of its\n"
    "texts: the IR as loaded (input), after specialization and optimization (ir), or the\n"
    "native assembly (asm). Shared objects of precompiled kernels have no texts.",
    {{"kernel-name", "NAME", "the kernel --signature applies to (default: the only one)"},
     {"signature", "SIG", "Triton signature to specialize with, e.g. \"*fp32:16, i32\""},
     {"target", "CPU", "LLVM CPU to compile for, e.g. x86-64-v3 (default: the host)"},
     {"what", "input|ir|asm", "which text to print (default asm)"}},
    1,
    1};

struct TextKind {
  const char* name;
  tcpuModuleText kind;
};

constexpr std::array<TextKind, 3> kTexts = {{{"input", TCPU_MODULE_TEXT_INPUT_IR},
                                             {"ir", TCPU_MODULE_TEXT_OPTIMIZED_IR},
                                             {"asm", TCPU_MODULE_TEXT_ASSEMBLY}}};

} // namespace

int runDump(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  const ParsedArguments& parsed = *start.arguments;
  const std::string what = parsed.getOr("what", "asm");
  const TextKind* text = nullptr;
  for (const TextKind& candidate : kTexts)
    if (what == candidate.name) text = &candidate;
  if (!text)
    return reportFailure(console, "dump",
                         concat("--what='", what, "' is not one of input, ir, asm"), kExitUsage);

  if (Status started = startRuntime(); !started.ok())
    return reportFailure(console, "dump", started, kExitInputOutput);
  const ModuleLoadOptions options{parsed.get("kernel-name"), parsed.get("signature"),
                                  parsed.get("target")};
  const std::string& path = parsed.positionals.front();
  Expected<ModuleHandle> module = loadModule(path, options);
  if (!module)
    return reportFailure(console, "dump", module.status(),
                         exitCodeForLoadFailure(module.status(), options));
  const char* contents = nullptr;
  const tcpuResult result = tcpuModuleGetText(&contents, module->get(), text->kind);
  if (result == TCPU_ERROR_NOT_SUPPORTED)
    return reportFailure(console, "dump",
                         concat("'", path,
                                "' has no text for this format: only modules codegen "
                                "compiles (.ll, .bc, .cpp) have input, ir and asm texts"),
                         kExitUsage);
  if (result != TCPU_SUCCESS)
    return reportFailure(console, "dump", runtimeFailure(result, "tcpuModuleGetText"),
                         kExitInputOutput);
  const std::string_view output(contents);
  console.out << output;
  if (!output.empty() && !output.ends_with('\n')) console.out << "\n";
  return kExitSuccess;
}

} // namespace tcpu::cli
