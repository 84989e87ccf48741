// Dispatching a command line to one of a program's subcommands. The full `tcpu` and the
// runtime-only `tcpu-rt` (no LLVM: the GPU-host half of a cross-check) share it, each with
// its own table.
#ifndef TCPU_TOOLS_CLI_DISPATCH_HPP
#define TCPU_TOOLS_CLI_DISPATCH_HPP

#include <span>
#include <string>

#include "cli/commands.hpp"

namespace tcpu::cli {

struct CliProgram {
  const char* name;        // "tcpu"
  const char* description; // one line under the usage
  std::span<const Subcommand> commands;
};

// --help / --version / <subcommand> [arguments]; an unknown subcommand is a usage error.
int dispatchCli(const CliProgram& program, std::span<const std::string> arguments, Console console);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_CLI_DISPATCH_HPP
