#include "xcheck/xcheck_compare.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <system_error>
#include <vector>

#include "formats/data_types.hpp"
#include "xcheck/xcheck_manifest.hpp"

namespace tcpu::cli {
namespace {

static_assert(std::endian::native == std::endian::little,
              ".npy data is little-endian; so must the host be");

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr uint64_t kInfiniteUlp = std::numeric_limits<uint64_t>::max();

Status invalid(const std::string& what) {
  return Status(TCPU_ERROR_INVALID_VALUE, what);
}

std::string describeShape(const std::vector<uint64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += concat(i ? ", " : "", shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

// "fp32 (2, 3)"
std::string describeArray(const NpyArray& array) {
  return concat(tcpuDataTypeName(array.type), " ", describeShape(array.shape));
}

// The element at flat `index` as its coordinates: "[1, 2]" ("[]" for a 0-d array).
std::string describeIndex(uint64_t index, const std::vector<uint64_t>& shape) {
  std::vector<uint64_t> coordinates(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    coordinates[i] = shape[i] ? index % shape[i] : 0;
    index = shape[i] ? index / shape[i] : 0;
  }
  std::string text = "[";
  for (std::size_t i = 0; i < coordinates.size(); ++i)
    text += concat(i ? ", " : "", coordinates[i]);
  return text + "]";
}

uint64_t loadBits(const std::byte* element, std::size_t size) {
  uint64_t bits = 0;
  std::memcpy(&bits, element, size);
  return bits;
}

// fp16 bits to the double of the same value (every fp16 value is one).
double halfToDouble(uint64_t bits) {
  const double sign = (bits >> 15) & 1 ? -1.0 : 1.0;
  const auto exponent = static_cast<int>((bits >> 10) & 0x1f);
  const auto mantissa = static_cast<double>(bits & 0x3ff);
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 0x1f)
    return mantissa != 0 ? std::numeric_limits<double>::quiet_NaN() : sign * kInfinity;
  return sign * std::ldexp(mantissa + 1024.0, exponent - 25);
}

double floatValue(tcpuDataType type, uint64_t bits) {
  switch (type) {
  case TCPU_TYPE_FP16:
    return halfToDouble(bits);
  case TCPU_TYPE_BF16:
    return std::bit_cast<float>(static_cast<uint32_t>(bits << 16));
  case TCPU_TYPE_FP32:
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  default:
    return std::bit_cast<double>(bits);
  }
}

// ULP distance of two non-NaN floats of `width` bits: sign-magnitude mapped to ordered integers,
// so -0 and +0 are both 0.
uint64_t ulpDistance(uint64_t a, uint64_t b, std::size_t width) {
  const uint64_t signBit = uint64_t{1} << (width - 1);
  const uint64_t magnitudeA = a & (signBit - 1);
  const uint64_t magnitudeB = b & (signBit - 1);
  if ((a & signBit) == (b & signBit))
    return magnitudeA > magnitudeB ? magnitudeA - magnitudeB : magnitudeB - magnitudeA;
  return magnitudeA + magnitudeB; // below 2^64: each magnitude is below 2^63
}

std::string shortest(double value) {
  std::array<char, 64> buffer{};
  auto [stop, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return error == std::errc() ? std::string(buffer.data(), stop) : concat(value);
}

std::string shortest(float value) {
  std::array<char, 64> buffer{};
  auto [stop, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return error == std::errc() ? std::string(buffer.data(), stop) : concat(value);
}

// One element for a message: "1.5 (0x3fc00000)" for floats, "-3" for integers.
std::string describeElement(tcpuDataType type, const std::byte* element) {
  const std::size_t size = dataTypeSize(type);
  const uint64_t bits = loadBits(element, size);
  if (isFloatType(type)) {
    const double value = floatValue(type, bits);
    std::array<char, 24> hex{};
    std::snprintf(hex.data(), hex.size(), "0x%0*" PRIx64, static_cast<int>(size * 2), bits);
    return concat(type == TCPU_TYPE_FP32 ? shortest(static_cast<float>(value)) : shortest(value),
                  " (", hex.data(), ")");
  }
  if (isSignedIntegerType(type)) {
    const unsigned shift = static_cast<unsigned>(64 - size * 8);
    return concat(static_cast<int64_t>(bits << shift) >> shift);
  }
  return concat(bits);
}

// ||x||2 accumulated with scaling (as LAPACK's dnrm2), so that squares neither overflow nor
// underflow.
class Norm {
public:
  void add(double x) {
    x = std::fabs(x);
    if (x == 0) return;
    if (!std::isfinite(x)) {
      infinite_ = true;
      return;
    }
    if (x > scale_) {
      sumOfSquares_ = 1 + sumOfSquares_ * (scale_ / x) * (scale_ / x);
      scale_ = x;
    } else {
      sumOfSquares_ += (x / scale_) * (x / scale_);
    }
  }
  bool zero() const { return !infinite_ && scale_ == 0; }
  bool infinite() const { return infinite_; }

  // this / other, for norms that are neither zero nor infinite.
  double ratio(const Norm& other) const {
    return scale_ / other.scale_ * std::sqrt(sumOfSquares_ / other.sumOfSquares_);
  }

private:
  double scale_ = 0;
  double sumOfSquares_ = 0;
  bool infinite_ = false;
};

double relativeNorm(const Norm& difference, const Norm& reference) {
  if (difference.zero()) return 0;
  if (reference.zero() || difference.infinite()) return kInfinity;
  if (reference.infinite()) return 0;
  return difference.ratio(reference);
}

// How one element pair differs.
struct ElementDifference {
  bool differs = false;   // not bit-identical (two NaNs count as identical)
  bool nonFinite = false; // NaN against a number, or an infinity against anything else
  uint64_t ulp = 0;
  double absError = 0;
  double relError = 0;
  bool inNorm = false; // both finite: counts towards the relative norm
  double difference = 0, reference = 0;
};

ElementDifference compareFloats(tcpuDataType type, uint64_t expectedBits, uint64_t actualBits) {
  ElementDifference result;
  const double expected = floatValue(type, expectedBits);
  const double actual = floatValue(type, actualBits);
  const bool expectedNaN = std::isnan(expected), actualNaN = std::isnan(actual);
  if (expectedNaN && actualNaN) return result;
  result.differs = expectedBits != actualBits;
  if (expectedNaN || actualNaN || std::isinf(expected) || std::isinf(actual)) {
    if (result.differs) {
      result.nonFinite = true;
      result.ulp = kInfiniteUlp;
      result.absError = result.relError = kInfinity;
    }
    return result;
  }
  result.inNorm = true;
  result.reference = expected;
  result.difference = actual - expected;
  result.absError = std::fabs(result.difference);
  if (result.absError != 0)
    result.relError = expected == 0 ? kInfinity : result.absError / std::fabs(expected);
  result.ulp = ulpDistance(expectedBits, actualBits, dataTypeSize(type) * 8);
  return result;
}

ElementDifference compareIntegers(tcpuDataType type, uint64_t expectedBits, uint64_t actualBits) {
  ElementDifference result;
  result.differs = expectedBits != actualBits;
  result.inNorm = true;
  if (isSignedIntegerType(type)) {
    const unsigned shift = static_cast<unsigned>(64 - dataTypeSize(type) * 8);
    const int64_t expected = static_cast<int64_t>(expectedBits << shift) >> shift;
    const int64_t actual = static_cast<int64_t>(actualBits << shift) >> shift;
    // The wrapped unsigned difference is exact: it is below 2^64.
    result.ulp = actual >= expected
                     ? static_cast<uint64_t>(actual) - static_cast<uint64_t>(expected)
                     : static_cast<uint64_t>(expected) - static_cast<uint64_t>(actual);
    result.reference = static_cast<double>(expected);
    result.difference =
        actual >= expected ? static_cast<double>(result.ulp) : -static_cast<double>(result.ulp);
  } else {
    result.ulp = actualBits >= expectedBits ? actualBits - expectedBits : expectedBits - actualBits;
    result.reference = static_cast<double>(expectedBits);
    result.difference = static_cast<double>(result.ulp);
  }
  result.absError = static_cast<double>(result.ulp);
  if (result.ulp != 0)
    result.relError =
        result.reference == 0 ? kInfinity : result.absError / std::fabs(result.reference);
  return result;
}

std::string formatError(double value) {
  if (std::isinf(value)) return "inf";
  std::array<char, 32> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.3g", value);
  return buffer.data();
}

// A rule's bound as written after its name ("4" of ulp:4, "1e-05" of relnorm:1e-05).
std::string boundText(const ComparisonRule& rule) {
  const std::string text = formatComparisonRule(rule);
  return text.substr(text.find(':') + 1);
}

std::string formatUlp(uint64_t ulp) {
  return ulp == kInfiniteUlp ? "inf" : concat(ulp);
}

} // namespace

Expected<ArrayComparison> compareArrays(const NpyArray& expected, const NpyArray& actual,
                                        const ComparisonRule& rule) {
  if (expected.type != actual.type || expected.shape != actual.shape)
    return invalid(concat("the arrays differ in ", expected.type != actual.type ? "type" : "shape",
                          ": expected ", describeArray(expected), ", actual ",
                          describeArray(actual)));
  const tcpuDataType type = expected.type;
  const std::size_t size = dataTypeSize(type);
  const bool isFloat = isFloatType(type);
  if (size == 0 || type == TCPU_TYPE_PTR)
    return invalid(concat("arrays of ", tcpuDataTypeName(type), " cannot be compared"));
  Expected<uint64_t> count = elementCount(expected.shape);
  if (!count) return count.status();
  for (const auto& [array, which] : {std::pair{&expected, "expected"}, {&actual, "actual"}})
    if (array->data.size() / size != *count || array->data.size() % size != 0)
      return invalid(concat("the ", which, " array's data is ", array->data.size(),
                            " bytes but shape ", describeShape(array->shape), " of ",
                            tcpuDataTypeName(type), " needs ", *count * size));

  ArrayComparison result;
  result.elements = *count;
  Norm differenceNorm, referenceNorm;
  std::optional<uint64_t> firstMismatch, firstNonFinite, worstUlp, worstAbs;
  for (uint64_t i = 0; i < *count; ++i) {
    const uint64_t expectedBits = loadBits(expected.data.data() + i * size, size);
    const uint64_t actualBits = loadBits(actual.data.data() + i * size, size);
    const ElementDifference element = isFloat ? compareFloats(type, expectedBits, actualBits)
                                              : compareIntegers(type, expectedBits, actualBits);
    if (element.inNorm) {
      differenceNorm.add(element.difference);
      referenceNorm.add(element.reference);
    }
    if (!element.differs) continue;
    ++result.mismatches;
    if (!firstMismatch) firstMismatch = i;
    if (element.nonFinite && !firstNonFinite) firstNonFinite = i;
    if (!worstUlp || element.ulp > result.maxUlp) {
      worstUlp = i;
      result.maxUlp = element.ulp;
    }
    if (element.absError > result.maxAbsError) {
      result.maxAbsError = element.absError;
      worstAbs = i;
    }
    result.maxRelError = std::max(result.maxRelError, element.relError);
  }
  result.relativeNorm = relativeNorm(differenceNorm, referenceNorm);

  const auto at = [&](uint64_t index) {
    return concat("at ", describeIndex(index, expected.shape), ": expected ",
                  describeElement(type, expected.data.data() + index * size), ", actual ",
                  describeElement(type, actual.data.data() + index * size));
  };
  const std::string nonFiniteNote =
      firstNonFinite
          ? concat("non-finite values differ (NaN and infinities must match) ", at(*firstNonFinite))
          : "";
  switch (rule.kind) {
  case ComparisonRule::Kind::Exact:
    result.passed = result.mismatches == 0;
    if (!result.passed)
      result.note = concat(result.mismatches, " of ", result.elements,
                           " elements differ, the first ", at(*firstMismatch));
    break;
  case ComparisonRule::Kind::Ulp:
    result.passed = static_cast<double>(result.maxUlp) <= rule.bound;
    if (!result.passed)
      result.note = firstNonFinite ? nonFiniteNote
                                   : concat(isFloat ? "max ULP " : "max difference ", result.maxUlp,
                                            " > ", boundText(rule), " ", at(*worstUlp));
    break;
  case ComparisonRule::Kind::RelativeNorm:
    result.passed = !firstNonFinite && result.relativeNorm <= rule.bound;
    if (!result.passed)
      result.note =
          firstNonFinite
              ? nonFiniteNote
              : concat("relative norm ", shortest(result.relativeNorm), " > ", boundText(rule),
                       worstAbs ? "; the largest error " + at(*worstAbs) : std::string());
    break;
  case ComparisonRule::Kind::AbsoluteError:
    result.passed = !firstNonFinite && result.maxAbsError <= rule.bound;
    if (!result.passed)
      result.note = firstNonFinite ? nonFiniteNote
                                   : concat("max absolute error ", shortest(result.maxAbsError),
                                            " > ", boundText(rule), " ", at(*worstAbs));
    break;
  }
  return result;
}

namespace {

// What one case directory holds, read up front.
struct CaseRun {
  std::string name;
  std::filesystem::path expectedDirectory, actualDirectory;
  XcheckManifest expected;
  std::optional<XcheckManifest> actual; // none: the case is missing from the actual run
};

// One line of the table.
using Row = std::array<std::string, 10>;

// <directory>/<name>.npy; bf16 where the manifest says so (the file holds its bits as <u2).
Expected<NpyArray> readArray(const std::filesystem::path& directory, const std::string& name,
                             const XcheckManifest& manifest) {
  Expected<NpyArray> array = readNpyFile(directory / (name + ".npy"));
  if (!array && array.status().code() == TCPU_ERROR_INVALID_VALUE)
    return Status(TCPU_ERROR_INVALID_IMAGE, array.status().message());
  if (array && array->type == TCPU_TYPE_U16 &&
      std::find(manifest.bf16Arrays.begin(), manifest.bf16Arrays.end(), name) !=
          manifest.bf16Arrays.end())
    array->type = TCPU_TYPE_BF16;
  return array;
}

Status checkDirectory(const std::filesystem::path& directory) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(directory, error);
  if (!std::filesystem::exists(status))
    return Status(TCPU_ERROR_FILE_NOT_FOUND, concat("'", directory.string(), "' does not exist"));
  if (!std::filesystem::is_directory(status))
    return invalid(concat("'", directory.string(), "' is not a directory"));
  return Status();
}

bool holdsManifest(const std::filesystem::path& directory) {
  std::error_code error;
  return std::filesystem::is_regular_file(directory / kXcheckManifestName, error);
}

// The cases of a comparison, with their manifests; `actual` of a case that `actual` lacks is none.
Expected<std::vector<CaseRun>> readCases(const std::filesystem::path& expected,
                                         const std::filesystem::path& actual) {
  for (const std::filesystem::path& directory : {expected, actual})
    if (Status status = checkDirectory(directory); !status.ok()) return status;
  std::vector<CaseRun> cases;
  if (holdsManifest(expected)) {
    Expected<XcheckManifest> manifest = readManifest(expected);
    if (!manifest) return manifest.status();
    if (!holdsManifest(actual))
      return Status(TCPU_ERROR_FILE_NOT_FOUND,
                    concat("'", expected.string(), "' is a case directory (it holds ",
                           kXcheckManifestName, ") but '", actual.string(),
                           "' is not: it holds no ", kXcheckManifestName));
    Expected<XcheckManifest> other = readManifest(actual);
    if (!other) return other.status();
    cases.push_back({manifest->caseName, expected, actual, manifest.take(), other.take()});
    return cases;
  }
  std::error_code error;
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator entry(expected, error), end; !error && entry != end;
       entry.increment(error)) {
    std::error_code ignored;
    if (entry->is_directory(ignored) && holdsManifest(entry->path()))
      names.push_back(entry->path().filename().string());
  }
  if (error)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("listing '", expected.string(), "' failed: ", error.message()));
  if (names.empty())
    return invalid(concat("no xcheck cases under '", expected.string(), "' (no subdirectory holds ",
                          kXcheckManifestName, ")"));
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    CaseRun run{name, expected / name, actual / name, {}, std::nullopt};
    Expected<XcheckManifest> manifest = readManifest(run.expectedDirectory);
    if (!manifest) return manifest.status();
    run.expected = manifest.take();
    if (holdsManifest(run.actualDirectory)) {
      Expected<XcheckManifest> other = readManifest(run.actualDirectory);
      if (!other) return other.status();
      run.actual = other.take();
    }
    cases.push_back(std::move(run));
  }
  return cases;
}

// "backend cuda, device NVIDIA H100": the distinct ones of a run's cases, "; "-separated.
std::string describeRun(const std::vector<CaseRun>& cases, bool actual) {
  std::vector<std::string> seen;
  for (const CaseRun& run : cases) {
    const XcheckManifest* manifest = actual ? (run.actual ? &*run.actual : nullptr) : &run.expected;
    if (!manifest) continue;
    std::string text = concat("backend ", manifest->backend, ", device ",
                              manifest->device.empty() ? "unknown" : manifest->device);
    if (std::find(seen.begin(), seen.end(), text) == seen.end()) seen.push_back(std::move(text));
  }
  if (seen.empty()) return "no cases";
  std::string text;
  for (const std::string& item : seen)
    text += concat(text.empty() ? "" : "; ", item);
  return text;
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names)
    text += concat(text.empty() ? "" : ", ", name);
  return concat("[", text, "]");
}

