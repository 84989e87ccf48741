#include "cache/frontend_seal.hpp"

#include <algorithm>
#include <charconv>

#include "tcpu/status.hpp"

namespace tcpu::codegen {
namespace {

constexpr std::string_view kStart = R"({"tcpu-python-variant": 1, "entry": ")";
constexpr std::string_view kVariant = R"(", "variant": ")";
constexpr std::string_view kBytes = R"(", "library_bytes": )";
constexpr std::string_view kChecksum = R"(, "library_checksum": ")";
constexpr std::string_view kMetadata = R"(", "metadata": )";
constexpr std::string_view kEnd = "}";

std::string hex16(uint64_t value) {
  static const char digits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4)
    text[static_cast<std::size_t>(i)] = digits[value & 15];
  return text;
}

// Reads `literal` at the front of `text`, consuming it.
bool take(std::string_view& text, std::string_view literal) {
  if (!text.starts_with(literal)) return false;
  text.remove_prefix(literal.size());
  return true;
}

// Reads `length` lowercase hex digits at the front of `text`.
std::optional<std::string> takeHex(std::string_view& text, std::size_t length) {
  if (text.size() < length) return std::nullopt;
  const std::string_view digits = text.substr(0, length);
  if (!std::all_of(digits.begin(), digits.end(),
                   [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }))
    return std::nullopt;
  text.remove_prefix(length);
  return std::string(digits);
}

} // namespace

uint64_t libraryChecksum(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char byte : bytes) {
    hash ^= static_cast<unsigned char>(byte);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string writeSeal(const FrontEndSeal& seal) {
  return concat(kStart, seal.entry, kVariant, seal.variant, kBytes, seal.libraryBytes, kChecksum,
                hex16(seal.libraryChecksum), kMetadata, seal.metadata, kEnd, "\n");
}

std::optional<FrontEndSeal> readSeal(std::string_view text) {
  FrontEndSeal seal;
  std::optional<std::string> entry, variant, checksum;
  if (!take(text, kStart) || !(entry = takeHex(text, 64)) || !take(text, kVariant) ||
      !(variant = takeHex(text, 16)) || !take(text, kBytes))
    return std::nullopt;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), seal.libraryBytes);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  if (text.ends_with('\n')) text.remove_suffix(1); // written with one; an editor may drop it
  if (!take(text, kChecksum) || !(checksum = takeHex(text, 16)) || !take(text, kMetadata) ||
      !text.ends_with(kEnd))
    return std::nullopt;
  seal.entry = std::move(*entry);
  seal.variant = std::move(*variant);
  std::from_chars(checksum->data(), checksum->data() + checksum->size(), seal.libraryChecksum, 16);
  seal.metadata = std::string(text.substr(0, text.size() - kEnd.size()));
  return seal;
}

} // namespace tcpu::codegen
