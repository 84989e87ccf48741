#include "cuda/ptx_image.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

namespace tcpu::detail {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

// The next whitespace-separated word, or "" at the end.
std::string_view nextWord(std::string_view& text) {
  text = trim(text);
  size_t end = 0;
  while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])))
    ++end;
  std::string_view word = text.substr(0, end);
  text.remove_prefix(end);
  return word;
}

// A scalar PTX parameter type (.u32, .f64, .b8 ...) as tcpu's type and size; size 0 if unknown.
std::pair<tcpuDataType, uint32_t> ptxScalar(std::string_view type) {
  if (type.size() < 3 || type[0] != '.') return {TCPU_TYPE_UNKNOWN, 0};
  const char kind = type[1];
  int bits = 0;
  std::from_chars(type.data() + 2, type.data() + type.size(), bits);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return {TCPU_TYPE_UNKNOWN, 0};
  const auto bytes = static_cast<uint32_t>(bits / 8);
  if (kind == 'f')
    return {bits == 16 ? TCPU_TYPE_FP16 : bits == 32 ? TCPU_TYPE_FP32 : TCPU_TYPE_FP64, bytes};
  if (kind == 'u' || kind == 's' || kind == 'b') {
    switch (bits) {
    case 8:
      return {TCPU_TYPE_I8, bytes};
    case 16:
      return {TCPU_TYPE_I16, bytes};
    case 32:
      return {TCPU_TYPE_I32, bytes};
    default:
      return {TCPU_TYPE_I64, bytes};
    }
  }
  return {TCPU_TYPE_UNKNOWN, 0};
}

// One `.param [.align N] .type name[count]` of an entry's list.
Status parseParam(std::string_view text, const std::string& kernel, size_t index,
                  PtxKernel& result) {
  std::string_view rest = text;
  if (nextWord(rest) != ".param")
    return Status(TCPU_ERROR_INVALID_IMAGE, concat("PTX kernel '", kernel, "': parameter ", index,
                                                   " is not a .param: '", trim(text), "'"));
  std::string_view word = nextWord(rest);
  uint32_t align = 0;
  if (word == ".align") {
    const std::string_view value = nextWord(rest);
    std::from_chars(value.data(), value.data() + value.size(), align);
    word = nextWord(rest);
  }
  if (word == ".ptr") word = nextWord(rest); // .param .u64 .ptr .global .align 4 name
  auto [type, size] = ptxScalar(word);
  std::string_view name = trim(rest);
  // Skip state spaces and alignment of a .ptr declaration.
  while (name.starts_with(".")) {
    std::string_view skipped = nextWord(name);
    if (skipped == ".align") nextWord(name);
    name = trim(name);
  }
  if (size == 0 || name.empty())
    return Status(TCPU_ERROR_INVALID_IMAGE, concat("PTX kernel '", kernel, "': parameter ", index,
                                                   " '", trim(text), "' is not understood"));
  if (const size_t bracket = name.find('['); bracket != std::string_view::npos) {
    uint32_t count = 0;
    std::from_chars(name.data() + bracket + 1, name.data() + name.size(), count);
    size *= count;
    type = TCPU_TYPE_UNKNOWN;
    name = name.substr(0, bracket);
  }
  tcpuParamDesc desc{};
  desc.type = type;
  desc.size = size;
  desc.align = align ? align : std::min<uint32_t>(size, 8);
  result.params.push_back(desc);
  result.paramNames.emplace_back(name);
  return {};
}

std::array<unsigned, 3> parseDimensions(std::string_view text) {
  std::array<unsigned, 3> dimensions{1, 1, 1};
  for (unsigned& dimension : dimensions) {
    text = trim(text);
    if (text.empty()) break;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), dimension);
    text.remove_prefix(static_cast<size_t>(end - text.data()));
    text = trim(text);
    if (text.starts_with(',')) text.remove_prefix(1);
  }
  return dimensions;
}

tcpuDataType typeNamed(std::string_view name) {
  for (int type = TCPU_TYPE_I1; type <= TCPU_TYPE_FP64; ++type)
    if (name == tcpuDataTypeName(static_cast<tcpuDataType>(type)))
      return static_cast<tcpuDataType>(type);
  return TCPU_TYPE_UNKNOWN;
}

