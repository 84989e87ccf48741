#include "ir/signature.hpp"
#include "tcpu/float_chars.hpp"

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace tcpu::codegen {
namespace {

struct ScalarName {
  std::string_view name;
  tcpuDataType type;
};

// Triton's scalar names, in the order messages list them.
constexpr ScalarName kScalars[] = {
    {"i1", TCPU_TYPE_I1},     {"i8", TCPU_TYPE_I8},     {"i16", TCPU_TYPE_I16},
    {"i32", TCPU_TYPE_I32},   {"i64", TCPU_TYPE_I64},   {"u8", TCPU_TYPE_U8},
    {"u16", TCPU_TYPE_U16},   {"u32", TCPU_TYPE_U32},   {"u64", TCPU_TYPE_U64},
    {"fp16", TCPU_TYPE_FP16}, {"bf16", TCPU_TYPE_BF16}, {"fp32", TCPU_TYPE_FP32},
    {"fp64", TCPU_TYPE_FP64},
};

constexpr std::string_view kScalarList =
    "i1, i8, i16, i32, i64, u8, u16, u32, u64, fp16, bf16, fp32, fp64";

constexpr uint64_t kInt64Max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());

bool isBlank(char c) {
  return c == ' ' || c == '\t';
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isHexDigit(char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool isFloatType(tcpuDataType type) {
  return type == TCPU_TYPE_FP16 || type == TCPU_TYPE_BF16 || type == TCPU_TYPE_FP32 ||
         type == TCPU_TYPE_FP64;
}

std::optional<tcpuDataType> lookupScalar(std::string_view name) {
  for (const ScalarName& scalar : kScalars)
    if (scalar.name == name) return scalar.type;
  return std::nullopt;
}

// Quotes bytes for a message: printable ASCII as is, anything else as \xNN, so that a NUL or a
// stray byte in a bad signature neither cuts the message short nor garbles a terminal.
std::string printable(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
  return out;
}

// What a character is called in a message; the end of an entry has no character to quote.
std::string found(std::string_view text, size_t pos, size_t end) {
  if (pos >= end) return "the end of the entry";
  return concat("'", printable(text.substr(pos, 1)), "'");
}

// Parses one entry: text[begin, end) with blanks already trimmed from both ends and no ','.
// Positions stay absolute so that every error names its column in the whole signature.
class EntryParser {
public:
  EntryParser(std::string_view text, size_t begin, size_t end)
      : text_(text), begin_(begin), end_(end) {
    entry_.text = std::string(text.substr(begin, end - begin));
    entry_.column = begin + 1;
  }

  Expected<SignatureEntry> parse() {
    // The leading token stops at a blank or ':' so that "i32 : 16" and "1024:16" split the
    // same way as "i32:16"; whatever follows is checked as a hint or as junk.
    size_t tokenEnd = begin_;
    while (tokenEnd < end_ && !isBlank(text_[tokenEnd]) && text_[tokenEnd] != ':')
      ++tokenEnd;
    const std::string_view token = text_.substr(begin_, tokenEnd - begin_);

    Status status;
    if (token.empty()) {
      status = fail(begin_, "missing type before ':'");
    } else if (token == "True" || token == "False") {
      entry_.kind = SignatureEntry::Kind::Constexpr;
      entry_.type = TCPU_TYPE_I1;
      entry_.intValue = token == "True" ? 1 : 0;
    } else if (isDigit(token[0]) || token[0] == '+' || token[0] == '-' || token[0] == '.') {
      status = parseNumber(tokenEnd);
    } else {
      status = parseType(token);
    }
    if (!status.ok()) return status;

    size_t pos = skipBlanks(tokenEnd);
    if (pos < end_ && text_[pos] == ':') {
      if (entry_.kind == SignatureEntry::Kind::Constexpr)
        return fail(pos, "a constexpr value takes no hint (hints apply to typed arguments)");
      Expected<size_t> afterHint = parseHint(skipBlanks(pos + 1));
      if (!afterHint) return afterHint.status();
      pos = skipBlanks(*afterHint);
      if (pos < end_)
        return fail(pos, concat("unexpected ", found(text_, pos, end_), " after the hint"));
    } else if (pos < end_) {
      const char* what = entry_.kind == SignatureEntry::Kind::Constexpr ? "value" : "type";
      return fail(pos, concat("unexpected ", found(text_, pos, end_), " after the ", what,
                              " (expected ':' and a hint, or ',')"));
    }
    return std::move(entry_);
  }

private:
  Status fail(size_t pos, const std::string& what) const {
    return Status(TCPU_ERROR_INVALID_VALUE, concat("signature column ", pos + 1, ": ", what,
                                                   " in '", printable(entry_.text), "'"));
  }

  size_t skipBlanks(size_t pos) const {
    while (pos < end_ && isBlank(text_[pos]))
      ++pos;
    return pos;
  }

  Status parseType(std::string_view token) {
    if (token[0] != '*') {
      if (token == "u1") return fail(begin_, "type 'u1' is not supported (use i1)");
      const std::optional<tcpuDataType> type = lookupScalar(token);
      if (!type)
        return fail(begin_, concat("unknown type '", printable(token), "' (expected ", kScalarList,
                                   ", a pointer *<type> or *k<type>, or a number)"));
      entry_.kind = SignatureEntry::Kind::Scalar;
      entry_.type = *type;
      return {};
    }
    entry_.kind = SignatureEntry::Kind::Pointer;
    std::string_view element = token.substr(1);
    size_t elementPos = begin_ + 1;
    // "*k" marks a const pointer only where a known type follows: no type name starts with 'k',
    // and reporting "kfloat" whole beats guessing which half was meant.
    if (element.size() > 1 && element[0] == 'k' && lookupScalar(element.substr(1))) {
      entry_.isConst = true;
      element.remove_prefix(1);
      ++elementPos;
    }
    if (element.empty()) return fail(elementPos, "missing pointer element type after '*'");
    if (element == "k") return fail(elementPos + 1, "missing pointer element type after '*k'");
    if (element == "u1" || element == "ku1")
      return fail(elementPos, "element type 'u1' is not supported (use i1)");
    const std::optional<tcpuDataType> type = lookupScalar(element);
    if (!type)
      return fail(elementPos, concat("unknown pointer element type '", printable(element),
                                     "' (expected ", kScalarList, ")"));
    entry_.type = *type;
    return {};
  }

  // Numbers follow the grammar below rather than whatever from_chars accepts, so that every
  // rejection points at the first bad character; from_chars only converts what was checked.
  Status parseNumber(size_t tokenEnd) {
    entry_.kind = SignatureEntry::Kind::Constexpr;
    size_t pos = begin_;
    const bool negative = text_[pos] == '-';
    if (text_[pos] == '+' || negative) ++pos;
    const char* const base = text_.data();

    uint64_t magnitude = 0;
    if (pos + 1 < tokenEnd && text_[pos] == '0' &&
        (text_[pos + 1] == 'x' || text_[pos + 1] == 'X')) {
      const size_t digits = pos + 2;
      pos = digits;
      while (pos < tokenEnd && isHexDigit(text_[pos]))
        ++pos;
      if (pos == digits)
        return fail(pos,
                    concat("expected a hex digit after '0x', found ", found(text_, pos, end_)));
      if (pos < tokenEnd)
        return fail(pos, concat("unexpected ", found(text_, pos, end_), " in a hex number"));
      if (std::from_chars(base + digits, base + tokenEnd, magnitude, 16).ec != std::errc())
        return outOfRange();
    } else {
      const size_t mantissa = pos;
      size_t digitCount = 0;
      bool isFloat = false;
      for (; pos < tokenEnd && isDigit(text_[pos]); ++pos)
        ++digitCount;
      if (pos < tokenEnd && text_[pos] == '.') {
        isFloat = true;
        for (++pos; pos < tokenEnd && isDigit(text_[pos]); ++pos)
          ++digitCount;
      }
      if (digitCount == 0)
        return fail(pos, concat("expected a digit, found ", found(text_, pos, end_)));
      if (pos < tokenEnd && (text_[pos] == 'e' || text_[pos] == 'E')) {
        isFloat = true;
        ++pos;
        if (pos < tokenEnd && (text_[pos] == '+' || text_[pos] == '-')) ++pos;
        const size_t exponent = pos;
        while (pos < tokenEnd && isDigit(text_[pos]))
          ++pos;
        if (pos == exponent)
          return fail(pos, concat("expected an exponent digit, found ", found(text_, pos, end_)));
      }
      if (pos < tokenEnd)
        return fail(pos, concat("unexpected ", found(text_, pos, end_), " in a number"));

      if (isFloat) {
        double value = 0;
        // Overflow and underflow are both refused: Python would turn them into inf or 0
        // silently, which is never what a constexpr in a signature means.
        if (floatFromChars(base + mantissa, base + tokenEnd, value).ec != std::errc())
          return fail(begin_, "float constexpr is out of the range of fp64");
        entry_.type = TCPU_TYPE_FP64;
        entry_.floatValue = negative ? -value : value;
        return {};
      }
      if (std::from_chars(base + mantissa, base + tokenEnd, magnitude, 10).ec != std::errc())
        return outOfRange();
    }

    // -2^63 is representable, +2^63 is not.
    if (magnitude > kInt64Max + (negative ? 1 : 0)) return outOfRange();
    entry_.type = TCPU_TYPE_I64;
    // Unsigned negation wraps, and C++20 defines the conversion back as modular, so -2^63 works.
    entry_.intValue = static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
    return {};
  }

  Status outOfRange() const { return fail(begin_, "integer constexpr is out of the range of i64"); }

  // Parses the hint starting at pos (after ':' and blanks); returns the position after it.
  Expected<size_t> parseHint(size_t pos) {
    size_t digitsEnd = pos;
    while (digitsEnd < end_ && isDigit(text_[digitsEnd]))
      ++digitsEnd;
    if (digitsEnd == pos) {
      if (pos >= end_) return fail(pos, "missing hint after ':' (expected 16 or 1)");
      return fail(pos, concat("bad hint: expected 16 or 1, found ", found(text_, pos, end_)));
    }
    uint64_t value = 0;
    const char* const base = text_.data();
    const bool parsed = std::from_chars(base + pos, base + digitsEnd, value).ec == std::errc();
    if (!parsed || (value != 16 && value != 1))
      return fail(pos, concat("bad hint '", text_.substr(pos, digitsEnd - pos),
                              "': expected 16 (divisible by 16) or 1 (equal to 1)"));
    // Triton's ':1' turns the argument into the constant 1, meaningless for an address;
    // floating-point arguments carry no divisibility and are never specialized on value.
    if (entry_.kind == SignatureEntry::Kind::Pointer && value == 1)
      return fail(pos, "hint ':1' does not apply to a pointer (':16' marks 16-byte alignment)");
    if (entry_.kind == SignatureEntry::Kind::Scalar && isFloatType(entry_.type))
      return fail(pos, concat("hint ':", value, "' does not apply to ", typeName(entry_.type),
                              " (floating-point scalars take no hint)"));
    entry_.hint = static_cast<int>(value);
    return digitsEnd;
  }

  std::string_view text_;
  size_t begin_;
  size_t end_;
  SignatureEntry entry_;
};

} // namespace

Expected<Signature> parseSignature(std::string_view text) {
  Signature signature;
  size_t pos = 0;
  for (;;) {
    size_t begin = pos;
    while (begin < text.size() && isBlank(text[begin]))
      ++begin;
    size_t comma = text.find(',', begin);
    if (comma == std::string_view::npos) comma = text.size();
    size_t end = comma;
    while (end > begin && isBlank(text[end - 1]))
      --end;

    if (begin == end) {
      const size_t index = signature.entries.size() + 1;
      std::string what;
      if (comma == text.size() && signature.entries.empty())
        what = "empty signature (expected comma-separated types or numbers)";
      else if (comma == text.size())
        what = concat("empty entry ", index, " after the last ',' (expected a type or a number)");
      else
        what = concat("empty entry ", index, " before ',' (expected a type or a number)");
      return Status(TCPU_ERROR_INVALID_VALUE, concat("signature column ", begin + 1, ": ", what));
    }

    Expected<SignatureEntry> entry = EntryParser(text, begin, end).parse();
    if (!entry) return entry.status();
    signature.entries.push_back(entry.take());
    if (comma == text.size()) return signature;
    pos = comma + 1;
  }
}

std::string Signature::suffix() const {
  // compile.py writes every index, hinted or not (enumerate over the whole signature), so
  // unhinted arguments and constexprs still appear as a bare index.
  std::string out;
  for (size_t i = 0; i < entries.size(); ++i) {
    out += std::to_string(i);
    if (entries[i].hint == 1) out += 'c';
    if (entries[i].hint == 16) out += 'd';
  }
  return out;
}

std::string_view typeName(tcpuDataType type) {
  for (const ScalarName& scalar : kScalars)
    if (scalar.type == type) return scalar.name;
  return "unknown";
}

std::string describe(const SignatureEntry& entry) {
  switch (entry.kind) {
  case SignatureEntry::Kind::Pointer:
    return concat("*", entry.isConst ? "k" : "", typeName(entry.type));
  case SignatureEntry::Kind::Scalar:
    return std::string(typeName(entry.type));
  case SignatureEntry::Kind::Constexpr:
    break;
  }
  if (!entry.text.empty()) return concat("constexpr ", entry.text);
  // Entries built by hand have no text; show the value the same way Python would.
  if (entry.type == TCPU_TYPE_I1) return entry.intValue ? "constexpr True" : "constexpr False";
  if (entry.type == TCPU_TYPE_I64) return concat("constexpr ", entry.intValue);
  char buffer[64];
  const std::to_chars_result shortest =
      std::to_chars(buffer, buffer + sizeof buffer, entry.floatValue);
  return concat("constexpr ", std::string_view(buffer, shortest.ptr - buffer));
}

} // namespace tcpu::codegen
