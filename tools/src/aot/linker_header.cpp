#include "aot/linker_header.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>

#include "formats/text_split.hpp"

namespace tcpu::cli {
namespace {

// Keywords of C11 and C++20: a Triton argument is a Python name, and Python accepts some of
// these ("default", "signed", "register"), which would break the generated C.
// clang-format off
constexpr std::string_view kKeywords[] = {
    "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary",
    "_Noreturn", "_Static_assert", "_Thread_local", "alignas", "alignof", "and", "and_eq",
    "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char", "char16_t",
    "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield", "compl", "concept",
    "const", "const_cast", "consteval", "constexpr", "constinit", "continue", "decltype",
    "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export",
    "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
    "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires",
    "restrict", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef",
    "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
    "wchar_t", "while", "xor", "xor_eq",
};
// clang-format on

// The scalar types `tcpu compile` writes (fp16 and bf16 travel as uint16_t).
constexpr std::string_view kScalarTypes[] = {"bool",     "int8_t",  "int16_t",  "int32_t",
                                             "int64_t",  "uint8_t", "uint16_t", "uint32_t",
                                             "uint64_t", "float",   "double"};

// The dispatchers' own parameters, which an argument may not shadow.
constexpr std::string_view kDispatcherParameters[] = {"stream", "algo_id"};

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

// Comma-separated items, where an empty (or blank) field is no items at all.
std::vector<std::string_view> splitList(std::string_view text) {
  if (trim(text).empty()) return {};
  std::vector<std::string_view> items = split(text, ',');
  for (std::string_view& item : items)
    item = trim(item);
  return items;
}

bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool isAlphanumeric(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c != '_' && isIdentifierChar(c); });
}

bool isLowercaseHex(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Says where a problem is: "a.h:12: ...".
class LineErrors {
public:
  explicit LineErrors(std::string location) : location_(std::move(location)) {}
  template <class... Parts>
  Status operator()(const Parts&... parts) const {
    return Status(TCPU_ERROR_INVALID_VALUE, concat(location_, ": ", parts...));
  }

private:
  std::string location_;
};

// func = {out_name}_{hash}_{suffix}, split from the right since out_name may hold '_'.
Status parseFunctionName(std::string_view function, Specialization& out, const LineErrors& error) {
  const std::size_t suffixUnderscore = function.rfind('_');
  const std::size_t hashUnderscore =
      suffixUnderscore == std::string_view::npos || suffixUnderscore == 0
          ? std::string_view::npos
          : function.rfind('_', suffixUnderscore - 1);
  if (hashUnderscore == std::string_view::npos)
    return error("function name '", function, "' is not {out_name}_{hash}_{suffix}");
  out.function = std::string(function);
  out.kernelName = std::string(function.substr(0, hashUnderscore));
  out.hash =
      std::string(function.substr(hashUnderscore + 1, suffixUnderscore - hashUnderscore - 1));
  out.suffix = std::string(function.substr(suffixUnderscore + 1));
  if (!isUsableIdentifier(out.kernelName))
    return error("kernel name '", out.kernelName, "' in function name '", function,
                 "' is not a C identifier");
  if (out.hash.size() != 8 || !isLowercaseHex(out.hash))
    return error("hash '", out.hash, "' in function name '", function,
                 "' is not 8 lowercase hex digits");
  if (!isAlphanumeric(out.suffix))
    return error("suffix '", out.suffix, "' in function name '", function,
                 "' is not letters and digits");
  return {};
}

// "const float *" -> "const float*"; an empty result means the type is not supported.
std::string normalizeType(std::string_view type, KernelArgument& argument) {
  if (!type.empty() && type.back() == '*') {
    argument.isPointer = true;
    type = trim(type.substr(0, type.size() - 1));
  }
  bool isConst = false;
  if (type.starts_with("const") && type.size() > 5 && isSpace(type[5])) {
    isConst = true;
    type = trim(type.substr(5));
  }
  // const scalars are not something tcpu compile writes; const applies to pointees only.
  if (!contains(kScalarTypes, type) || (isConst && !argument.isPointer)) return {};
  argument.isFloatingPoint = !argument.isPointer && (type == "float" || type == "double");
  argument.isBool = !argument.isPointer && type == "bool";
  return concat(isConst ? "const " : "", type, argument.isPointer ? "*" : "");
}

Status parseSignature(std::string_view signature, Specialization& out, const LineErrors& error) {
  const std::vector<std::string_view> items = splitList(signature);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string_view item = items[i];
    std::size_t nameStart = item.size();
    while (nameStart > 0 && isIdentifierChar(item[nameStart - 1]))
      --nameStart;
    const std::string_view name = item.substr(nameStart);
    const std::string_view type = trim(item.substr(0, nameStart));
    if (name.empty() || type.empty())
      return error("argument ", i + 1, " '", item, "' of the signature is not '{type} {name}'");
    if (!isUsableIdentifier(name))
      return error("argument name '", name, "' is not an identifier C and C++ accept");
    if (contains(kDispatcherParameters, name))
      return error("argument name '", name, "' is taken by the dispatchers' own parameter");
    KernelArgument argument;
    argument.name = std::string(name);
    argument.type = normalizeType(type, argument);
    if (argument.type.empty())
      return error("argument '", name, "' has unsupported type '", type,
                   "' (expected bool, [u]int8_t..[u]int64_t, float, double, or a pointer to one)");
    for (const KernelArgument& earlier : out.arguments)
      if (earlier.name == argument.name) return error("argument name '", name, "' appears twice");
    out.arguments.push_back(std::move(argument));
  }
  return {};
}

