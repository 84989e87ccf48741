#include "tcpu/environment.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string_view>

namespace tcpu {
namespace {

// The boolean variables of the C++ libraries (the Python package reads its own the same way:
// python/tcpu/_environment.py). Kept here, so that tcpuInit can check them all.
constexpr std::array<const char*, 7> kFlags = {
    "TCPU_CACHE_DISABLE", "TCPU_CRASH_REPORT", "TCPU_DEBUG",   "TCPU_DLOPEN_PROBE",
    "TCPU_GDB_JIT",       "TCPU_MEM_GUARD",    "TCPU_PERF_MAP"};

bool equalsIgnoringCase(std::string_view text, std::string_view word) {
  if (text.size() != word.size()) return false;
  for (size_t i = 0; i < text.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != word[i]) return false;
  return true;
}

} // namespace

Expected<bool> environmentFlag(const char* name, bool unset) {
  const char* value = std::getenv(name);
  if (!value || !*value) return unset;
  for (std::string_view word : {"1", "true", "on", "yes"})
    if (equalsIgnoringCase(value, word)) return true;
  for (std::string_view word : {"0", "false", "off", "no"})
    if (equalsIgnoringCase(value, word)) return false;
  return Status(
      TCPU_ERROR_INVALID_VALUE,
      concat(name, "='", value, "' is not a boolean (use 1/0, true/false, on/off or yes/no)"));
}

Expected<uint64_t> parseWholeNumber(const std::string& text, const char* what, uint64_t minimum,
                                    uint64_t maximum) {
  const auto invalid = [&] {
    return Status(TCPU_ERROR_INVALID_VALUE, concat(what, "='", text, "' is not a whole number in [",
                                                   minimum, ", ", maximum, "]"));
  };
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return invalid();
  errno = 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0' || value < minimum || value > maximum) return invalid();
  return static_cast<uint64_t>(value);
}

Expected<uint64_t> parseByteSize(const std::string& text, const char* what) {
  const auto invalid = [&] {
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat(what, "='", text,
                         "' is not a size (a whole number of bytes, optionally with a unit: K, M, "
                         "G, T for powers of 1000, Ki, Mi, Gi, Ti for powers of 1024, as in 1G or "
                         "512MiB)"));
  };
  const size_t digits = std::min(text.find_first_not_of("0123456789"), text.size());
  if (digits == 0 || digits > 19) return invalid(); // no number, or one past uint64's decimals
  std::string unit = text.substr(digits);
  for (char& c : unit)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'b')
    unit.pop_back(); // "MB", "MiB"
  else if (unit == "b")
    unit.clear();
  const bool binary = unit.size() == 2 && unit[1] == 'i';
  if (unit.size() > (binary ? 2u : 1u)) return invalid();
  const size_t power = unit.empty() ? 0 : std::string_view("kmgt").find(unit[0]) + 1;
  if (power == 0 && !unit.empty()) return invalid(); // npos + 1: not a unit letter
  const uint64_t limit = uint64_t{1} << 63;
  uint64_t value = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
  for (size_t i = 0; i < power; ++i) {
    const uint64_t base = binary ? 1024 : 1000;
    if (value > limit / base) return invalid();
    value *= base;
  }
  if (value > limit) return invalid();
  return value;
}

Status checkEnvironmentFlags() {
  for (const char* name : kFlags)
    if (Expected<bool> flag = environmentFlag(name, false); !flag) return flag.status();
  return {};
}

} // namespace tcpu
