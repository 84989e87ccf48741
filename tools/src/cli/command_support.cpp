#include "cli/command_support.hpp"

#include "cli/exit_codes.hpp"

namespace tcpu::cli {

CommandStart startCommand(const CommandSpec& spec, std::span<const std::string> arguments,
                          Console console) {
  Expected<ParsedArguments> parsed = parseArguments(spec, arguments);
  if (!parsed) {
    console.err << parsed.status().message() << "\n";
    return {std::nullopt, kExitUsage};
  }
  if (parsed->help) {
    console.out << helpText(spec);
    return {std::nullopt, kExitSuccess};
  }
  return {parsed.take(), kExitSuccess};
}

int reportFailure(Console console, const std::string& command, const std::string& message,
                  int exitCode) {
  console.err << "tcpu " << command << ": " << message << "\n";
  return exitCode;
}

int reportFailure(Console console, const std::string& command, const Status& status, int exitCode) {
  return reportFailure(console, command, status.message(), exitCode);
}

} // namespace tcpu::cli
