// The tcpu subcommands. Each takes its arguments (after the subcommand name)
// and two streams, so that tests run them in-process, and returns an ExitCode.
#ifndef TCPU_TOOLS_COMMANDS_HPP
#define TCPU_TOOLS_COMMANDS_HPP

#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace tcpu::cli {

struct Console {
  std::ostream& out;
  std::ostream& err;
};

using CommandFunction = int (*)(std::span<const std::string> arguments, Console console);

struct Subcommand {
  const char* name;
  const char* summary;
  CommandFunction run;
};

int runCompile(std::span<const std::string> arguments, Console console);
int runLink(std::span<const std::string> arguments, Console console);
int runInfo(std::span<const std::string> arguments, Console console);
int runRun(std::span<const std::string> arguments, Console console);
int runCache(std::span<const std::string> arguments, Console console);
int runDump(std::span<const std::string> arguments, Console console);
int runPtx(std::span<const std::string> arguments, Console console);
int runXcheck(std::span<const std::string> arguments, Console console);

// The whole command line after the program name: dispatches to a subcommand.
int runCli(std::span<const std::string> arguments, Console console);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_COMMANDS_HPP
