#include "support/debug_log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tcpu::codegen {

bool debugEnabled() {
  const char* value = std::getenv("TCPU_DEBUG");
  return value && std::strcmp(value, "1") == 0;
}

void debugLog(const std::string& message) {
  if (debugEnabled()) std::fprintf(stderr, "tcpu: %s\n", message.c_str());
}

} // namespace tcpu::codegen
