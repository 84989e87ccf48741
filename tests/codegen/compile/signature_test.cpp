// Triton AOT signature parsing: every valid form, every rejection with its exact column, and a
// mutation sweep showing that no input makes the parser crash or answer outside its contract.
#include "ir/signature.hpp"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tcpu::codegen {
namespace {

using Kind = SignatureEntry::Kind;

Signature parseOk(std::string_view text) {
  Expected<Signature> parsed = parseSignature(text);
  EXPECT_TRUE(parsed.ok()) << "'" << text << "': " << parsed.status().message();
  return parsed.ok() ? parsed.take() : Signature{};
}

SignatureEntry parseOne(std::string_view text) {
  Signature signature = parseOk(text);
  EXPECT_EQ(signature.entries.size(), 1u) << text;
  return signature.entries.empty() ? SignatureEntry{} : signature.entries.front();
}

// Expects `text` to be rejected at `column`, with a message containing `needle` and, when
// `entry` is given, ending with " in '<entry>'".
void expectError(std::string_view text, size_t column, std::string_view needle,
                 std::string_view entry = {}) {
  SCOPED_TRACE(testing::Message() << "signature '" << text << "'");
  Expected<Signature> parsed = parseSignature(text);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), TCPU_ERROR_INVALID_VALUE);
  const std::string& message = parsed.status().message();
  const std::string prefix = "signature column " + std::to_string(column) + ": ";
  EXPECT_EQ(message.substr(0, prefix.size()), prefix) << message;
  EXPECT_NE(message.find(needle), std::string::npos) << message;
  if (!entry.empty()) {
    const std::string suffix = " in '" + std::string(entry) + "'";
    EXPECT_TRUE(message.size() >= suffix.size() &&
                message.compare(message.size() - suffix.size(), suffix.size(), suffix) == 0)
        << message;
  }
}

// The column a rejection names, or 0 when the message does not start as promised.
size_t columnOf(const std::string& message) {
  constexpr std::string_view kPrefix = "signature column ";
  if (message.compare(0, kPrefix.size(), kPrefix) != 0) return 0;
  size_t column = 0;
  const char* first = message.data() + kPrefix.size();
  const char* last = message.data() + message.size();
  const std::from_chars_result result = std::from_chars(first, last, column);
  if (result.ec != std::errc() || result.ptr == last || *result.ptr != ':') return 0;
  return column;
}

struct TypeCase {
  const char* name;
  tcpuDataType type;
  bool isFloat;
};

constexpr TypeCase kAllScalars[] = {
    {"i1", TCPU_TYPE_I1, false},    {"i8", TCPU_TYPE_I8, false},    {"i16", TCPU_TYPE_I16, false},
    {"i32", TCPU_TYPE_I32, false},  {"i64", TCPU_TYPE_I64, false},  {"u8", TCPU_TYPE_U8, false},
    {"u16", TCPU_TYPE_U16, false},  {"u32", TCPU_TYPE_U32, false},  {"u64", TCPU_TYPE_U64, false},
    {"fp16", TCPU_TYPE_FP16, true}, {"bf16", TCPU_TYPE_BF16, true}, {"fp32", TCPU_TYPE_FP32, true},
    {"fp64", TCPU_TYPE_FP64, true},
};

// ---------------------------------------------------------------------------------------------
// Valid forms

TEST(Signature, ParsesTheCompileDocExample) {
  const Signature signature = parseOk("*fp32:16, *fp32:16, *fp32:16, i32, 1024");
  ASSERT_EQ(signature.entries.size(), 5u);
  const size_t columns[] = {1, 11, 21, 31, 36};
  for (size_t i = 0; i < 3; ++i) {
    const SignatureEntry& entry = signature.entries[i];
    EXPECT_EQ(entry.kind, Kind::Pointer);
    EXPECT_EQ(entry.type, TCPU_TYPE_FP32);
    EXPECT_FALSE(entry.isConst);
    EXPECT_EQ(entry.hint, 16);
    EXPECT_EQ(entry.text, "*fp32:16");
    EXPECT_EQ(entry.column, columns[i]);
  }
  EXPECT_EQ(signature.entries[3].kind, Kind::Scalar);
  EXPECT_EQ(signature.entries[3].type, TCPU_TYPE_I32);
  EXPECT_EQ(signature.entries[3].hint, 0);
  EXPECT_EQ(signature.entries[3].text, "i32");
  EXPECT_EQ(signature.entries[3].column, columns[3]);
  EXPECT_EQ(signature.entries[4].kind, Kind::Constexpr);
  EXPECT_EQ(signature.entries[4].type, TCPU_TYPE_I64);
  EXPECT_EQ(signature.entries[4].intValue, 1024);
  EXPECT_EQ(signature.entries[4].text, "1024");
  EXPECT_EQ(signature.entries[4].column, columns[4]);
  // compile.py writes every index; only hinted ones get a letter.
  EXPECT_EQ(signature.suffix(), "0d1d2d34");
}

