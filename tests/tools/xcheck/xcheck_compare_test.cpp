// The comparison half of `tcpu xcheck`: comparison rules, the manifest format, compareArrays on
// every float format and on integers (signed zeros, NaN payloads, infinities, ULP neighbours), and
// whole run directories written as the run side writes them.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "formats/npy.hpp"
#include "tool_test_support.hpp"
#include "xcheck/xcheck_compare.hpp"
#include "xcheck/xcheck_manifest.hpp"
#include "xcheck/xcheck_rule.hpp"

namespace tcpu::cli {
namespace {

constexpr uint64_t kInfiniteUlp = std::numeric_limits<uint64_t>::max();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kInfF = std::numeric_limits<float>::infinity();

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---------------------------------------------------------------------------------------------
// Rules

ComparisonRule rule(std::string_view text) {
  Expected<ComparisonRule> parsed = parseComparisonRule(text);
  EXPECT_TRUE(parsed) << text << ": " << parsed.status().message();
  return parsed ? *parsed : ComparisonRule{};
}

TEST(XcheckRule, ParsesTheFourForms) {
  EXPECT_EQ(rule("exact"), (ComparisonRule{ComparisonRule::Kind::Exact, 0}));
  EXPECT_EQ(rule("ulp:0"), (ComparisonRule{ComparisonRule::Kind::Ulp, 0}));
  EXPECT_EQ(rule("ulp:4"), (ComparisonRule{ComparisonRule::Kind::Ulp, 4}));
  EXPECT_EQ(rule("ulp:007"), (ComparisonRule{ComparisonRule::Kind::Ulp, 7}));
  EXPECT_EQ(rule("ulp:2147483648"), (ComparisonRule{ComparisonRule::Kind::Ulp, 2147483648.0}));
  EXPECT_EQ(rule("relnorm:1e-5"), (ComparisonRule{ComparisonRule::Kind::RelativeNorm, 1e-5}));
  EXPECT_EQ(rule("relnorm:0.25"), (ComparisonRule{ComparisonRule::Kind::RelativeNorm, 0.25}));
  EXPECT_EQ(rule("relnorm:3"), (ComparisonRule{ComparisonRule::Kind::RelativeNorm, 3}));
  EXPECT_EQ(rule("abs:1e-3"), (ComparisonRule{ComparisonRule::Kind::AbsoluteError, 1e-3}));
  EXPECT_EQ(rule("abs:2"), (ComparisonRule{ComparisonRule::Kind::AbsoluteError, 2}));
}

TEST(XcheckRule, RejectsEverythingElseNamingTheTextAndTheForms) {
  for (const char* text : {"",
                           "EXACT",
                           "exact ",
                           " exact",
                           "ulp",
                           "ulp:",
                           "ulp:-1",
                           "ulp:+1",
                           "ulp:1.5",
                           "ulp:4 ",
                           "ulp:0x10",
                           "ulp:2147483649",
                           "ulp:99999999999999999999999",
                           "relnorm",
                           "relnorm:",
                           "relnorm:0",
                           "relnorm:-1e-5",
                           "relnorm:inf",
                           "relnorm:nan",
                           "relnorm:1e999",
                           "relnorm:1e-5x",
                           "relnorm:abc",
                           "ulps:4",
                           "rel:1e-5",
                           "abs",
                           "abs:",
                           "abs:0",
                           "abs:-1",
                           "abs:nan",
                           "abs:1e-3 "}) {
    Expected<ComparisonRule> parsed = parseComparisonRule(text);
    ASSERT_FALSE(parsed) << "'" << text << "' was accepted";
    EXPECT_EQ(parsed.status().code(), TCPU_ERROR_INVALID_VALUE);
    const std::string& message = parsed.status().message();
    EXPECT_TRUE(contains(message, concat("comparison rule '", text, "' is invalid"))) << message;
    EXPECT_TRUE(contains(message, "exact, ulp:N (N an integer 0..2147483648), relnorm:X or abs:X"))
        << message;
  }
  EXPECT_TRUE(contains(parseComparisonRule("ulp:2147483649").status().message(), "above"));
  EXPECT_TRUE(
      contains(parseComparisonRule("relnorm:0").status().message(), "finite and greater than 0"));
}

TEST(XcheckRule, FormatsWhatItParses) {
  EXPECT_EQ(formatComparisonRule({ComparisonRule::Kind::Exact, 0}), "exact");
  EXPECT_EQ(formatComparisonRule({ComparisonRule::Kind::Ulp, 4}), "ulp:4");
  EXPECT_EQ(formatComparisonRule({ComparisonRule::Kind::Ulp, 2147483648.0}), "ulp:2147483648");
  EXPECT_EQ(formatComparisonRule({ComparisonRule::Kind::RelativeNorm, 1e-5}), "relnorm:1e-05");
  EXPECT_EQ(formatComparisonRule({ComparisonRule::Kind::RelativeNorm, 0.1}), "relnorm:0.1");
  EXPECT_EQ(formatComparisonRule({ComparisonRule::Kind::AbsoluteError, 0.5}), "abs:0.5");
  for (const char* text :
       {"exact", "ulp:0", "ulp:4", "ulp:2147483648", "relnorm:1e-5", "relnorm:0.1",
        "relnorm:3.0000000000000004", "relnorm:5e-324", "abs:1e-3", "abs:0.25"}) {
    const ComparisonRule parsed = rule(text);
    EXPECT_EQ(rule(formatComparisonRule(parsed)), parsed) << text;
  }
}

// ---------------------------------------------------------------------------------------------
// Manifests

const std::string kExampleManifest = "tcpu-xcheck 1\n"
                                     "case softmax\n"
                                     "kernel softmax_1024\n"
                                     "backend cuda\n"
                                     "device NVIDIA H100 80GB HBM3\n"
                                     "seed 1\n"
                                     "input input_ptr\n"
                                     "output output_ptr ulp:4\n";

TEST(XcheckManifest, ParsesAndFormatsTheExample) {
  Expected<XcheckManifest> manifest = parseManifest(kExampleManifest, "m.txt");
  ASSERT_TRUE(manifest) << manifest.status().message();
  EXPECT_EQ(manifest->caseName, "softmax");
  EXPECT_EQ(manifest->kernel, "softmax_1024");
  EXPECT_EQ(manifest->backend, "cuda");
  EXPECT_EQ(manifest->device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(manifest->seed, 1u);
  EXPECT_EQ(manifest->inputs, std::vector<std::string>{"input_ptr"});
  ASSERT_EQ(manifest->outputs.size(), 1u);
  EXPECT_EQ(manifest->outputs[0].first, "output_ptr");
  EXPECT_EQ(manifest->outputs[0].second, (ComparisonRule{ComparisonRule::Kind::Ulp, 4}));
  EXPECT_EQ(formatManifest(*manifest), kExampleManifest);
}

TEST(XcheckManifest, RoundTrips) {
  XcheckManifest manifest;
  manifest.caseName = "layer-norm.fwd_2";
  manifest.kernel = "_layer_norm_fwd_fused";
  manifest.backend = "cpu";
  manifest.device = "AMD EPYC 9654 96-Core Processor (avx512)";
  manifest.seed = 18446744073709551615u;
  manifest.inputs = {"X", "W", "B"};
  manifest.outputs = {{"Y", {ComparisonRule::Kind::RelativeNorm, 1e-5}},
                      {"Mean", {ComparisonRule::Kind::Ulp, 16}},
                      {"Rstd", {ComparisonRule::Kind::Exact, 0}}};
  const std::string text = formatManifest(manifest);
  EXPECT_EQ(text, "tcpu-xcheck 1\ncase layer-norm.fwd_2\nkernel _layer_norm_fwd_fused\n"
                  "backend cpu\ndevice AMD EPYC 9654 96-Core Processor (avx512)\n"
                  "seed 18446744073709551615\ninput X\ninput W\ninput B\n"
                  "output Y relnorm:1e-05\noutput Mean ulp:16\noutput Rstd exact\n");
  Expected<XcheckManifest> back = parseManifest(text, "m");
  ASSERT_TRUE(back) << back.status().message();
  EXPECT_EQ(*back, manifest);

  // No device, no seed, CRLF line ends and blank lines are read too; line breaks in a device
  // become spaces when written.
  Expected<XcheckManifest> minimal =
      parseManifest("tcpu-xcheck 1\r\ncase c\r\n\r\nkernel k\r\nbackend cpu\r\n", "m");
  ASSERT_TRUE(minimal) << minimal.status().message();
  EXPECT_EQ(minimal->device, "");
  EXPECT_EQ(minimal->seed, 0u);
  EXPECT_TRUE(minimal->inputs.empty());
  EXPECT_TRUE(minimal->outputs.empty());
  EXPECT_EQ(formatManifest(*minimal), "tcpu-xcheck 1\ncase c\nkernel k\nbackend cpu\nseed 0\n");
  minimal->device = "two\nlines\r";
  EXPECT_TRUE(contains(formatManifest(*minimal), "\ndevice two lines \nseed 0\n"));

  // bf16 arrays (their .npy files hold <u2 bits) are marked, inputs and outputs alike; the list
  // comes back sorted.
  manifest.bf16Arrays = {"Y", "X"};
  const std::string marked = formatManifest(manifest);
  EXPECT_TRUE(contains(marked, "\ninput X bf16\ninput W\n")) << marked;
  EXPECT_TRUE(contains(marked, "\noutput Y relnorm:1e-05 bf16\noutput Mean ulp:16\n")) << marked;
  Expected<XcheckManifest> markedBack = parseManifest(marked, "m");
  ASSERT_TRUE(markedBack) << markedBack.status().message();
  EXPECT_EQ(markedBack->bf16Arrays, (std::vector<std::string>{"X", "Y"}));
}

std::string manifestError(const std::string& text) {
  Expected<XcheckManifest> manifest = parseManifest(text, "run/c/xcheck.txt");
  EXPECT_FALSE(manifest) << text;
  if (manifest) return "";
  EXPECT_EQ(manifest.status().code(), TCPU_ERROR_INVALID_VALUE);
  return manifest.status().message();
}

TEST(XcheckManifest, RejectsWhatIsNotOneWithTheLine) {
  const std::string head = "tcpu-xcheck 1\ncase c\nkernel k\nbackend cpu\n"; // lines 1-4
  EXPECT_EQ(manifestError(""),
            "run/c/xcheck.txt: the manifest is empty (it must start with 'tcpu-xcheck 1')");
  EXPECT_EQ(manifestError("case c\n"),
            "run/c/xcheck.txt:1: not an xcheck manifest: the first line is 'case c', not "
            "'tcpu-xcheck 1'");
  EXPECT_EQ(manifestError("tcpu-xcheck 2\ncase c\n"),
            "run/c/xcheck.txt:1: format 'tcpu-xcheck 2' is not supported (this tcpu reads "
            "'tcpu-xcheck 1')");
  // Unknown keys.
  EXPECT_EQ(manifestError(head + "colour red\n"),
            "run/c/xcheck.txt:5: unknown key 'colour' (the keys are case, kernel, backend, "
            "device, seed, input, output)");
  EXPECT_TRUE(contains(manifestError(head + " input x\n"), ":5: unknown key ''"));
  EXPECT_TRUE(contains(manifestError(head + "# comment\n"), ":5: unknown key '#'"));
  // Duplicates.
  EXPECT_EQ(manifestError("tcpu-xcheck 1\ncase c\ncase d\n"),
            "run/c/xcheck.txt:3: 'case' is given twice");
  for (const char* key : {"kernel k", "backend cuda", "device x", "seed 2"})
    EXPECT_TRUE(contains(manifestError(head + "device x\nseed 1\n" + key + "\n"), ":7: '")) << key;
  EXPECT_EQ(manifestError(head + "input x\ninput x\n"),
            "run/c/xcheck.txt:6: 'x' is already an input");
  EXPECT_EQ(manifestError(head + "output y exact\noutput y ulp:1\n"),
            "run/c/xcheck.txt:6: 'y' is already an output");
  EXPECT_EQ(manifestError(head + "input x\noutput x exact\n"),
            "run/c/xcheck.txt:6: 'x' is already an input");
  EXPECT_EQ(manifestError(head + "output x exact\ninput x\n"),
            "run/c/xcheck.txt:6: 'x' is already an output");
  // Missing keys.
  EXPECT_EQ(manifestError("tcpu-xcheck 1\nkernel k\nbackend cpu\n"),
            "run/c/xcheck.txt: the manifest has no 'case' line");
  EXPECT_EQ(manifestError("tcpu-xcheck 1\ncase c\nbackend cpu\n"),
            "run/c/xcheck.txt: the manifest has no 'kernel' line");
  EXPECT_EQ(manifestError("tcpu-xcheck 1\ncase c\nkernel k\n"),
            "run/c/xcheck.txt: the manifest has no 'backend' line");
  // Bad rules.
  EXPECT_EQ(manifestError(head + "output y\n"),
            "run/c/xcheck.txt:5: output 'y' has no rule: write 'output <name> <rule>'");
  EXPECT_TRUE(contains(manifestError(head + "output y ulp:x\n"),
                       "run/c/xcheck.txt:5: output 'y': comparison rule 'ulp:x' is invalid"));
  EXPECT_EQ(manifestError(head + "output y exact extra\n"),
            "run/c/xcheck.txt:5: 'y' is followed by 'extra': only the element type bf16 may "
            "follow an array");
  EXPECT_TRUE(contains(manifestError(head + "input x fp16\n"), ":5: 'x' is followed by 'fp16'"));
  EXPECT_TRUE(contains(manifestError(head + "input x bf16 \n"), ":5: 'x' is followed by 'bf16 '"));
  // Bad names and values.
  for (const char* name : {".hidden", "a/b", "..", "", "x\ty", "ü", "a:b"}) {
    EXPECT_EQ(manifestError(head + "input " + name + "\n"),
              concat("run/c/xcheck.txt:5: input name '", name,
                     "' is invalid: names are [A-Za-z0-9_.-]+ and do not start with '.'"));
    EXPECT_TRUE(contains(manifestError(head + "output " + name + " exact\n"),
                         concat(":5: output name '", name, "' is invalid")));
  }
  EXPECT_TRUE(contains(manifestError(head + "input a b\n"), ":5: 'a' is followed by 'b'"));
  EXPECT_TRUE(
      contains(manifestError("tcpu-xcheck 1\ncase ../up\n"), ":2: case name '../up' is invalid"));
  EXPECT_TRUE(contains(manifestError("tcpu-xcheck 1\ncase c\nkernel two words\n"),
                       ":3: kernel 'two words' is invalid: it must be one word"));
  EXPECT_TRUE(contains(manifestError("tcpu-xcheck 1\ncase c\nkernel\n"), ":3: kernel '' is"));
  EXPECT_TRUE(contains(manifestError("tcpu-xcheck 1\ncase c\nbackend \n"), ":3: backend '' is"));
  for (const char* seed : {"-1", "1.5", "0x10", "18446744073709551616", " 1"})
    EXPECT_TRUE(contains(manifestError(head + "seed " + seed + "\n"),
                         concat(":5: seed '", seed, "' is not an integer 0..2^64-1")))
        << seed;
  EXPECT_TRUE(contains(manifestError(head + "seed\n"), ":5: seed needs a value"));
}

using test::TempDir;

void writeFile(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

TEST(XcheckManifest, ReadsTheFileOfACaseDirectory) {
  TempDir dir;
  Expected<XcheckManifest> missing = readManifest(dir.path() / "none");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.status().code(), TCPU_ERROR_FILE_NOT_FOUND);
  EXPECT_EQ(missing.status().message(),
            concat("'", (dir.path() / "none" / "xcheck.txt").string(), "' does not exist"));

  writeFile(dir.path() / "softmax" / "xcheck.txt", kExampleManifest);
  Expected<XcheckManifest> manifest = readManifest(dir.path() / "softmax");
  ASSERT_TRUE(manifest) << manifest.status().message();
  EXPECT_EQ(manifest->kernel, "softmax_1024");

  writeFile(dir.path() / "bad" / "xcheck.txt", "tcpu-xcheck 1\ncase c\nwhat\n");
  Expected<XcheckManifest> bad = readManifest(dir.path() / "bad");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.status().code(), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(bad.status().message(),
            concat((dir.path() / "bad" / "xcheck.txt").string(), ":3: unknown key 'what' ",
                   "(the keys are case, kernel, backend, device, seed, input, output)"));

  std::filesystem::create_directories(dir.path() / "dir" / "xcheck.txt");
  Expected<XcheckManifest> notFile = readManifest(dir.path() / "dir");
  ASSERT_FALSE(notFile);
  EXPECT_EQ(notFile.status().code(), TCPU_ERROR_OPERATING_SYSTEM);
}

// ---------------------------------------------------------------------------------------------
// compareArrays

template <class T>
NpyArray array(tcpuDataType type, const std::vector<T>& values, std::vector<uint64_t> shape = {}) {
  NpyArray result{type, shape.empty() ? std::vector<uint64_t>{values.size()} : shape, {}};
  result.data.resize(values.size() * sizeof(T));
  std::memcpy(result.data.data(), values.data(), result.data.size());
  return result;
}

NpyArray fp32(const std::vector<float>& values, std::vector<uint64_t> shape = {}) {
  return array(TCPU_TYPE_FP32, values, std::move(shape));
}
NpyArray fp16(const std::vector<uint16_t>& bits) {
  return array(TCPU_TYPE_FP16, bits);
}
NpyArray bf16(const std::vector<uint16_t>& bits) {
  return array(TCPU_TYPE_BF16, bits);
}
NpyArray i32(const std::vector<int32_t>& values) {
  return array(TCPU_TYPE_I32, values);
}

float floatBits(uint32_t bits) {
  return std::bit_cast<float>(bits);
}

ArrayComparison compare(const NpyArray& expected, const NpyArray& actual, std::string_view how) {
  Expected<ArrayComparison> result = compareArrays(expected, actual, rule(how));
  EXPECT_TRUE(result) << result.status().message();
  return result ? *result : ArrayComparison{};
}

bool passes(const NpyArray& expected, const NpyArray& actual, std::string_view how) {
  return compare(expected, actual, how).passed;
}

TEST(XcheckCompare, IdenticalFp32PassesEveryRule) {
  const NpyArray a = fp32({1.5f, -0.0f, 3e38f, -kInfF, floatBits(0x7fc00000)});
  for (const char* how : {"exact", "ulp:0", "relnorm:1e-300"}) {
    const ArrayComparison result = compare(a, a, how);
    EXPECT_TRUE(result.passed) << how << ": " << result.note;
    EXPECT_EQ(result.elements, 5u);
    EXPECT_EQ(result.mismatches, 0u);
    EXPECT_EQ(result.maxUlp, 0u);
    EXPECT_EQ(result.maxAbsError, 0.0);
    EXPECT_EQ(result.maxRelError, 0.0);
    EXPECT_EQ(result.relativeNorm, 0.0);
    EXPECT_EQ(result.note, "");
  }
}

TEST(XcheckCompare, Fp32UlpNeighbours) {
  const float one = std::nextafter(1.0f, 2.0f);                         // 1 + 2^-23: 1 ULP
  const float three = std::nextafter(std::nextafter(3.0f, 0.0f), 0.0f); // 3 - 2^-21: 2 ULP
  const NpyArray expected = fp32({1, 2, 3, 4});
  const NpyArray actual = fp32({one, 2, three, 4});
  const ArrayComparison result = compare(expected, actual, "ulp:1");
  EXPECT_EQ(result.elements, 4u);
  EXPECT_EQ(result.mismatches, 2u);
  EXPECT_EQ(result.maxUlp, 2u);
  EXPECT_EQ(result.maxAbsError, std::ldexp(1.0, -21));
  EXPECT_EQ(result.maxRelError, std::ldexp(1.0, -21) / 3);
  EXPECT_DOUBLE_EQ(result.relativeNorm,
                   std::sqrt(std::ldexp(1.0, -46) + std::ldexp(1.0, -42)) / std::sqrt(30.0));
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.note, "max ULP 2 > 1 at [2]: expected 3 (0x40400000), actual 2.9999995 "
                         "(0x403ffffe)");
  EXPECT_TRUE(passes(expected, actual, "ulp:2"));
  EXPECT_FALSE(passes(expected, actual, "exact"));
  EXPECT_EQ(compare(expected, actual, "exact").note,
            "2 of 4 elements differ, the first at [0]: expected 1 (0x3f800000), actual 1.0000001 "
            "(0x3f800001)");
  EXPECT_TRUE(passes(expected, actual, "relnorm:1e-7"));
  EXPECT_FALSE(passes(expected, actual, "relnorm:1e-8"));
  EXPECT_TRUE(contains(compare(expected, actual, "relnorm:1e-8").note,
                       "> 1e-08; the largest error at [2]: expected 3"));

  // Across zero: the smallest subnormals of both signs are 2 ULP apart.
  const float tiny = std::numeric_limits<float>::denorm_min();
  const ArrayComparison acrossZero = compare(fp32({tiny}), fp32({-tiny}), "ulp:2");
  EXPECT_EQ(acrossZero.maxUlp, 2u);
  EXPECT_TRUE(acrossZero.passed);
  EXPECT_FALSE(passes(fp32({tiny}), fp32({-tiny}), "ulp:1"));
  // Far apart: 1 and -1 are 2 * 0x3f800000 ULP apart.
  EXPECT_EQ(compare(fp32({1}), fp32({-1}), "exact").maxUlp, 2u * 0x3f800000u);
}

TEST(XcheckCompare, Fp32SignedZerosAreZeroUlpButNotIdentical) {
  const ArrayComparison result = compare(fp32({0.0f, 1}), fp32({-0.0f, 1}), "exact");
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.mismatches, 1u);
  EXPECT_EQ(result.maxUlp, 0u);
  EXPECT_EQ(result.maxAbsError, 0.0);
  EXPECT_EQ(result.maxRelError, 0.0);
  EXPECT_EQ(result.note,
            "1 of 2 elements differ, the first at [0]: expected 0 (0x00000000), actual -0 "
            "(0x80000000)");
  EXPECT_TRUE(passes(fp32({0.0f, 1}), fp32({-0.0f, 1}), "ulp:0"));
  EXPECT_TRUE(passes(fp32({0.0f}), fp32({-0.0f}), "relnorm:1e-9"));
  EXPECT_EQ(compare(fp32({0.0f}), fp32({-0.0f}), "relnorm:1e-9").relativeNorm, 0.0);
}

TEST(XcheckCompare, Fp32NaNsMatchNaNsAndNothingElse) {
  // Different payloads and signs: still NaN = NaN, under every rule, and not a mismatch.
  const NpyArray expected = fp32({floatBits(0x7fc00000), 1});
  const NpyArray otherNaN = fp32({floatBits(0xffc00123), 1});
  for (const char* how : {"exact", "ulp:0", "relnorm:1e-9"}) {
    const ArrayComparison result = compare(expected, otherNaN, how);
    EXPECT_TRUE(result.passed) << how << ": " << result.note;
    EXPECT_EQ(result.mismatches, 0u);
  }
  // NaN against a number: infinitely many ULP, fails every rule.
  const NpyArray number = fp32({2, 1});
  for (const char* how : {"exact", "ulp:2147483648", "relnorm:1e300"}) {
    const ArrayComparison result = compare(expected, number, how);
    EXPECT_FALSE(result.passed) << how;
    EXPECT_EQ(result.mismatches, 1u);
    EXPECT_EQ(result.maxUlp, kInfiniteUlp);
    EXPECT_EQ(result.maxAbsError, kInf);
    EXPECT_EQ(result.maxRelError, kInf);
  }
  EXPECT_EQ(compare(expected, number, "ulp:4").note,
            "non-finite values differ (NaN and infinities must match) at [0]: expected nan "
            "(0x7fc00000), actual 2 (0x40000000)");
  // The relative norm is over the elements where both are finite.
  EXPECT_EQ(compare(expected, number, "relnorm:1").relativeNorm, 0.0);
  EXPECT_TRUE(contains(compare(number, expected, "relnorm:1").note, "actual nan"));
}

TEST(XcheckCompare, Fp32InfinitiesMustBeEqual) {
  const float max = std::numeric_limits<float>::max();
  EXPECT_TRUE(passes(fp32({kInfF, -kInfF}), fp32({kInfF, -kInfF}), "exact"));
  // The largest float is 1 ULP below infinity by the bits, but infinities must match.
  const ArrayComparison result = compare(fp32({kInfF}), fp32({max}), "ulp:1");
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.maxUlp, kInfiniteUlp);
  EXPECT_TRUE(contains(result.note, "expected inf (0x7f800000), actual 3.4028235e+38"));
  EXPECT_FALSE(passes(fp32({max}), fp32({kInfF}), "relnorm:1e300"));
  EXPECT_FALSE(passes(fp32({kInfF}), fp32({-kInfF}), "ulp:2147483648"));
}

