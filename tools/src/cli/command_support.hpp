// What every subcommand does the same way: parse its arguments (printing help
// or a usage error), and report a failed Status with the right exit code.
#ifndef TCPU_TOOLS_COMMAND_SUPPORT_HPP
#define TCPU_TOOLS_COMMAND_SUPPORT_HPP

#include <optional>
#include <span>
#include <string>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"

namespace tcpu::cli {

// The parsed arguments, or the exit code to return at once (help printed: success; a usage
// error printed: kExitUsage).
struct CommandStart {
  std::optional<ParsedArguments> arguments;
  int exitCode = 0;
};
CommandStart startCommand(const CommandSpec& spec, std::span<const std::string> arguments,
                          Console console);

// Prints "tcpu <command>: <message>" to err and returns exitCode.
int reportFailure(Console console, const std::string& command, const std::string& message,
                  int exitCode);
int reportFailure(Console console, const std::string& command, const Status& status, int exitCode);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_COMMAND_SUPPORT_HPP
