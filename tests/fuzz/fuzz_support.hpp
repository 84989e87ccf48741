// Shared by the libFuzzer targets in this directory and by fuzz_regressions_test.cpp.
//
// Each fuzz_<name>.cpp defines tcpu::fuzz::fuzz<Name>(data, size) and, unless
// TCPU_FUZZ_NO_ENTRY is defined, the libFuzzer entry point calling it. The
// regression test compiles all of them with TCPU_FUZZ_NO_ENTRY and feeds the
// checked-in reproducers and seeds through the same functions.
#ifndef TCPU_TESTS_FUZZ_SUPPORT_HPP
#define TCPU_TESTS_FUZZ_SUPPORT_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace tcpu::fuzz {

using FuzzFunction = int (*)(const uint8_t* data, size_t size);

int fuzzSignature(const uint8_t* data, size_t size);
int fuzzGrid(const uint8_t* data, size_t size);
int fuzzLinkerLine(const uint8_t* data, size_t size);
int fuzzNpy(const uint8_t* data, size_t size);
int fuzzCommandLine(const uint8_t* data, size_t size);
int fuzzCacheEntry(const uint8_t* data, size_t size);
int fuzzIr(const uint8_t* data, size_t size);
int fuzzModule(const uint8_t* data, size_t size);
int fuzzXcheckManifest(const uint8_t* data, size_t size);
int fuzzXcheckCases(const uint8_t* data, size_t size);

// The targets by name (the <name> of fuzz_<name>, corpus/<name>, regressions/<name>).
struct FuzzTarget {
  const char* name;
  FuzzFunction function;
};
inline constexpr FuzzTarget kFuzzTargets[] = {
    {"signature", fuzzSignature},
    {"grid", fuzzGrid},
    {"linker_line", fuzzLinkerLine},
    {"npy", fuzzNpy},
    {"command_line", fuzzCommandLine},
    {"cache_entry", fuzzCacheEntry},
    {"ir", fuzzIr},
    {"module", fuzzModule},
    {"xcheck_manifest", fuzzXcheckManifest},
    {"xcheck_cases", fuzzXcheckCases},
};

inline std::string_view asText(const uint8_t* data, size_t size) {
  return size == 0 ? std::string_view()
                   : std::string_view(reinterpret_cast<const char*>(data), size);
}

// An invariant the parser broke: say which and abort, so that libFuzzer keeps the input
// (and a regression test run dies loudly).
[[noreturn]] inline void invariantFailed(const char* file, int line, const char* condition,
                                         const std::string& detail) {
  std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n  %s\n", file, line, condition,
               detail.c_str());
  std::fflush(stderr);
  std::abort();
}

} // namespace tcpu::fuzz

#define TCPU_FUZZ_CHECK(condition, detail)                                                         \
  do {                                                                                             \
    if (!(condition)) ::tcpu::fuzz::invariantFailed(__FILE__, __LINE__, #condition, (detail));     \
  } while (false)

#ifdef TCPU_FUZZ_NO_ENTRY
#define TCPU_FUZZ_ENTRY(function)
#else
#define TCPU_FUZZ_ENTRY(function)                                                                  \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                        \
    return ::tcpu::fuzz::function(data, size);                                                     \
  }
#endif

#endif // TCPU_TESTS_FUZZ_SUPPORT_HPP
