#include "support/kill_point.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>

namespace tcpu::codegen {

void killPointForTests(std::string_view point) {
  const char* chosen = std::getenv("TCPU_TEST_KILL_AT");
  if (chosen && point == chosen) ::kill(::getpid(), SIGKILL);
}

} // namespace tcpu::codegen