std::vector<std::string> outputNames(const XcheckManifest& manifest) {
  std::vector<std::string> names;
  for (const auto& output : manifest.outputs)
    names.push_back(output.first);
  return names;
}

// Why the two manifests of a case do not describe the same computation, or "".
std::string manifestMismatch(const XcheckManifest& expected, const XcheckManifest& actual) {
  if (expected.kernel != actual.kernel)
    return concat("the runs ran different kernels: '", expected.kernel, "' and '", actual.kernel,
                  "'");
  if (expected.inputs != actual.inputs)
    return concat("the manifests list different inputs: ", joinNames(expected.inputs), " and ",
                  joinNames(actual.inputs));
  if (outputNames(expected) != outputNames(actual))
    return concat("the manifests list different outputs: ", joinNames(outputNames(expected)),
                  " and ", joinNames(outputNames(actual)));
  if (expected.bf16Arrays != actual.bf16Arrays)
    return concat("the manifests give different arrays as bf16: ", joinNames(expected.bf16Arrays),
                  " and ", joinNames(actual.bf16Arrays));
  return "";
}

// Whether the inputs of a case are bit-identical in both runs: "" if so, else why not.
Expected<std::string> inputMismatch(const CaseRun& run) {
  for (const std::string& input : run.expected.inputs) {
    Expected<NpyArray> expected = readArray(run.expectedDirectory, input, run.expected);
    if (!expected) return expected.status();
    Expected<NpyArray> actual = readArray(run.actualDirectory, input, *run.actual);
    if (!actual) return actual.status();
    std::string detail;
    if (expected->type != actual->type || expected->shape != actual->shape) {
      detail = concat(describeArray(*expected), " and ", describeArray(*actual));
    } else if (expected->data != actual->data) {
      const std::size_t size = dataTypeSize(expected->type);
      uint64_t differing = 0;
      for (std::size_t i = 0; size != 0 && i + size <= expected->data.size(); i += size)
        if (std::memcmp(expected->data.data() + i, actual->data.data() + i, size) != 0) ++differing;
      detail =
          concat(differing, " of ", size ? expected->data.size() / size : 0, " elements differ");
    }
    if (detail.empty()) continue;
    std::string seeds;
    if (run.expected.seed != run.actual->seed)
      seeds = concat("; seeds ", run.expected.seed, " and ", run.actual->seed);
    return concat("inputs differ: the runs are not comparable (different seeds or generators?): '",
                  input, "': ", detail, seeds);
  }
  return std::string();
}

