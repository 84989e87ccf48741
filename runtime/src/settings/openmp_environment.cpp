#include "settings/openmp_environment.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/environment.hpp"

namespace tcpu::detail {
namespace {

constexpr uint64_t kMaxThreads = 4096;     // as TCPU_NUM_THREADS
constexpr uint64_t kMaxCount = 2147483647; // an OpenMP int
constexpr uint64_t kMaxStack = uint64_t{1} << 30;

std::string lower(std::string_view text) {
  std::string result(text);
  for (char& c : result)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return result;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t at; (at = text.find(separator)) != std::string_view::npos;
       text.remove_prefix(at + 1))
    parts.push_back(text.substr(0, at));
  parts.push_back(text);
  return parts;
}

bool isWholeNumber(std::string_view text, uint64_t minimum, uint64_t maximum) {
  return parseWholeNumber(std::string(text), "", minimum, maximum).ok();
}

bool isOneOf(std::string_view text, std::initializer_list<std::string_view> words) {
  const std::string word = lower(text);
  return std::find(words.begin(), words.end(), word) != words.end();
}

bool isBoolean(std::string_view text) {
  return isOneOf(text, {"true", "false", "1", "0", "on", "off", "yes", "no"});
}

// "static", "dynamic,4", "nonmonotonic:guided,8".
bool isSchedule(std::string_view text) {
  if (const std::size_t colon = text.find(':'); colon != std::string_view::npos) {
    if (!isOneOf(text.substr(0, colon), {"monotonic", "nonmonotonic"})) return false;
    text.remove_prefix(colon + 1);
  }
  const std::vector<std::string_view> parts = split(text, ',');
  return parts.size() <= 2 && isOneOf(parts[0], {"static", "dynamic", "guided", "auto"}) &&
         (parts.size() == 1 || isWholeNumber(parts[1], 1, kMaxCount));
}

// A number with an optional unit B, K, M or G (kilobytes without one), at most kMaxStack bytes.
bool isStackSize(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    ++digits;
  const std::string unit = lower(text.substr(digits));
  if (digits == 0 || digits > 12 || unit.size() > 1) return false;
  const uint64_t number = std::strtoull(std::string(text.substr(0, digits)).c_str(), nullptr, 10);
  const std::size_t shift = unit.empty() ? 10 : std::string_view("bkmg").find(unit[0]) * 10;
  if (shift > 30) return false; // not a unit
  return number > 0 && number <= (kMaxStack >> shift);
}

// An abstract name with an optional count ("cores", "threads(4)") or explicit places made of
// numbers, braces, commas, colons and exclusions ("{0:4},{4:4}").
bool isPlaces(std::string_view text) {
  const std::size_t open = text.find('(');
  if (isOneOf(text.substr(0, open), {"threads", "cores", "sockets", "ll_caches", "numa_domains"}))
    return open == std::string_view::npos ||
           (text.back() == ')' &&
            isWholeNumber(text.substr(open + 1, text.size() - open - 2), 1, kMaxCount));
  return !text.empty() && text.front() == '{' &&
         text.find_first_not_of("0123456789{},:!- ") == std::string_view::npos;
}

struct Rule {
  const char* name;
  bool (*valid)(std::string_view value);
  const char* expected;
};

const Rule kRules[] = {
    {"OMP_NUM_THREADS",
     [](std::string_view v) {
       const std::vector<std::string_view> levels = split(v, ',');
       return std::all_of(levels.begin(), levels.end(),
                          [](std::string_view n) { return isWholeNumber(n, 1, kMaxThreads); });
     },
     "whole numbers from 1 to 4096, separated by commas"},
    {"OMP_THREAD_LIMIT", [](std::string_view v) { return isWholeNumber(v, 1, kMaxCount); },
     "a whole number, at least 1"},
    {"OMP_MAX_ACTIVE_LEVELS", [](std::string_view v) { return isWholeNumber(v, 0, kMaxCount); },
     "a whole number"},
    {"OMP_MAX_TASK_PRIORITY", [](std::string_view v) { return isWholeNumber(v, 0, kMaxCount); },
     "a whole number"},
    {"OMP_DEFAULT_DEVICE", [](std::string_view v) { return isWholeNumber(v, 0, kMaxCount); },
     "a whole number"},
    {"OMP_NUM_TEAMS", [](std::string_view v) { return isWholeNumber(v, 1, kMaxCount); },
     "a whole number, at least 1"},
    {"OMP_TEAMS_THREAD_LIMIT", [](std::string_view v) { return isWholeNumber(v, 1, kMaxCount); },
     "a whole number, at least 1"},
    {"OMP_SCHEDULE", isSchedule,
     "[monotonic:|nonmonotonic:]static|dynamic|guided|auto, optionally followed by ,<chunk>"},
    {"OMP_DYNAMIC", isBoolean, "true or false"},
    {"OMP_NESTED", isBoolean, "true or false"},
    {"OMP_CANCELLATION", isBoolean, "true or false"},
    {"OMP_DISPLAY_AFFINITY", isBoolean, "true or false"},
    {"OMP_DISPLAY_ENV", [](std::string_view v) { return isBoolean(v) || isOneOf(v, {"verbose"}); },
     "true, false or verbose"},
    {"OMP_PROC_BIND",
     [](std::string_view v) {
       const std::vector<std::string_view> levels = split(v, ',');
       return std::all_of(levels.begin(), levels.end(), [](std::string_view p) {
         return isOneOf(p, {"true", "false", "primary", "master", "close", "spread"});
       });
     },
     "true, false, or a comma-separated list of primary, master, close and spread"},
    {"OMP_WAIT_POLICY", [](std::string_view v) { return isOneOf(v, {"active", "passive"}); },
     "active or passive"},
    {"OMP_STACKSIZE", isStackSize,
     "a size of at most 1 GiB: a number with an optional unit B, K, M or G (K without one)"},
    {"OMP_PLACES", isPlaces,
     "threads, cores, sockets, ll_caches or numa_domains, optionally with (<count>), or explicit "
     "places such as {0:4},{4:4}"},
    {"OMP_TARGET_OFFLOAD",
     [](std::string_view v) { return isOneOf(v, {"mandatory", "disabled", "default"}); },
     "mandatory, disabled or default"},
    {"OMP_TOOL", [](std::string_view v) { return isOneOf(v, {"enabled", "disabled"}); },
     "enabled or disabled"},
};

} // namespace

Status checkOpenMpEnvironment() {
  for (const Rule& rule : kRules) {
    const char* value = std::getenv(rule.name);
    if (!value) continue;
    // Surrounding blanks are the OpenMP runtime's to ignore, as it does.
    std::string_view text = value;
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
      text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
      text.remove_suffix(1);
    if (!rule.valid(text))
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat(rule.name, "='", value, "' is not valid (expected ", rule.expected,
                           "); tcpu's launches run on the OpenMP runtime, which reads it"));
  }
  return {};
}

} // namespace tcpu::detail
