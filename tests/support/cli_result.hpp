// The tcpu command line run in-process: its exit status and what it printed.
#ifndef TCPU_TESTS_SUPPORT_CLI_RESULT_HPP
#define TCPU_TESTS_SUPPORT_CLI_RESULT_HPP

#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace tcpu::test {

struct CliResult {
  int code;
  std::string out;
  std::string err;
};

// Runs the tcpu command line in-process.
inline CliResult runTool(const std::vector<std::string>& arguments) {
  std::ostringstream out, err;
  const int code = cli::runCli(arguments, {out, err});
  return {code, out.str(), err.str()};
}

} // namespace tcpu::test

#endif // TCPU_TESTS_SUPPORT_CLI_RESULT_HPP
