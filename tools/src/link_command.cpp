#include "command_support.hpp"
#include "exit_codes.hpp"

namespace tcpu::cli {

int runLink(std::span<const std::string> arguments, Console console) {
  (void)arguments;
  return reportFailure(console, "link", "not built yet", kExitUsage);
}

} // namespace tcpu::cli
