// The comparison half of `tcpu xcheck`: judging the arrays one backend wrote against another's,
// one array at a time (compareArrays) or two whole runs (compareRunDirectories).
//
// Floats (fp16, bf16, fp32, fp64) are compared as numbers: fp16 and bf16 convert exactly to
// double for the errors, and ULP distances count in the array's own format, on the integers the
// sign-magnitude bit patterns map to in order (-0 and +0 are 0 ULP apart; the largest finite
// number is 1 ULP from infinity). NaN matches NaN under every rule, whatever the payloads; NaN
// against a number, or an infinity against anything but itself, is a non-finite mismatch: its
// ULP distance and errors count as infinite and it fails every rule. Integers and booleans
// compare as integers: their ULP distance is |actual - expected|.
//
// bf16 arrays travel in .npy files as u16 bits (npy.hpp): compareArrays judges a bf16 array as
// floats only when its type says bf16.
#ifndef TCPU_TOOLS_XCHECK_COMPARE_HPP
#define TCPU_TOOLS_XCHECK_COMPARE_HPP

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>

#include "formats/npy.hpp"
#include "tcpu/status.hpp"
#include "xcheck/xcheck_rule.hpp"

namespace tcpu::cli {

struct ArrayComparison {
  uint64_t elements = 0;
  // Over the elements: max |actual - expected|, and max |actual - expected| / |expected| (0 where
  // they are equal, infinite where expected is 0 and actual is not). Infinite when a non-finite
  // mismatch exists.
  double maxAbsError = 0;
  double maxRelError = 0;
  uint64_t maxUlp = 0; // UINT64_MAX: a non-finite mismatch (infinitely many ULP)
  // Elements that are not bit-identical; two NaNs are not counted, whatever their payloads.
  uint64_t mismatches = 0;
  // ||actual - expected||2 / ||expected||2 in double over the elements where both are finite; 0
  // when both norms are 0, infinite when only ||expected||2 is.
  double relativeNorm = 0;
  bool passed = false;
  std::string note; // why it failed, naming the element (its index and both values), or ""
};

// Compares `actual` with `expected` element by element and judges the result by `rule`:
//   Exact         no mismatches
//   Ulp           maxUlp <= bound (integers: every |actual - expected| <= bound)
//   RelativeNorm  relativeNorm <= bound and no non-finite mismatch
// TCPU_ERROR_INVALID_VALUE when the types or shapes differ (the message says both), when the type
// has no comparison (unknown, pointer) or when the data size does not fit the shape.
Expected<ArrayComparison> compareArrays(const NpyArray& expected, const NpyArray& actual,
                                        const ComparisonRule& rule);

// Compares the run in `actual` with the one in `expected`. The cases are the subdirectories of
// `expected` holding an xcheck.txt, in name order; or `expected` itself when it holds one (then
// `actual` must be a case directory too). For each case, both manifests must name the same kernel,
// inputs and outputs, every input must be bit-identical in both runs (else the runs are not
// comparable), and each output is judged by compareArrays under the rule of `expected`'s manifest.
// A case missing from `actual` fails. Writes to `out` a header naming both directories with their
// backends and devices, one aligned line per output (case, output, elements, max abs err, max rel
// err, max ULP, mismatches, rule, pass or FAIL and why), one line per case that fails as a whole,
// and a summary line.
//
// Returns whether every output of every case passed. Errors only where something cannot be read:
// TCPU_ERROR_FILE_NOT_FOUND (a directory, manifest or .npy file that does not exist),
// TCPU_ERROR_INVALID_VALUE (a malformed manifest; no cases under `expected`; a path that is not a
// directory), TCPU_ERROR_INVALID_IMAGE (a malformed .npy file), TCPU_ERROR_OPERATING_SYSTEM (a
// file or directory that cannot be read).
Expected<bool> compareRunDirectories(const std::filesystem::path& expected,
                                     const std::filesystem::path& actual, std::ostream& out);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_XCHECK_COMPARE_HPP
