// The signature-string parser (codegen/src/ir/signature.cpp): any bytes give a Signature or an
// error naming a column inside the text (or one past its end); accepted signatures keep
// their invariants and parse the same when written back from their entries' texts.
#include <charconv>
#include <string>

#include "fuzz_support.hpp"
#include "ir/signature.hpp"

namespace tcpu::fuzz {
namespace {

using codegen::SignatureEntry;

bool sameEntry(const SignatureEntry& a, const SignatureEntry& b) {
  // Floats compare bitwise: the same text must give the same double (NaN cannot be written).
  return a.kind == b.kind && a.type == b.type && a.isConst == b.isConst && a.hint == b.hint &&
         a.intValue == b.intValue && a.floatValue == b.floatValue && a.text == b.text;
}

void checkError(std::string_view text, const Status& status) {
  TCPU_FUZZ_CHECK(status.code() == TCPU_ERROR_INVALID_VALUE, status.message());
  constexpr std::string_view kPrefix = "signature column ";
  const std::string& message = status.message();
  TCPU_FUZZ_CHECK(message.starts_with(kPrefix), message);
  size_t column = 0;
  const char* begin = message.data() + kPrefix.size();
  const auto [end, error] = std::from_chars(begin, message.data() + message.size(), column);
  TCPU_FUZZ_CHECK(error == std::errc() && *end == ':', message);
  TCPU_FUZZ_CHECK(
      column >= 1 && column <= text.size() + 1,
      concat("column ", column, " outside a text of ", text.size(), " bytes: ", message));
}

} // namespace

int fuzzSignature(const uint8_t* data, size_t size) {
  const std::string_view text = asText(data, size);
  Expected<codegen::Signature> parsed = codegen::parseSignature(text);
  if (!parsed) {
    checkError(text, parsed.status());
    return 0;
  }
  const codegen::Signature& signature = *parsed;
  TCPU_FUZZ_CHECK(!signature.entries.empty(), "an accepted signature has entries");
  for (char c : signature.suffix())
    TCPU_FUZZ_CHECK((c >= '0' && c <= '9') || c == 'c' || c == 'd', signature.suffix());
  std::string rewritten;
  for (const SignatureEntry& entry : signature.entries) {
    TCPU_FUZZ_CHECK(entry.column >= 1 && entry.column <= text.size(),
                    concat("column ", entry.column));
    TCPU_FUZZ_CHECK(!entry.text.empty() && text.substr(entry.column - 1).starts_with(entry.text),
                    concat("entry text '", entry.text, "' is not at column ", entry.column));
    TCPU_FUZZ_CHECK(entry.hint == 0 || entry.hint == 1 || entry.hint == 16,
                    concat("hint ", entry.hint));
    TCPU_FUZZ_CHECK(entry.kind != SignatureEntry::Kind::Constexpr || entry.hint == 0,
                    "a constexpr with a hint");
    TCPU_FUZZ_CHECK(entry.kind == SignatureEntry::Kind::Constexpr ||
                        codegen::typeName(entry.type) != "unknown",
                    entry.text);
    TCPU_FUZZ_CHECK(!codegen::describe(entry).empty(), entry.text);
    if (!rewritten.empty()) rewritten += ", ";
    rewritten += entry.text;
  }
  // The entries' texts, written back with Triton's separator, are the same signature.
  Expected<codegen::Signature> again = codegen::parseSignature(rewritten);
  TCPU_FUZZ_CHECK(again.ok(), concat("'", rewritten, "': ", again.status().message()));
  TCPU_FUZZ_CHECK(again->entries.size() == signature.entries.size(), rewritten);
  for (size_t i = 0; i < signature.entries.size(); ++i)
    TCPU_FUZZ_CHECK(sameEntry(again->entries[i], signature.entries[i]),
                    concat("entry ", i, " of '", rewritten, "'"));
  TCPU_FUZZ_CHECK(again->suffix() == signature.suffix(), rewritten);
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzSignature)
