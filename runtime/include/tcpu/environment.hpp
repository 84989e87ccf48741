// tcpu's environment variables, read one way: booleans accept 1/0, true/false, on/off, yes/no
// (any case; unset or empty means the default) and numbers are whole decimals in a range;
// anything else is an error naming the variable and its value (docs/environment.md).
#ifndef TCPU_ENVIRONMENT_HPP
#define TCPU_ENVIRONMENT_HPP

#include <cstdint>
#include <string>

#include "tcpu/export.h"
#include "tcpu/status.hpp"

namespace tcpu {

// The boolean variable `name`, or `unset` when it is unset or empty.
TCPU_API Expected<bool> environmentFlag(const char* name, bool unset);

// `text` as a whole decimal number in [minimum, maximum]; the error names `what`.
TCPU_API Expected<uint64_t> parseWholeNumber(const std::string& text, const char* what,
                                             uint64_t minimum, uint64_t maximum);

// `text` as a number of bytes: a whole number with an optional unit, K/M/G/T (powers of 1000) or
// Ki/Mi/Gi/Ti (powers of 1024), either followed by an optional B, in any case ("1G", "512MiB",
// "4096"); at most 2^63. The error names `what`.
TCPU_API Expected<uint64_t> parseByteSize(const std::string& text, const char* what);

// Every boolean variable tcpu's C++ libraries read (TCPU_CACHE_DISABLE, TCPU_CRASH_REPORT,
// TCPU_DEBUG, TCPU_DLOPEN_PROBE, TCPU_GDB_JIT, TCPU_MEM_GUARD, TCPU_PERF_MAP), checked: the first
// bad one's error.
// tcpuInit fails with it, so a misspelt value is reported once, up front, and the readers may take
// the default.
TCPU_API Status checkEnvironmentFlags();

} // namespace tcpu

#endif // TCPU_ENVIRONMENT_HPP