void printTable(const std::vector<Row>& rows, std::ostream& out) {
  std::array<std::size_t, std::tuple_size_v<Row>> widths{};
  for (const Row& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  // Numbers align right, text left; the last column is not padded.
  constexpr std::array<bool, std::tuple_size_v<Row>> right = {false, false, true, true,  true,
                                                              true,  true,  true, false, false};
  for (const Row& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) line += "  ";
      const std::string padding(widths[i] - row[i].size(), ' ');
      if (i + 1 == row.size())
        line += row[i];
      else
        line += right[i] ? padding + row[i] : row[i] + padding;
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out << line << "\n";
  }
}

} // namespace

Expected<bool> compareRunDirectories(const std::filesystem::path& expected,
                                     const std::filesystem::path& actual, std::ostream& out) {
  Expected<std::vector<CaseRun>> cases = readCases(expected, actual);
  if (!cases) return cases.status();

  std::vector<Row> rows = {{"case", "output", "elements", "max abs err", "max rel err", "max ULP",
                            "rel norm", "mismatches", "rule", "result"}};
  uint64_t outputs = 0, passedOutputs = 0, failedCases = 0;
  for (const CaseRun& run : *cases) {
    const auto caseFails = [&](const std::string& why) {
      rows.push_back({run.name, "-", "", "", "", "", "", "", "", concat("FAIL: ", why)});
      ++failedCases;
    };
    if (!run.actual) {
      caseFails(concat("the case is missing from '", actual.string(), "'"));
      continue;
    }
    if (std::string why = manifestMismatch(run.expected, *run.actual); !why.empty()) {
      caseFails(why);
      continue;
    }
    Expected<std::string> inputs = inputMismatch(run);
    if (!inputs) return inputs.status();
    if (!inputs->empty()) {
      caseFails(*inputs);
      continue;
    }
    for (const auto& [name, rule] : run.expected.outputs) {
      ++outputs;
      Expected<NpyArray> expectedArray = readArray(run.expectedDirectory, name, run.expected);
      if (!expectedArray) return expectedArray.status();
      Expected<NpyArray> actualArray = readArray(run.actualDirectory, name, *run.actual);
      if (!actualArray) return actualArray.status();
      Expected<ArrayComparison> comparison = compareArrays(*expectedArray, *actualArray, rule);
      if (!comparison) {
        rows.push_back({run.name, name, "", "", "", "", "", "", formatComparisonRule(rule),
                        concat("FAIL: ", comparison.status().message())});
        continue;
      }
      if (comparison->passed) ++passedOutputs;
      rows.push_back({run.name, name, concat(comparison->elements),
                      formatError(comparison->maxAbsError), formatError(comparison->maxRelError),
                      formatUlp(comparison->maxUlp), formatError(comparison->relativeNorm),
                      concat(comparison->mismatches), formatComparisonRule(rule),
                      comparison->passed ? "pass" : concat("FAIL: ", comparison->note)});
    }
  }

  out << "expected: " << expected.string() << " (" << describeRun(*cases, false) << ")\n";
  out << "actual:   " << actual.string() << " (" << describeRun(*cases, true) << ")\n";
  printTable(rows, out);
  const bool passed = failedCases == 0 && passedOutputs == outputs;
  if (passed) {
    out << "xcheck: all " << outputs << " outputs of " << cases->size() << " cases passed\n";
  } else {
    out << "xcheck: FAILED: " << passedOutputs << " of " << outputs << " outputs passed";
    if (failedCases)
      out << "; " << failedCases << " of " << cases->size() << " cases could not be compared";
    out << "\n";
  }
  return passed;
}

} // namespace tcpu::cli