TEST(XcheckCompare, Fp32RelativeNorm) {
  // ||(0, 0.5)|| / ||(3, 4)|| = 0.1.
  const ArrayComparison result = compare(fp32({3, 4}), fp32({3, 4.5f}), "relnorm:0.11");
  EXPECT_TRUE(result.passed);
  EXPECT_DOUBLE_EQ(result.relativeNorm, 0.1);
  EXPECT_EQ(result.maxAbsError, 0.5);
  EXPECT_EQ(result.maxRelError, 0.125);
  EXPECT_EQ(result.maxUlp, 0x40900000u - 0x40800000u);
  const ArrayComparison tight = compare(fp32({3, 4}), fp32({3, 4.5f}), "relnorm:0.09");
  EXPECT_FALSE(tight.passed);
  EXPECT_TRUE(contains(tight.note, "> 0.09; the largest error at [1]: expected 4 (0x40800000), "
                                   "actual 4.5 (0x40900000)"))
      << tight.note;
  // Both zero: 0. Expected zero, actual not: infinite (and an infinite relative error).
  EXPECT_EQ(compare(fp32({0, 0}), fp32({0, 0}), "relnorm:1").relativeNorm, 0.0);
  const ArrayComparison fromZero = compare(fp32({0, 0}), fp32({0, 1e-30f}), "relnorm:1");
  EXPECT_FALSE(fromZero.passed);
  EXPECT_EQ(fromZero.relativeNorm, kInf);
  EXPECT_EQ(fromZero.maxRelError, kInf);
  // Squares of large values do not overflow, nor small ones underflow.
  const auto fp64 = [](const std::vector<double>& values) { return array(TCPU_TYPE_FP64, values); };
  EXPECT_DOUBLE_EQ(compare(fp64({3e200, 4e200}), fp64({3e200, 4.5e200}), "exact").relativeNorm,
                   0.1);
  EXPECT_DOUBLE_EQ(compare(array(TCPU_TYPE_FP64, std::vector<double>{3e-300, 4e-300}),
                           array(TCPU_TYPE_FP64, std::vector<double>{3e-300, 4.5e-300}), "exact")
                       .relativeNorm,
                   0.1);
}