TEST(Signature, SuffixFollowsTriton) {
  EXPECT_EQ(parseOk("*fp32:16, i32:1, i32:16").suffix(), "0d1c2d");
  EXPECT_EQ(parseOk("i32").suffix(), "0");
  EXPECT_EQ(parseOk("*fp16, *fp16, i64:1, 3, True, u32:16").suffix(), "012c345d");
  // Indices past 9 take two digits, as str(i) does.
  EXPECT_EQ(parseOk("i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32:16, i32:1").suffix(),
            "012345678910d11c");
}

TEST(Signature, ParsesEveryScalarAndPointerType) {
  for (const TypeCase& scalar : kAllScalars) {
    SCOPED_TRACE(scalar.name);
    const std::string name = scalar.name;

    const SignatureEntry value = parseOne(name);
    EXPECT_EQ(value.kind, Kind::Scalar);
    EXPECT_EQ(value.type, scalar.type);
    EXPECT_EQ(describe(value), name);
    EXPECT_EQ(typeName(scalar.type), name);

    const SignatureEntry pointer = parseOne("*" + name);
    EXPECT_EQ(pointer.kind, Kind::Pointer);
    EXPECT_EQ(pointer.type, scalar.type);
    EXPECT_FALSE(pointer.isConst);
    EXPECT_EQ(describe(pointer), "*" + name);

    const SignatureEntry constPointer = parseOne("*k" + name + ":16");
    EXPECT_EQ(constPointer.kind, Kind::Pointer);
    EXPECT_EQ(constPointer.type, scalar.type);
    EXPECT_TRUE(constPointer.isConst);
    EXPECT_EQ(constPointer.hint, 16);
    EXPECT_EQ(describe(constPointer), "*k" + name);

    EXPECT_EQ(parseOne("*" + name + ":16").hint, 16);
    if (!scalar.isFloat) {
      EXPECT_EQ(parseOne(name + ":16").hint, 16);
      EXPECT_EQ(parseOne(name + ":1").hint, 1);
    }
  }
  EXPECT_EQ(typeName(TCPU_TYPE_UNKNOWN), "unknown");
  EXPECT_EQ(typeName(TCPU_TYPE_PTR), "unknown");
}

TEST(Signature, ParsesConstPointers) {
  const Signature signature = parseOk("*kfp16, *kbf16:16, *ki8, *fp32");
  ASSERT_EQ(signature.entries.size(), 4u);
  EXPECT_TRUE(signature.entries[0].isConst);
  EXPECT_EQ(signature.entries[0].type, TCPU_TYPE_FP16);
  EXPECT_TRUE(signature.entries[1].isConst);
  EXPECT_EQ(signature.entries[1].type, TCPU_TYPE_BF16);
  EXPECT_EQ(signature.entries[1].hint, 16);
  EXPECT_TRUE(signature.entries[2].isConst);
  EXPECT_EQ(signature.entries[2].type, TCPU_TYPE_I8);
  EXPECT_FALSE(signature.entries[3].isConst);
  EXPECT_EQ(describe(signature.entries[1]), "*kbf16");
}

TEST(Signature, ParsesIntegerConstexprs) {
  struct Case {
    const char* text;
    int64_t value;
  };
  const Case cases[] = {
      {"0", 0},
      {"-0", 0},
      {"7", 7},
      {"+7", 7},
      {"-1", -1},
      {"007", 7},
      {"1024", 1024},
      {"0x10", 16},
      {"0X1f", 31},
      {"0xABCdef", 0xabcdef},
      {"-0x10", -16},
      {"+0x10", 16},
      {"9223372036854775807", std::numeric_limits<int64_t>::max()},
      {"-9223372036854775808", std::numeric_limits<int64_t>::min()},
      {"0x7fffffffffffffff", std::numeric_limits<int64_t>::max()},
      {"-0x8000000000000000", std::numeric_limits<int64_t>::min()},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const SignatureEntry entry = parseOne(c.text);
    EXPECT_EQ(entry.kind, Kind::Constexpr);
    EXPECT_EQ(entry.type, TCPU_TYPE_I64);
    EXPECT_EQ(entry.intValue, c.value);
    EXPECT_EQ(entry.hint, 0);
    EXPECT_EQ(entry.text, c.text);
    EXPECT_EQ(describe(entry), std::string("constexpr ") + c.text);
  }
}

