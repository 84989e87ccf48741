// Dispatching a command line to one of a program's subcommands. The full `tcpu` and the
// runtime-only `tcpu-rt` (no LLVM: the GPU-host half of a cross-check) share it, each with
// its own table.
#ifndef TCPU_TOOLS_CLI_DISPATCH_HPP
#define TCPU_TOOLS_CLI_DISPATCH_HPP

#include <span>
#include <string>

#include "cli/commands.hpp"
#include "tcpu/status.hpp"

namespace tcpu::cli {

struct CliProgram {
  const char* name;        // "tcpu"
  const char* description; // one line under the usage
  std::span<const Subcommand> commands;
  // The environment variables of what the program links beyond the runtime (codegen's), checked
  // before a command runs; null: the runtime's only (tcpuInit's).
  Status (*checkEnvironment)() = nullptr;
};

// --help / --version / <subcommand> [arguments]; an unknown subcommand is a usage error, and so
// is a bad value of an environment variable tcpu or its OpenMP runtime reads (checked before the
// command runs, exit status 2, naming the variable and its value).
int dispatchCli(const CliProgram& program, std::span<const std::string> arguments, Console console);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_CLI_DISPATCH_HPP
