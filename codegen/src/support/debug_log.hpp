// Debug-level reports (cache decisions, compile times) on stderr, only when
// TCPU_DEBUG=1: a library must not print otherwise.
#ifndef TCPU_CODEGEN_DEBUG_LOG_HPP
#define TCPU_CODEGEN_DEBUG_LOG_HPP

#include <string>

namespace tcpu::codegen {

bool debugEnabled();
void debugLog(const std::string& message);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_DEBUG_LOG_HPP