TEST(Signature, ParsesFloatConstexprs) {
  struct Case {
    const char* text;
    double value;
  };
  const Case cases[] = {
      {"1.5", 1.5},     {"1e-3", 1e-3},   {"-2.0e+5", -2.0e+5}, {"1E3", 1000.0}, {".5", 0.5},
      {"5.", 5.0},      {"+0.25", 0.25},  {"-0.0", -0.0},       {"3e0", 3.0},    {"1.e2", 100.0},
      {"2.5E-1", 0.25}, {"1e308", 1e308}, {"0.1", 0.1},         {"-.75", -0.75},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const SignatureEntry entry = parseOne(c.text);
    EXPECT_EQ(entry.kind, Kind::Constexpr);
    EXPECT_EQ(entry.type, TCPU_TYPE_FP64);
    EXPECT_EQ(entry.floatValue, c.value);
    EXPECT_EQ(entry.intValue, 0);
  }
  EXPECT_TRUE(std::signbit(parseOne("-0.0").floatValue));
}

TEST(Signature, ParsesBooleanConstexprs) {
  const Signature signature = parseOk("True, False");
  ASSERT_EQ(signature.entries.size(), 2u);
  EXPECT_EQ(signature.entries[0].kind, Kind::Constexpr);
  EXPECT_EQ(signature.entries[0].type, TCPU_TYPE_I1);
  EXPECT_EQ(signature.entries[0].intValue, 1);
  EXPECT_EQ(signature.entries[1].type, TCPU_TYPE_I1);
  EXPECT_EQ(signature.entries[1].intValue, 0);
  EXPECT_EQ(describe(signature.entries[0]), "constexpr True");
}

TEST(Signature, AcceptsBlanksAroundEntriesAndColons) {
  const Signature signature = parseOk("  i32  ,\t*fp32 : 16 ,1024  ,u8:\t1,*ki64 :16");
  ASSERT_EQ(signature.entries.size(), 5u);
  EXPECT_EQ(signature.entries[0].text, "i32");
  EXPECT_EQ(signature.entries[0].column, 3u);
  EXPECT_EQ(signature.entries[1].text, "*fp32 : 16");
  EXPECT_EQ(signature.entries[1].column, 10u);
  EXPECT_EQ(signature.entries[1].hint, 16);
  EXPECT_EQ(signature.entries[2].text, "1024");
  EXPECT_EQ(signature.entries[2].column, 22u);
  EXPECT_EQ(signature.entries[3].text, "u8:\t1");
  EXPECT_EQ(signature.entries[3].hint, 1);
  EXPECT_EQ(signature.entries[4].text, "*ki64 :16");
  EXPECT_TRUE(signature.entries[4].isConst);
  EXPECT_EQ(signature.suffix(), "01d23c4d");

  // No blanks at all reads the same.
  EXPECT_EQ(parseOk("*fp32:16,i32:1,i32:16").suffix(), "0d1c2d");
  EXPECT_EQ(parseOne("i32: 16").hint, 16);
  EXPECT_EQ(parseOne("i32 :16").hint, 16);
  EXPECT_EQ(parseOne(" \t-5\t ").intValue, -5);
}

TEST(Signature, DescribesHandBuiltConstexprsFromTheirValue) {
  SignatureEntry entry;
  entry.kind = Kind::Constexpr;
  entry.type = TCPU_TYPE_I64;
  entry.intValue = -12;
  EXPECT_EQ(describe(entry), "constexpr -12");
  entry.type = TCPU_TYPE_FP64;
  entry.floatValue = 0.125;
  EXPECT_EQ(describe(entry), "constexpr 0.125");
  entry.type = TCPU_TYPE_I1;
  entry.intValue = 0;
  EXPECT_EQ(describe(entry), "constexpr False");
}

// ---------------------------------------------------------------------------------------------
// Rejections, each at its column

