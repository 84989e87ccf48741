#include <array>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "tcpu/tcpu.h"

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
    {"xcheck", "compare two runs of the same kernels (CPU vs GPU), each output by its rule",
     runXcheck},
}};

void printOverview(std::ostream& out) {
  out << "usage: tcpu <command> [options]\n\n"
         "tcpu runs Triton-style grid kernels on the CPU. Commands:\n";
  for (const Subcommand& command : kSubcommands) {
    std::string name = command.name;
    out << "  " << name << std::string(10 - name.size(), ' ') << command.summary << "\n";
  }
  out << "\n'tcpu <command> --help' describes a command. Exit status: 0 success, 1 a kernel\n"
         "failed, 2 bad command line, 3 an input could not be read or an output written.\n";
}

} // namespace

int runCli(std::span<const std::string> arguments, Console console) {
  if (arguments.empty()) {
    printOverview(console.err);
    return kExitUsage;
  }
  const std::string& first = arguments.front();
  if (first == "--help" || first == "-h" || first == "help") {
    printOverview(console.out);
    return kExitSuccess;
  }
  if (first == "--version") {
    console.out << "tcpu " << TCPU_VERSION_MAJOR << "." << TCPU_VERSION_MINOR << "."
                << TCPU_VERSION_PATCH << "\n";
    return kExitSuccess;
  }
  for (const Subcommand& command : kSubcommands)
    if (first == command.name) return command.run(arguments.subspan(1), console);
  console.err << "tcpu: unknown command '" << first << "'\n\n";
  printOverview(console.err);
  return kExitUsage;
}

} // namespace tcpu::cli