// Applies a tcpu.kernel line's names and types to the entry it describes.
Status applyKernelLine(std::string_view line, PtxKernel& kernel) {
  std::vector<std::pair<std::string_view, std::string_view>> params;
  for (std::string_view word = nextWord(line); !word.empty(); word = nextWord(line)) {
    const size_t colon = word.rfind(':');
    if (colon == std::string_view::npos)
      return Status(TCPU_ERROR_INVALID_IMAGE,
                    concat("PTX kernel '", kernel.name, "': tcpu.kernel entry '", word,
                           "' is not NAME:TYPE"));
    params.emplace_back(word.substr(0, colon), word.substr(colon + 1));
  }
  if (params.size() != kernel.params.size())
    return Status(TCPU_ERROR_INVALID_IMAGE,
                  concat("PTX kernel '", kernel.name, "': its tcpu.kernel line lists ",
                         params.size(), " parameters but the entry declares ",
                         kernel.params.size()));
  for (size_t i = 0; i < params.size(); ++i) {
    auto [name, typeText] = params[i];
    tcpuParamDesc& desc = kernel.params[i];
    const bool pointer = typeText.starts_with('*');
    const tcpuDataType type = typeNamed(pointer ? typeText.substr(1) : typeText);
    if (pointer) {
      desc.type = TCPU_TYPE_PTR;
      desc.pointee = type;
    } else if (type != TCPU_TYPE_UNKNOWN) {
      desc.type = type;
    } else {
      return Status(TCPU_ERROR_INVALID_IMAGE,
                    concat("PTX kernel '", kernel.name, "': tcpu.kernel type '", typeText,
                           "' of parameter ", i, " is not a type"));
    }
    kernel.paramNames[i] = name == "-" ? "" : std::string(name);
  }
  kernel.typed = true;
  return {};
}

} // namespace

Expected<std::vector<PtxKernel>> parsePtxKernels(std::string_view ptx) {
  std::vector<PtxKernel> kernels;
  std::vector<std::pair<std::string, std::string_view>> lines; // tcpu.kernel lines by name
  constexpr std::string_view kLineTag = "// tcpu.kernel ";
  for (size_t at = ptx.find(kLineTag); at != std::string_view::npos;
       at = ptx.find(kLineTag, at + 1)) {
    std::string_view line = ptx.substr(at + kLineTag.size());
    line = line.substr(0, line.find('\n'));
    std::string_view rest = line;
    const std::string_view name = nextWord(rest);
    lines.emplace_back(std::string(name), rest);
  }
  constexpr std::string_view kEntry = ".entry ";
  for (size_t at = ptx.find(kEntry); at != std::string_view::npos; at = ptx.find(kEntry, at + 1)) {
    if (at > 0 && !std::isspace(static_cast<unsigned char>(ptx[at - 1]))) continue;
    if (const size_t lineStart = ptx.rfind('\n', at);
        ptx.substr(lineStart == std::string_view::npos ? 0 : lineStart, at - lineStart)
            .find("//") != std::string_view::npos)
      continue; // inside a comment
    size_t cursor = at + kEntry.size();
    while (cursor < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[cursor])))
      ++cursor;
    size_t nameEnd = cursor;
    while (nameEnd < ptx.size() && isIdentifierChar(ptx[nameEnd]))
      ++nameEnd;
    PtxKernel kernel;
    kernel.name = std::string(ptx.substr(cursor, nameEnd - cursor));
    if (kernel.name.empty())
      return Status(TCPU_ERROR_INVALID_IMAGE, "PTX: an .entry directive without a name");
    size_t bodyStart = ptx.find('{', nameEnd);
    if (bodyStart == std::string_view::npos) bodyStart = ptx.size();
    const size_t open = ptx.find('(', nameEnd);
    if (open != std::string_view::npos && open < bodyStart) {
      const size_t close = ptx.find(')', open);
      if (close == std::string_view::npos || close > bodyStart)
        return Status(TCPU_ERROR_INVALID_IMAGE,
                      concat("PTX kernel '", kernel.name, "': its parameter list has no ')'"));
      std::string_view list = ptx.substr(open + 1, close - open - 1);
      size_t index = 0;
      while (!trim(list).empty()) {
        const size_t comma = list.find(',');
        if (Status parsed = parseParam(list.substr(0, comma), kernel.name, index++, kernel);
            !parsed.ok())
          return parsed;
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      }
      nameEnd = close;
    }
    const std::string_view directives = ptx.substr(nameEnd, bodyStart - nameEnd);
    if (const size_t at2 = directives.find(".reqntid"); at2 != std::string_view::npos)
      kernel.requiredThreads = parseDimensions(directives.substr(at2 + 8));
    if (const size_t at2 = directives.find(".maxntid"); at2 != std::string_view::npos)
      kernel.maxThreads = parseDimensions(directives.substr(at2 + 8));
    for (const auto& [name, line] : lines)
      if (name == kernel.name)
        if (Status applied = applyKernelLine(line, kernel); !applied.ok()) return applied;
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

} // namespace tcpu::detail