TEST(SignatureErrors, EmptySignatureAndEmptyEntries) {
  expectError("", 1, "empty signature");
  expectError("   ", 4, "empty signature");
  expectError("i32,,i64", 5, "empty entry 2 before ','");
  expectError(", i32", 1, "empty entry 1 before ','");
  expectError("i32, ,i64", 6, "empty entry 2 before ','");
  expectError("i32,", 5, "empty entry 2 after the last ','");
  expectError("i32, *fp32,  ", 14, "empty entry 3 after the last ','");
}

TEST(SignatureErrors, UnknownTypes) {
  expectError("f32", 1, "unknown type 'f32'", "f32");
  expectError("i32, *float", 7, "unknown pointer element type 'float'", "*float");
  expectError("i32, *kfloat", 7, "unknown pointer element type 'kfloat'");
  expectError("int", 1, "unknown type 'int'");
  expectError("I32", 1, "unknown type 'I32'");
  expectError("true", 1, "unknown type 'true'");
  expectError("i32x", 1, "unknown type 'i32x'");
  expectError("**fp32", 2, "unknown pointer element type '*fp32'");
  expectError("*", 2, "missing pointer element type after '*'");
  expectError("*k", 3, "missing pointer element type after '*k'");
  expectError("*:16", 2, "missing pointer element type after '*'");
  expectError("* fp32", 2, "missing pointer element type after '*'");
  expectError("u1", 1, "type 'u1' is not supported");
  expectError("i8, *u1", 6, "element type 'u1' is not supported");
  expectError("*ku1", 2, "element type 'u1' is not supported");
  expectError(":16", 1, "missing type before ':'");
  expectError("i32, :1", 6, "missing type before ':'");
}

TEST(SignatureErrors, BadHints) {
  expectError("i32:8", 5, "bad hint '8'", "i32:8");
  expectError("i32:32", 5, "bad hint '32'");
  expectError("i32:0", 5, "bad hint '0'");
  expectError("i32:99999999999999999999999", 5, "bad hint");
  expectError("i32:", 5, "missing hint after ':'");
  expectError("i32 :  , i64", 6, "missing hint after ':'");
  expectError("i32:abc", 5, "bad hint: expected 16 or 1, found 'a'");
  expectError("i32: abc", 6, "found 'a'");
  expectError("i32:-16", 5, "found '-'");
  expectError("*fp32:1", 7, "hint ':1' does not apply to a pointer");
  expectError("i32, *kfp16 : 1", 15, "hint ':1' does not apply to a pointer");
  expectError("fp32:16", 6, "hint ':16' does not apply to fp32");
  expectError("fp16:1", 6, "hint ':1' does not apply to fp16");
  expectError("bf16:16", 6, "hint ':16' does not apply to bf16");
  expectError("i32, fp64 : 1", 13, "hint ':1' does not apply to fp64", "fp64 : 1");
}

TEST(SignatureErrors, JunkAfterTypeOrHint) {
  expectError("i32:16 x", 8, "unexpected 'x' after the hint", "i32:16 x");
  expectError("i32:16:16", 7, "unexpected ':' after the hint");
  expectError("i32:16x", 7, "unexpected 'x' after the hint");
  expectError("i32:1 1", 7, "unexpected '1' after the hint");
  expectError("i32 x", 5, "unexpected 'x' after the type");
  expectError("*fp32 *fp32", 7, "unexpected '*' after the type");
  expectError("i32;i64", 1, "unknown type 'i32;i64'");
  expectError("1024 2048", 6, "unexpected '2' after the value");
}

TEST(SignatureErrors, IntegerConstexprsOutOfRange) {
  expectError("9223372036854775808", 1, "out of the range of i64");
  expectError("-9223372036854775809", 1, "out of the range of i64");
  expectError("i32, 0x8000000000000000", 6, "out of the range of i64");
  expectError("i32, 0x10000000000000000", 6, "out of the range of i64", "0x10000000000000000");
  expectError("  99999999999999999999999", 3, "out of the range of i64");
  expectError("1e999", 1, "out of the range of fp64");
}

TEST(SignatureErrors, HintsOnConstexprs) {
  expectError("1024:16", 5, "a constexpr value takes no hint");
  expectError("i32, 1.5 : 16", 10, "a constexpr value takes no hint", "1.5 : 16");
  expectError("True:1", 5, "a constexpr value takes no hint");
  expectError("-0x10:16", 6, "a constexpr value takes no hint");
}

