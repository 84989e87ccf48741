// Cross-check cases files (tools/src/xcheck/xcheck_cases.cpp): parseXcheckCases on the bytes as
// text. Errors must be invalid values naming the file and, but for an empty file, the line; the
// cases accepted have valid, distinct names, a module, and the line they start on.
#include <algorithm>
#include <set>
#include <string>

#include "fuzz_support.hpp"
#include "xcheck/xcheck_cases.hpp"

namespace tcpu::fuzz {

int fuzzXcheckCases(const uint8_t* data, size_t size) {
  const std::string_view text = asText(data, size);
  Expected<std::vector<cli::XcheckCase>> cases = cli::parseXcheckCases(text, "cases.txt");
  if (!cases) {
    TCPU_FUZZ_CHECK(cases.status().code() == TCPU_ERROR_INVALID_VALUE, cases.status().message());
    TCPU_FUZZ_CHECK(cases.status().message().starts_with("cases.txt:"), cases.status().message());
    return 0;
  }
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::set<std::string> names;
  std::size_t previousLine = 0;
  for (const cli::XcheckCase& xcheckCase : *cases) {
    TCPU_FUZZ_CHECK(!xcheckCase.name.empty() && xcheckCase.name != "." && xcheckCase.name != "..",
                    xcheckCase.name);
    TCPU_FUZZ_CHECK(xcheckCase.name.find('/') == std::string::npos, xcheckCase.name);
    TCPU_FUZZ_CHECK(names.insert(xcheckCase.name).second, xcheckCase.name);
    TCPU_FUZZ_CHECK(!xcheckCase.module.empty(), xcheckCase.name);
    TCPU_FUZZ_CHECK(xcheckCase.line > previousLine && xcheckCase.line <= lines,
                    concat(xcheckCase.name, " at line ", xcheckCase.line));
    previousLine = xcheckCase.line;
  }
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzXcheckCases)