TEST(XcheckCompare, Fp32AbsoluteError) {
  const ArrayComparison result = compare(fp32({3, 4, -1}), fp32({3, 4.5f, -1.25f}), "abs:0.5");
  EXPECT_TRUE(result.passed);
  EXPECT_EQ(result.maxAbsError, 0.5);
  const ArrayComparison tight = compare(fp32({3, 4, -1}), fp32({3, 4.5f, -1.25f}), "abs:0.4");
  EXPECT_FALSE(tight.passed);
  EXPECT_TRUE(contains(tight.note, "max absolute error 0.5 > 0.4 at [1]: expected 4 (0x40800000), "
                                   "actual 4.5 (0x40900000)"))
      << tight.note;
  // NaN where the other run has none fails whatever the bound.
  EXPECT_FALSE(
      compare(fp32({1, 2}), fp32({1, std::numeric_limits<float>::quiet_NaN()}), "abs:100").passed);
}

TEST(XcheckCompare, Fp16InItsOwnFormat) {
  // 1.0 = 0x3c00; 0x3c03 is 3 ULP (3 * 2^-10) above.
  const ArrayComparison result = compare(fp16({0x3c00, 0x3555}), fp16({0x3c03, 0x3556}), "ulp:2");
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.maxUlp, 3u);
  EXPECT_EQ(result.mismatches, 2u);
  EXPECT_EQ(result.maxAbsError, 3.0 / 1024);
  EXPECT_EQ(result.maxRelError, 3.0 / 1024);
  EXPECT_EQ(result.note, "max ULP 3 > 2 at [0]: expected 1 (0x3c00), actual 1.0029296875 (0x3c03)");
  EXPECT_TRUE(passes(fp16({0x3c00, 0x3555}), fp16({0x3c03, 0x3556}), "ulp:3"));
  // 0x3555 is 0.333251953125 exactly: converted exactly, one ULP there is 2^-12.
  EXPECT_EQ(compare(fp16({0x3555}), fp16({0x3556}), "exact").maxAbsError, std::ldexp(1.0, -12));
  EXPECT_EQ(compare(fp16({0x3555}), fp16({0x3556}), "exact").maxRelError,
            std::ldexp(1.0, -12) / 0.333251953125);
  // Signed zeros, subnormals across zero, NaN payloads, infinity against 65504.
  const ArrayComparison zeros = compare(fp16({0x0000}), fp16({0x8000}), "ulp:0");
  EXPECT_TRUE(zeros.passed);
  EXPECT_EQ(zeros.mismatches, 1u);
  EXPECT_FALSE(passes(fp16({0x0000}), fp16({0x8000}), "exact"));
  const ArrayComparison subnormals = compare(fp16({0x0001}), fp16({0x8001}), "ulp:2");
  EXPECT_TRUE(subnormals.passed);
  EXPECT_EQ(subnormals.maxUlp, 2u);
  EXPECT_EQ(subnormals.maxAbsError, std::ldexp(1.0, -23));
  EXPECT_TRUE(passes(fp16({0x7e00}), fp16({0xfe01}), "exact"));
  EXPECT_FALSE(passes(fp16({0x7e00}), fp16({0x3c00}), "relnorm:1"));
  EXPECT_TRUE(passes(fp16({0x7c00}), fp16({0x7c00}), "exact"));
  const ArrayComparison infinity = compare(fp16({0x7c00}), fp16({0x7bff}), "ulp:1");
  EXPECT_FALSE(infinity.passed);
  EXPECT_EQ(infinity.maxUlp, kInfiniteUlp);
  EXPECT_TRUE(contains(infinity.note, "expected inf (0x7c00), actual 65504 (0x7bff)"));
}

