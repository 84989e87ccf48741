#include "support/debug_log.hpp"

#include <cstdio>

#include "tcpu/environment.hpp"

namespace tcpu::codegen {

bool debugEnabled() {
  // A bad value failed tcpuInit already (checkEnvironmentFlags): no log then.
  const Expected<bool> debug = environmentFlag("TCPU_DEBUG", false);
  return debug && *debug;
}

void debugLog(const std::string& message) {
  if (debugEnabled()) std::fprintf(stderr, "tcpu: %s\n", message.c_str());
}

} // namespace tcpu::codegen
