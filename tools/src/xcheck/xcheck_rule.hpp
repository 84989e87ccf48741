// How `tcpu xcheck` judges one output of a kernel run on two backends (see xcheck_compare.hpp):
//
//   exact        every element bit-identical (NaNs match NaNs whatever their payloads)
//   ulp:N        floats at most N units in the last place apart, in the array's own format;
//                integers at most N apart (N an integer 0..2^31)
//   relnorm:X    ||actual - expected||2 / ||expected||2 <= X (X a finite number > 0), and
//                NaNs and infinities where the other run has them
//   abs:X        every |actual - expected| <= X (X a finite number > 0), and NaNs and
//                infinities where the other run has them
//
// A rule is written in the manifest (xcheck_manifest.hpp) after each output's name.
#ifndef TCPU_TOOLS_XCHECK_RULE_HPP
#define TCPU_TOOLS_XCHECK_RULE_HPP

#include <string>
#include <string_view>

#include "tcpu/status.hpp"

namespace tcpu::cli {

struct ComparisonRule {
  enum class Kind { Exact, Ulp, RelativeNorm, AbsoluteError };
  Kind kind = Kind::Exact;
  double bound = 0; // Ulp: the most ULP (a whole number); RelativeNorm: the most relative
                    // norm; AbsoluteError: the largest absolute difference

  bool operator==(const ComparisonRule&) const = default;
};

// The largest N of ulp:N.
inline constexpr double kMaxUlpBound = 2147483648.0; // 2^31

// "exact", "ulp:4", "relnorm:1e-5", "abs:1e-3". TCPU_ERROR_INVALID_VALUE naming the text and the
// accepted forms.
Expected<ComparisonRule> parseComparisonRule(std::string_view text);

// The rule as parseComparisonRule reads it back ("relnorm:1e-05", "abs:0.5": the shortest
// text that round-trips).
std::string formatComparisonRule(const ComparisonRule& rule);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_XCHECK_RULE_HPP