TEST(XcheckCompare, Bf16InItsOwnFormat) {
  // 1.0 = 0x3f80; one ULP is 2^-7. -1.0 = 0xbf80.
  const ArrayComparison result =
      compare(bf16({0x3f80, 0xbf80, 0x4000}), bf16({0x3f81, 0xbf82, 0x4000}), "ulp:1");
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.maxUlp, 2u);
  EXPECT_EQ(result.mismatches, 2u);
  EXPECT_EQ(result.maxAbsError, 2.0 / 128);
  EXPECT_EQ(result.maxRelError, 2.0 / 128);
  EXPECT_DOUBLE_EQ(result.relativeNorm, std::sqrt(5.0) / 128 / std::sqrt(6.0));
  EXPECT_EQ(result.note, "max ULP 2 > 1 at [1]: expected -1 (0xbf80), actual -1.015625 (0xbf82)");
  EXPECT_TRUE(passes(bf16({0x0000}), bf16({0x8000}), "ulp:0"));
  EXPECT_FALSE(passes(bf16({0x0000}), bf16({0x8000}), "exact"));
  EXPECT_TRUE(passes(bf16({0x7fc0}), bf16({0x7fc1}), "exact"));
  EXPECT_FALSE(passes(bf16({0x7f80}), bf16({0x7f7f}), "ulp:1"));
  EXPECT_FALSE(passes(bf16({0x7fc0}), bf16({0x3f80}), "ulp:1000"));
  // The same bits as u16 are integers: 0x3f81 - 0x3f80 = 1, and across the sign a large number.
  EXPECT_EQ(compare(array(TCPU_TYPE_U16, std::vector<uint16_t>{0x0000}),
                    array(TCPU_TYPE_U16, std::vector<uint16_t>{0x8000}), "exact")
                .maxUlp,
            0x8000u);
}

