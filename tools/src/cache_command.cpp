#include "command_support.hpp"
#include "exit_codes.hpp"

namespace tcpu::cli {

int runCache(std::span<const std::string> arguments, Console console) {
  (void)arguments;
  return reportFailure(console, "cache", "not built yet", kExitUsage);
}

} // namespace tcpu::cli
