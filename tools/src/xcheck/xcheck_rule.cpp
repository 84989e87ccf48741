#include "xcheck/xcheck_rule.hpp"
#include "tcpu/float_chars.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace tcpu::cli {
namespace {

constexpr std::string_view kAcceptedForms =
    "exact, ulp:N (N an integer 0..2147483648), relnorm:X or abs:X (X a finite number > 0, such "
    "as relnorm:1e-5 or abs:1e-3)";

Status invalidRule(std::string_view text, std::string_view why) {
  return Status(TCPU_ERROR_INVALID_VALUE, concat("comparison rule '", text, "' is invalid: ", why,
                                                 " (the rules are ", kAcceptedForms, ")"));
}

} // namespace

Expected<ComparisonRule> parseComparisonRule(std::string_view text) {
  if (text == "exact") return ComparisonRule{ComparisonRule::Kind::Exact, 0};
  if (text.starts_with("ulp:")) {
    const std::string_view digits = text.substr(4);
    if (digits.empty()) return invalidRule(text, "ulp: needs a number of ULP");
    uint64_t value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return invalidRule(text, "the number of ULP is not an integer");
      value = value * 10 + static_cast<uint64_t>(c - '0');
      if (static_cast<double>(value) > kMaxUlpBound)
        return invalidRule(text, "the number of ULP is above 2147483648 (2^31)");
    }
    return ComparisonRule{ComparisonRule::Kind::Ulp, static_cast<double>(value)};
  }
  for (const auto& [prefix, kind] :
       {std::pair{std::string_view("relnorm:"), ComparisonRule::Kind::RelativeNorm},
        std::pair{std::string_view("abs:"), ComparisonRule::Kind::AbsoluteError}}) {
    if (!text.starts_with(prefix)) continue;
    const std::string_view number = text.substr(prefix.size());
    if (number.empty()) return invalidRule(text, concat(prefix, " needs a bound"));
    double value = 0;
    const char* end = number.data() + number.size();
    auto [stop, error] = floatFromChars(number.data(), end, value);
    if (error == std::errc::result_out_of_range)
      return invalidRule(text, "the bound is out of the range of a double");
    if (error != std::errc() || stop != end) return invalidRule(text, "the bound is not a number");
    if (!std::isfinite(value) || !(value > 0))
      return invalidRule(text, "the bound must be finite and greater than 0");
    return ComparisonRule{kind, value};
  }
  return invalidRule(text, "unknown rule");
}

std::string formatComparisonRule(const ComparisonRule& rule) {
  switch (rule.kind) {
  case ComparisonRule::Kind::Exact:
    return "exact";
  case ComparisonRule::Kind::Ulp:
    return concat("ulp:", static_cast<uint64_t>(rule.bound));
  case ComparisonRule::Kind::RelativeNorm:
  case ComparisonRule::Kind::AbsoluteError: {
    const char* prefix = rule.kind == ComparisonRule::Kind::RelativeNorm ? "relnorm:" : "abs:";
    std::array<char, 64> buffer{};
    auto [stop, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), rule.bound);
    if (error != std::errc()) return concat(prefix, rule.bound);
    return concat(prefix, std::string_view(buffer.data(), stop));
  }
  }
  return "exact";
}

} // namespace tcpu::cli