TEST(XcheckCompare, Int32AsIntegers) {
  const NpyArray expected = i32({1, -5, 100, 0});
  const NpyArray actual = i32({1, -3, 90, 0});
  const ArrayComparison result = compare(expected, actual, "ulp:9");
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.elements, 4u);
  EXPECT_EQ(result.mismatches, 2u);
  EXPECT_EQ(result.maxUlp, 10u);
  EXPECT_EQ(result.maxAbsError, 10.0);
  EXPECT_EQ(result.maxRelError, 0.4);
  EXPECT_DOUBLE_EQ(result.relativeNorm, std::sqrt(104.0) / std::sqrt(10026.0));
  EXPECT_EQ(result.note, "max difference 10 > 9 at [2]: expected 100, actual 90");
  EXPECT_TRUE(passes(expected, actual, "ulp:10"));
  EXPECT_FALSE(passes(expected, actual, "exact"));
  EXPECT_EQ(compare(expected, actual, "exact").note,
            "2 of 4 elements differ, the first at [1]: expected -5, actual -3");
  EXPECT_TRUE(passes(expected, actual, "relnorm:0.11"));
  EXPECT_FALSE(passes(expected, actual, "relnorm:0.1"));
  EXPECT_TRUE(passes(expected, expected, "exact"));
  // The extremes: no overflow in the difference.
  const int32_t min = std::numeric_limits<int32_t>::min(),
                max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(compare(i32({min}), i32({max}), "exact").maxUlp, 4294967295u);
  EXPECT_EQ(compare(i32({max}), i32({min}), "exact").maxUlp, 4294967295u);
  const int64_t min64 = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(compare(array(TCPU_TYPE_I64, std::vector<int64_t>{min64}),
                    array(TCPU_TYPE_I64, std::vector<int64_t>{-1}), "exact")
                .maxUlp,
            9223372036854775807u);
  EXPECT_EQ(compare(array(TCPU_TYPE_U64, std::vector<uint64_t>{0}),
                    array(TCPU_TYPE_U64, std::vector<uint64_t>{1u << 20}), "exact")
                .maxUlp,
            uint64_t{1} << 20);
  // Booleans.
  const ArrayComparison flags =
      compare(array(TCPU_TYPE_I1, std::vector<uint8_t>{0, 1, 1}),
              array(TCPU_TYPE_I1, std::vector<uint8_t>{0, 0, 1}), "exact");
  EXPECT_EQ(flags.mismatches, 1u);
  EXPECT_EQ(flags.maxUlp, 1u);
  EXPECT_FALSE(flags.passed);
}

