#include "cli/command_support.hpp"

#include <fstream>
#include <iterator>

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

Expected<std::string> readInputFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(TCPU_ERROR_FILE_NOT_FOUND, concat("cannot read '", path, "'"));
  return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace tcpu::cli
