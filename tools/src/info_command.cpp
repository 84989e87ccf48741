#include "command_support.hpp"
#include "exit_codes.hpp"

namespace tcpu::cli {

int runInfo(std::span<const std::string> arguments, Console console) {
  (void)arguments;
  return reportFailure(console, "info", "not built yet", kExitUsage);
}

} // namespace tcpu::cli