TEST(XcheckCompare, NamesTheElementByItsCoordinates) {
  const NpyArray expected = fp32({0, 1, 2, 3, 4, 5}, {2, 3});
  const NpyArray actual = fp32({0, 1, 2, 3, 4.5f, 5}, {2, 3});
  EXPECT_TRUE(contains(compare(expected, actual, "exact").note,
                       "the first at [1, 1]: expected 4 (0x40800000), actual 4.5"));
  EXPECT_TRUE(contains(compare(fp32({1}, {}), fp32({2}, {}), "exact").note, "at [0]"));
  NpyArray scalarExpected{TCPU_TYPE_FP32, {}, fp32({1}).data};
  NpyArray scalarActual{TCPU_TYPE_FP32, {}, fp32({2}).data};
  const ArrayComparison scalar = compare(scalarExpected, scalarActual, "exact");
  EXPECT_EQ(scalar.elements, 1u);
  EXPECT_TRUE(contains(scalar.note, "the first at []: expected 1")) << scalar.note;
  // Empty arrays pass.
  const ArrayComparison empty =
      compare(NpyArray{TCPU_TYPE_FP32, {0}, {}}, NpyArray{TCPU_TYPE_FP32, {0}, {}}, "relnorm:1e-9");
  EXPECT_TRUE(empty.passed);
  EXPECT_EQ(empty.elements, 0u);
}