TEST(SignatureErrors, MalformedNumbers) {
  expectError("12a", 3, "unexpected 'a' in a number", "12a");
  expectError("1.2.3", 4, "unexpected '.' in a number");
  expectError("0x", 3, "expected a hex digit after '0x', found the end of the entry");
  expectError("0xg", 3, "expected a hex digit after '0x', found 'g'");
  expectError("0x1g", 4, "unexpected 'g' in a hex number");
  expectError("1e", 3, "expected an exponent digit");
  expectError("1e+", 4, "expected an exponent digit");
  expectError("-", 2, "expected a digit, found the end of the entry");
  expectError("+-1", 2, "expected a digit, found '-'");
  expectError(".", 2, "expected a digit");
  expectError("-i32", 2, "expected a digit, found 'i'");
  expectError("1_000", 2, "unexpected '_' in a number");
}

TEST(SignatureErrors, QuoteOddBytesReadably) {
  const std::string withNul("i3\0, i32", 8);
  expectError(withNul, 1, "unknown type 'i3\\x00'", "i3\\x00");
  expectError("i32, fp32\xff", 6, "unknown type 'fp32\\xff'");
  expectError("i32\n", 1, "unknown type 'i32\\x0a'");
}

TEST(SignatureErrors, ReportTheFirstBadEntry) {
  expectError("*fp32:16, f32, i32:8", 11, "unknown type 'f32'");
}

// ---------------------------------------------------------------------------------------------
// Robustness

// Checks the parser's contract on one input: a value whose entries re-parse to the same, or
// INVALID_VALUE naming a column inside the text (or one past its end).
void checkContract(const std::string& text) {
  Expected<Signature> parsed = parseSignature(text);
  if (!parsed.ok()) {
    ASSERT_EQ(parsed.status().code(), TCPU_ERROR_INVALID_VALUE) << text;
    const size_t column = columnOf(parsed.status().message());
    ASSERT_GE(column, 1u) << parsed.status().message();
    ASSERT_LE(column, text.size() + 1) << parsed.status().message();
    return;
  }
  const Signature& signature = *parsed;
  ASSERT_FALSE(signature.entries.empty()) << text;
  std::string rejoined;
  for (const SignatureEntry& entry : signature.entries) {
    ASSERT_FALSE(entry.text.empty()) << text;
    ASSERT_GE(entry.column, 1u);
    ASSERT_EQ(text.compare(entry.column - 1, entry.text.size(), entry.text), 0) << text;
    ASSERT_FALSE(describe(entry).empty());
    rejoined += (rejoined.empty() ? "" : ", ") + entry.text;
  }
  Expected<Signature> again = parseSignature(rejoined);
  ASSERT_TRUE(again.ok()) << rejoined;
  ASSERT_EQ(again->suffix(), signature.suffix()) << text;
  ASSERT_EQ(again->entries.size(), signature.entries.size()) << text;
}

TEST(SignatureRobustness, MutatedSeedsNeverCrash) {
  const std::string seeds[] = {
      "*fp32:16, *fp32:16, *fp32:16, i32, 1024",
      "*kbf16:16, i64:1, -0x1f, 1.5e-3, True, u8",
      "  u64 : 16 ,\t*ki8 ,  -2.0e+5, False",
  };
  std::vector<char> bytes;
  for (int c = 0x20; c < 0x7f; ++c)
    bytes.push_back(static_cast<char>(c));
  for (char c : {'\0', '\t', '\n', '\x7f', '\x80', '\xff'})
    bytes.push_back(c);

  size_t inputs = 0;
  for (const std::string& seed : seeds) {
    for (size_t length = 0; length <= seed.size(); ++length) {
      ASSERT_NO_FATAL_FAILURE(checkContract(seed.substr(0, length)));
      ++inputs;
    }
    for (size_t at = 0; at < seed.size(); ++at) {
      std::string erased = seed;
      erased.erase(at, 1);
      ASSERT_NO_FATAL_FAILURE(checkContract(erased));
      ++inputs;
      for (char byte : bytes) {
        std::string mutated = seed;
        mutated[at] = byte;
        ASSERT_NO_FATAL_FAILURE(checkContract(mutated));
        ++inputs;
      }
    }
  }
  EXPECT_GT(inputs, 10000u);
}

} // namespace
} // namespace tcpu::codegen
