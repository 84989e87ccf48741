#include "cli/cli_dispatch.hpp"

#include "cli/exit_codes.hpp"
#include "tcpu/tcpu.h"

namespace tcpu::cli {
namespace {

void printOverview(const CliProgram& program, std::ostream& out) {
  out << "usage: " << program.name << " <command> [options]\n\n"
      << program.description << " Commands:\n";
  for (const Subcommand& command : program.commands) {
    std::string name = command.name;
    out << "  " << name << std::string(10 - name.size(), ' ') << command.summary << "\n";
  }
  out << "\n'" << program.name
      << " <command> --help' describes a command. Exit status: 0 success, 1 a kernel\n"
         "failed, 2 bad command line, 3 an input could not be read or an output written.\n";
}

// A bad environment variable: tcpuInit's (the runtime's and OpenMP's), then the program's own.
Status checkEnvironment(const CliProgram& program) {
  if (tcpuInit(0) == TCPU_ERROR_INVALID_VALUE)
    return Status(TCPU_ERROR_INVALID_VALUE, tcpuGetLastErrorDetail());
  return program.checkEnvironment ? program.checkEnvironment() : Status();
}

} // namespace

int dispatchCli(const CliProgram& program, std::span<const std::string> arguments,
                Console console) {
  if (arguments.empty()) {
    printOverview(program, console.err);
    return kExitUsage;
  }
  const std::string& first = arguments.front();
  if (first == "--help" || first == "-h" || first == "help") {
    printOverview(program, console.out);
    return kExitSuccess;
  }
  if (first == "--version") {
    console.out << program.name << " " << TCPU_VERSION_MAJOR << "." << TCPU_VERSION_MINOR << "."
                << TCPU_VERSION_PATCH << "\n";
    return kExitSuccess;
  }
  for (const Subcommand& command : program.commands)
    if (first == command.name) {
      if (Status environment = checkEnvironment(program); !environment.ok()) {
        console.err << program.name << " " << first << ": " << environment.message() << "\n";
        return kExitUsage;
      }
      return command.run(arguments.subspan(1), console);
    }
  console.err << program.name << ": unknown command '" << first << "'\n\n";
  printOverview(program, console.err);
  return kExitUsage;
}

} // namespace tcpu::cli