Status parseHints(std::string_view hints, Specialization& out, const LineErrors& error) {
  const std::vector<std::string_view> items = splitList(hints);
  if (items.size() != out.arguments.size())
    return error(items.size(), " hints for ", out.arguments.size(), " arguments (hints '", hints,
                 "')");
  for (std::size_t i = 0; i < items.size(); ++i) {
    const KernelArgument& argument = out.arguments[i];
    const std::string_view hint = items[i];
    if (hint != "0" && hint != "1" && hint != "16")
      return error("hint '", hint, "' of argument '", argument.name, "' is not 0, 1 or 16");
    if (hint == "0") {
      out.hints.push_back(ArgumentHint::kNone);
      continue;
    }
    // Conditions the generated C could not express: pointer == 1, double % 16, bool % 16.
    if (argument.isFloatingPoint)
      return error("hint ", hint, " on floating-point argument '", argument.name, "'");
    if (hint == "1" && argument.isPointer)
      return error("hint 1 on pointer argument '", argument.name,
                   "' (only integers can be specialized to 1)");
    if (hint == "16" && argument.isBool)
      return error("hint 16 on bool argument '", argument.name, "'");
    out.hints.push_back(hint == "1" ? ArgumentHint::kEqualToOne : ArgumentHint::kDivisibleBy16);
  }
  return {};
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); } // namespace
}; // namespace tcpu::cli

} // namespace

std::string Specialization::location() const {
  return concat(file, ":", line);
}

std::size_t Specialization::hintedArgumentCount() const {
  return static_cast<std::size_t>(std::count_if(
      hints.begin(), hints.end(), [](ArgumentHint h) { return h != ArgumentHint::kNone; }));
}

std::string Specialization::fullSignature() const {
  std::string signature;
  for (const KernelArgument& argument : arguments)
    signature += (signature.empty() ? "" : ", ") + argument.declaration();
  return signature;
}

bool isUsableIdentifier(std::string_view text) {
  if (text.empty() || (text.front() >= '0' && text.front() <= '9')) return false;
  return std::all_of(text.begin(), text.end(), isIdentifierChar) && !contains(kKeywords, text);
}

Expected<Specialization> parseLinkerLine(std::string_view text, const std::string& file,
                                         std::size_t line) {
  const LineErrors error(concat(file, ":", line));
  if (!text.starts_with(kLinkerLinePrefix))
    return error("line does not start with '", kLinkerLinePrefix, "'");
  const std::string_view body = trim(text.substr(kLinkerLinePrefix.size()));
  const std::vector<std::string_view> fields = split(body, ':');
  if (fields.size() != 4)
    return error("tcpu-linker line has ", fields.size(),
                 " ':'-separated fields, expected 4 ({func}:{signature}:{algo_info}:{hints}): '",
                 body, "'");
  Specialization specialization;
  specialization.file = file;
  specialization.line = line;
  if (Status status = parseFunctionName(trim(fields[0]), specialization, error); !status.ok())
    return status;
  if (Status status = parseSignature(fields[1], specialization, error); !status.ok()) return status;
  const std::string_view algorithm = trim(fields[2]);
  if (algorithm.empty() || !std::all_of(algorithm.begin(), algorithm.end(), isIdentifierChar))
    return error("algo_info '", algorithm, "' is not letters, digits and '_'");
  specialization.algorithm = std::string(algorithm);
  if (Status status = parseHints(trim(fields[3]), specialization, error); !status.ok())
    return status;
  return specialization;
}

Expected<std::vector<Specialization>> readLinkerHeader(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file)
    return Status(TCPU_ERROR_FILE_NOT_FOUND,
                  concat("cannot read '", path, "': ", std::strerror(errno)));
  std::string text;
  char buffer[4096];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
    text.append(buffer, count);
  // Reading a directory opens fine and fails here, with EISDIR.
  if (std::ferror(file.get()))
    return Status(TCPU_ERROR_FILE_NOT_FOUND,
                  concat("cannot read '", path, "': ", std::strerror(errno)));

  std::vector<Specialization> specializations;
  std::size_t lineNumber = 0;
  for (std::string_view line : split(text, '\n')) {
    ++lineNumber;
    if (!line.starts_with(kLinkerLinePrefix)) continue;
    Expected<Specialization> parsed = parseLinkerLine(line, path, lineNumber);
    if (!parsed) return parsed.status();
    specializations.push_back(parsed.take());
  }
  if (specializations.empty())
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat(path, ": no '", kLinkerLinePrefix,
                         "' line (is it a header written by tcpu compile?)"));
  return specializations;
}

} // namespace tcpu::cli