TEST(XcheckCompare, RefusesArraysThatDoNotMatch) {
  Expected<ArrayComparison> shapes =
      compareArrays(fp32({0, 1, 2, 3, 4, 5}, {2, 3}), fp32({0, 1, 2, 3, 4, 5}), rule("exact"));
  ASSERT_FALSE(shapes);
  EXPECT_EQ(shapes.status().code(), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(shapes.status().message(),
            "the arrays differ in shape: expected fp32 (2, 3), actual fp32 (6,)");
  Expected<ArrayComparison> types = compareArrays(fp32({0, 1}), fp16({0, 1}), rule("exact"));
  ASSERT_FALSE(types);
  EXPECT_EQ(types.status().code(), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(types.status().message(),
            "the arrays differ in type: expected fp32 (2,), actual fp16 (2,)");
  Expected<ArrayComparison> bf16AndU16 =
      compareArrays(bf16({1}), array(TCPU_TYPE_U16, std::vector<uint16_t>{1}), rule("exact"));
  ASSERT_FALSE(bf16AndU16);
  EXPECT_TRUE(contains(bf16AndU16.status().message(), "expected bf16 (1,), actual u16 (1,)"));
  NpyArray shortData = fp32({1, 2});
  shortData.data.resize(7);
  Expected<ArrayComparison> size = compareArrays(fp32({1, 2}), shortData, rule("exact"));
  ASSERT_FALSE(size);
  EXPECT_EQ(size.status().message(),
            "the actual array's data is 7 bytes but shape (2,) of fp32 needs 8");
  Expected<ArrayComparison> pointers =
      compareArrays(array(TCPU_TYPE_PTR, std::vector<uint64_t>{1}),
                    array(TCPU_TYPE_PTR, std::vector<uint64_t>{1}), rule("exact"));
  ASSERT_FALSE(pointers);
  EXPECT_EQ(pointers.status().code(), TCPU_ERROR_INVALID_VALUE);
}

// ---------------------------------------------------------------------------------------------
// compareRunDirectories

// Writes <run>/<case>/: the manifest and one .npy per input and output.
void writeCase(const std::filesystem::path& run, const XcheckManifest& manifest,
               const std::map<std::string, NpyArray>& arrays) {
  const std::filesystem::path directory = run / manifest.caseName;
  std::filesystem::create_directories(directory);
  writeFile(directory / "xcheck.txt", formatManifest(manifest));
  for (const auto& [name, values] : arrays) {
    Expected<std::string> file = formatNpy(values);
    ASSERT_TRUE(file) << file.status().message();
    writeFile(directory / (name + ".npy"), *file);
  }
}

XcheckManifest manifestOf(const std::string& caseName, const std::string& kernel,
                          const std::string& backend, const std::string& device,
                          std::vector<std::string> inputs,
                          std::vector<std::pair<std::string, ComparisonRule>> outputs) {
  return {caseName, kernel, backend, device, 1, std::move(inputs), std::move(outputs), {}};
}

// Two runs of two cases, "vector_add" (exact) and "softmax" (ulp:2), on cpu and cuda.
struct TwoRuns {
  TempDir dir;
  std::filesystem::path cpu = dir.path() / "cpu", cuda = dir.path() / "cuda";
  std::map<std::string, NpyArray> add = {
      {"x", fp32({1, 2, 3})}, {"y", fp32({10, 20, 30})}, {"out", fp32({11, 22, 33})}};
  std::map<std::string, NpyArray> softmax = {{"in", fp32({0, 1})},
                                             {"out", fp32({0.26894142f, 0.73105858f})}};

  void write(const std::filesystem::path& run, const std::string& backend,
             const std::string& device, const std::map<std::string, NpyArray>& addArrays,
             const std::map<std::string, NpyArray>& softmaxArrays) {
    writeCase(run,
              manifestOf("vector_add", "add_kernel", backend, device, {"x", "y"},
                         {{"out", rule("exact")}}),
              addArrays);
    writeCase(
        run,
        manifestOf("softmax", "softmax_kernel", backend, device, {"in"}, {{"out", rule("ulp:2")}}),
        softmaxArrays);
  }
  void writeBoth() {
    write(cuda, "cuda", "NVIDIA H100 80GB HBM3", add, softmax);
    write(cpu, "cpu", "x86-64 (avx512)", add, softmax);
  }
};

std::pair<bool, std::string> compareRuns(const std::filesystem::path& expected,
                                         const std::filesystem::path& actual) {
  std::ostringstream out;
  Expected<bool> passed = compareRunDirectories(expected, actual, out);
  EXPECT_TRUE(passed) << passed.status().message();
  return {passed ? *passed : false, out.str()};
}

Status compareRunsError(const std::filesystem::path& expected,
                        const std::filesystem::path& actual) {
  std::ostringstream out;
  Expected<bool> passed = compareRunDirectories(expected, actual, out);
  EXPECT_FALSE(passed) << out.str();
  return passed ? Status() : passed.status();
}

TEST(XcheckRuns, APassingPair) {
  TwoRuns runs;
  runs.writeBoth();
  const auto [passed, text] = compareRuns(runs.cuda, runs.cpu);
  EXPECT_TRUE(passed) << text;
  EXPECT_EQ(text, concat("expected: ", runs.cuda.string(),
                         " (backend cuda, device NVIDIA H100 80GB HBM3)\n"
                         "actual:   ",
                         runs.cpu.string(),
                         " (backend cpu, device x86-64 (avx512))\n"
                         "case        output  elements  max abs err  max rel err  max ULP  "
                         "rel norm  mismatches  rule   result\n"
                         "softmax     out            2            0            0        0  "
                         "       0           0  ulp:2  pass\n"
                         "vector_add  out            3            0            0        0  "
                         "       0           0  exact  pass\n"
                         "xcheck: all 2 outputs of 2 cases passed\n"));
  // One case directory against another.
  const auto [casePassed, caseText] = compareRuns(runs.cuda / "softmax", runs.cpu / "softmax");
  EXPECT_TRUE(casePassed) << caseText;
  EXPECT_TRUE(contains(caseText, "xcheck: all 1 outputs of 1 cases passed")) << caseText;
}

TEST(XcheckRuns, AnOutputBeyondItsRule) {
  TwoRuns runs;
  runs.write(runs.cuda, "cuda", "H100", runs.add, runs.softmax);
  std::map<std::string, NpyArray> softmax = runs.softmax;
  const float off = std::nextafter(std::nextafter(std::nextafter(0.73105858f, 1.0f), 1.0f), 1.0f);
  softmax["out"] = fp32({0.26894142f, off});
  runs.write(runs.cpu, "cpu", "x86", runs.add, softmax);
  const auto [passed, text] = compareRuns(runs.cuda, runs.cpu);
  EXPECT_FALSE(passed);
  EXPECT_TRUE(
      contains(text, "softmax     out            2     1.79e-07     2.45e-07        3  "
                     " 2.3e-07           1  ulp:2  FAIL: max ULP 3 > 2 at [1]: expected 0.7310586 "
                     "(0x3f3b26a8), actual 0.7310588 (0x3f3b26ab)\n"))
      << text;
  EXPECT_TRUE(contains(text, "vector_add  out            3            0            0        0  "
                             "       0           0  exact  pass\n"))
      << text;
  EXPECT_TRUE(contains(text, "xcheck: FAILED: 1 of 2 outputs passed\n")) << text;

  // The same output judged the other way round: the rule is the expected run's.
  TwoRuns loose;
  std::map<std::string, NpyArray> add = loose.add;
  add["out"] = fp32({11, 22, 33.000004f});
  loose.write(loose.cuda, "cuda", "H100", loose.add, loose.softmax);
  loose.write(loose.cpu, "cpu", "x86", add, loose.softmax);
  const auto [addPassed, addText] = compareRuns(loose.cuda, loose.cpu);
  EXPECT_FALSE(addPassed);
  EXPECT_TRUE(contains(addText, "exact  FAIL: 1 of 3 elements differ, the first at [2]"))
      << addText;
}

TEST(XcheckRuns, Bf16ArraysAreJudgedAsBf16) {
  // .npy has no bf16: the files hold the bits as <u2, and the manifest says which are bf16.
  TempDir dir;
  const auto u16 = [](std::vector<uint16_t> bits) { return array(TCPU_TYPE_U16, bits); };
  const auto writeRun = [&](const std::string& run, std::vector<uint16_t> out, bool marked) {
    XcheckManifest manifest =
        manifestOf("gelu", "gelu_bf16", run, "", {"x"}, {{"out", rule("relnorm:1e-3")}});
    if (marked) manifest.bf16Arrays = {"out", "x"};
    writeCase(dir.path() / run, manifest, {{"x", u16({0x3f80, 0x4000})}, {"out", u16(out)}});
  };
  // As bf16, 1.0 against 1.0078125 is a relative norm of 2^-7 / sqrt(5), beyond 1e-3; as
  // integers 0x3f80 against 0x3f81 would be 4e-5, within it.
  writeRun("cuda", {0x3f80, 0x4000}, true);
  writeRun("cpu", {0x3f81, 0x4000}, true);
  const auto [passed, text] = compareRuns(dir.path() / "cuda", dir.path() / "cpu");
  EXPECT_FALSE(passed) << text;
  EXPECT_TRUE(contains(text, "FAIL: relative norm 0.00349")) << text;
  EXPECT_TRUE(contains(text, "expected 1 (0x3f80), actual 1.0078125 (0x3f81)")) << text;

  writeRun("cpu", {0x3f80, 0x4000}, false);
  const auto [unmarkedPassed, unmarked] = compareRuns(dir.path() / "cuda", dir.path() / "cpu");
  EXPECT_FALSE(unmarkedPassed);
  EXPECT_TRUE(
      contains(unmarked, "FAIL: the manifests give different arrays as bf16: [out, x] and []"))
      << unmarked;
}

TEST(XcheckRuns, DifferingInputsAreNotComparable) {
  TwoRuns runs;
  runs.write(runs.cuda, "cuda", "H100", runs.add, runs.softmax);
  std::map<std::string, NpyArray> add = runs.add;
  add["y"] = fp32({10, 20, 31});
  XcheckManifest manifest =
      manifestOf("vector_add", "add_kernel", "cpu", "x86", {"x", "y"}, {{"out", rule("exact")}});
  manifest.seed = 2;
  writeCase(runs.cpu, manifest, add);
  writeCase(runs.cpu,
            manifestOf("softmax", "softmax_kernel", "cpu", "x86", {"in"}, {{"out", rule("ulp:2")}}),
            runs.softmax);
  const auto [passed, text] = compareRuns(runs.cuda, runs.cpu);
  EXPECT_FALSE(passed);
  EXPECT_TRUE(contains(text, "vector_add  -  ")) << text;
  EXPECT_TRUE(contains(text, "FAIL: inputs differ: the runs are not comparable (different seeds "
                             "or generators?): 'y': 1 of 3 elements differ; seeds 1 and 2\n"))
      << text;
  EXPECT_TRUE(contains(text, "softmax     out  ")) << text;
  EXPECT_TRUE(
      contains(text, "xcheck: FAILED: 1 of 1 outputs passed; 1 of 2 cases could not be compared\n"))
      << text;
}

TEST(XcheckRuns, AMissingCaseAndManifestsThatDisagree) {
  TwoRuns runs;
  runs.write(runs.cuda, "cuda", "H100", runs.add, runs.softmax);
  writeCase(runs.cpu,
            manifestOf("softmax", "softmax_kernel", "cpu", "x86", {"in"}, {{"out", rule("ulp:2")}}),
            runs.softmax);
  const auto [passed, text] = compareRuns(runs.cuda, runs.cpu);
  EXPECT_FALSE(passed);
  // The line says why in the result column.
  const std::string why = concat("FAIL: the case is missing from '", runs.cpu.string(), "'\n");
  const std::size_t line = text.find("\nvector_add  -  ");
  ASSERT_NE(line, std::string::npos) << text;
  EXPECT_EQ(text.find(why), line + 1 + text.find("result") - text.find("\ncase") - 1) << text;
  EXPECT_TRUE(contains(text, "softmax     out ")) << text;

  // Another kernel, other outputs, other inputs.
  const std::pair<XcheckManifest, std::string> mismatches[] = {
      {manifestOf("vector_add", "add_kernel_v2", "cpu", "x86", {"x", "y"},
                  {{"out", rule("exact")}}),
       "FAIL: the runs ran different kernels: 'add_kernel' and 'add_kernel_v2'"},
      {manifestOf("vector_add", "add_kernel", "cpu", "x86", {"x", "y"},
                  {{"out", rule("exact")}, {"x2", rule("exact")}}),
       "FAIL: the manifests list different outputs: [out] and [out, x2]"},
      {manifestOf("vector_add", "add_kernel", "cpu", "x86", {"y", "x"}, {{"out", rule("exact")}}),
       "FAIL: the manifests list different inputs: [x, y] and [y, x]"},
  };
  for (const auto& [manifest, message] : mismatches) {
    writeCase(runs.cpu, manifest, runs.add);
    EXPECT_TRUE(contains(compareRuns(runs.cuda, runs.cpu).second, message)) << message;
  }
  // An output of another shape fails its line, not the comparison.
  std::map<std::string, NpyArray> add = runs.add;
  add["out"] = fp32({11, 22, 33}, {3, 1});
  writeCase(
      runs.cpu,
      manifestOf("vector_add", "add_kernel", "cpu", "x86", {"x", "y"}, {{"out", rule("exact")}}),
      add);
  const auto [shapePassed, shapeText] = compareRuns(runs.cuda, runs.cpu);
  EXPECT_FALSE(shapePassed);
  EXPECT_TRUE(contains(shapeText, "exact  FAIL: the arrays differ in shape: expected fp32 (3,), "
                                  "actual fp32 (3, 1)\n"))
      << shapeText;
}

TEST(XcheckRuns, ErrorsForWhatCannotBeRead) {
  TwoRuns runs;
  std::filesystem::create_directories(runs.cuda / "not-a-case");
  std::filesystem::create_directories(runs.cpu);
  const Status none = compareRunsError(runs.cuda, runs.cpu);
  EXPECT_EQ(none.code(), TCPU_ERROR_INVALID_VALUE);
  EXPECT_EQ(none.message(), concat("no xcheck cases under '", runs.cuda.string(),
                                   "' (no subdirectory holds xcheck.txt)"));

  runs.writeBoth();
  const Status missingDirectory = compareRunsError(runs.cuda, runs.dir.path() / "nowhere");
  EXPECT_EQ(missingDirectory.code(), TCPU_ERROR_FILE_NOT_FOUND);
  EXPECT_EQ(missingDirectory.message(),
            concat("'", (runs.dir.path() / "nowhere").string(), "' does not exist"));
  writeFile(runs.dir.path() / "file", "x");
  EXPECT_EQ(compareRunsError(runs.dir.path() / "file", runs.cpu).code(), TCPU_ERROR_INVALID_VALUE);
  // A case directory against a run directory.
  const Status notACase = compareRunsError(runs.cuda / "softmax", runs.cpu);
  EXPECT_EQ(notACase.code(), TCPU_ERROR_FILE_NOT_FOUND);
  EXPECT_TRUE(contains(notACase.message(), "is a case directory")) << notACase.message();

  // A malformed .npy file, a missing one, a malformed manifest.
  writeFile(runs.cpu / "softmax" / "out.npy", "not npy");
  const Status malformed = compareRunsError(runs.cuda, runs.cpu);
  EXPECT_EQ(malformed.code(), TCPU_ERROR_INVALID_IMAGE);
  EXPECT_TRUE(contains(malformed.message(), (runs.cpu / "softmax" / "out.npy").string() + ": npy:"))
      << malformed.message();
  std::filesystem::remove(runs.cpu / "softmax" / "out.npy");
  const Status missingFile = compareRunsError(runs.cuda, runs.cpu);
  EXPECT_EQ(missingFile.code(), TCPU_ERROR_FILE_NOT_FOUND);
  EXPECT_TRUE(contains(missingFile.message(), "out.npy' does not exist")) << missingFile.message();
  writeFile(runs.cpu / "softmax" / "xcheck.txt", "tcpu-xcheck 1\ncase softmax\nbogus\n");
  const Status badManifest = compareRunsError(runs.cuda, runs.cpu);
  EXPECT_EQ(badManifest.code(), TCPU_ERROR_INVALID_VALUE);
  EXPECT_TRUE(contains(badManifest.message(), "xcheck.txt:3: unknown key 'bogus'"))
      << badManifest.message();
}

} // namespace
} // namespace tcpu::cli
