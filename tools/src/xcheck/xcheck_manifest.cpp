#include "xcheck/xcheck_manifest.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <system_error>

#include "formats/input_files.hpp"

namespace tcpu::cli {
namespace {

constexpr std::string_view kFirstLine = "tcpu-xcheck 1";

bool isNameCharacter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

bool isWord(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (c == ' ' || c == '\t' || static_cast<unsigned char>(c) < 0x20 || c == '\x7f') return false;
  return true;
}

class ManifestParser {
public:
  explicit ManifestParser(std::string_view origin) : origin_(origin) {}

  Expected<XcheckManifest> parse(std::string_view text) {
    std::size_t begin = 0;
    bool sawFirstLine = false;
    while (begin < text.size()) {
      std::size_t end = text.find('\n', begin);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(begin, end - begin);
      begin = end + 1;
      ++line_;
      if (line.ends_with('\r')) line.remove_suffix(1);
      if (!sawFirstLine) {
        if (line != kFirstLine) {
          if (line.starts_with("tcpu-xcheck "))
            return error(concat("format '", line, "' is not supported (this tcpu reads '",
                                kFirstLine, "')"));
          return error(concat("not an xcheck manifest: the first line is '", line, "', not '",
                              kFirstLine, "'"));
        }
        sawFirstLine = true;
        continue;
      }
      if (line.empty()) continue;
      if (Status status = parseLine(line); !status.ok()) return status;
    }
    if (!sawFirstLine)
      return Status(
          TCPU_ERROR_INVALID_VALUE,
          concat(origin_, ": the manifest is empty (it must start with '", kFirstLine, "')"));
    for (const auto& [present, key] :
         {std::pair{caseSeen_, "case"}, {kernelSeen_, "kernel"}, {backendSeen_, "backend"}})
      if (!present)
        return Status(TCPU_ERROR_INVALID_VALUE,
                      concat(origin_, ": the manifest has no '", key, "' line"));
    std::sort(manifest_.bf16Arrays.begin(), manifest_.bf16Arrays.end());
    return std::move(manifest_);
  }

private:
  Status error(const std::string& what) const {
    return Status(TCPU_ERROR_INVALID_VALUE, concat(origin_, ":", line_, ": ", what));
  }

  Status once(bool& seen, std::string_view key) {
    if (seen) return error(concat("'", key, "' is given twice"));
    seen = true;
    return Status();
  }

  Status checkName(std::string_view what, std::string_view name) const {
    if (isXcheckName(name)) return Status();
    return error(concat(what, " name '", name,
                        "' is invalid: names are [A-Za-z0-9_.-]+ and do not start with '.'"));
  }

  // A new input or output name: valid and not seen before in either list.
  Status checkArrayName(std::string_view what, std::string_view name) const {
    if (Status status = checkName(what, name); !status.ok()) return status;
    for (const std::string& input : manifest_.inputs)
      if (input == name) return error(concat("'", name, "' is already an input"));
    for (const auto& output : manifest_.outputs)
      if (output.first == name) return error(concat("'", name, "' is already an output"));
    return Status();
  }

  // What may follow an array's name (and rule): nothing, or " bf16".
  Status parseElementType(std::string_view name, std::string_view rest) {
    if (rest.empty()) return Status();
    if (rest == " bf16") {
      manifest_.bf16Arrays.emplace_back(name);
      return Status();
    }
    return error(concat("'", name, "' is followed by '", rest.substr(1),
                        "': only the element type bf16 may follow an array"));
  }

  Status parseLine(std::string_view line) {
    const std::size_t space = line.find(' ');
    const std::string_view key = line.substr(0, space);
    const std::string_view value =
        space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
    if (key == "case") {
      if (Status status = once(caseSeen_, key); !status.ok()) return status;
      if (Status status = checkName("case", value); !status.ok()) return status;
      manifest_.caseName = value;
    } else if (key == "kernel" || key == "backend") {
      if (Status status = once(key == "kernel" ? kernelSeen_ : backendSeen_, key); !status.ok())
        return status;
      if (!isWord(value))
        return error(concat(key, " '", value, "' is invalid: it must be one word"));
      (key == "kernel" ? manifest_.kernel : manifest_.backend) = value;
    } else if (key == "device") {
      if (Status status = once(deviceSeen_, key); !status.ok()) return status;
      manifest_.device = value;
    } else if (key == "seed") {
      if (Status status = once(seedSeen_, key); !status.ok()) return status;
      if (value.empty()) return error("seed needs a value");
      uint64_t seed = 0;
      for (char c : value)
        if (c < '0' || c > '9' || __builtin_mul_overflow(seed, 10, &seed) ||
            __builtin_add_overflow(seed, static_cast<uint64_t>(c - '0'), &seed))
          return error(concat("seed '", value, "' is not an integer 0..2^64-1"));
      manifest_.seed = seed;
    } else if (key == "input") {
      const std::string_view name = value.substr(0, value.find(' '));
      if (Status status = checkArrayName("input", name); !status.ok()) return status;
      if (Status status = parseElementType(name, value.substr(name.size())); !status.ok())
        return status;
      manifest_.inputs.emplace_back(name);
    } else if (key == "output") {
      const std::size_t split = value.find(' ');
      if (split == std::string_view::npos)
        return error(concat("output '", value, "' has no rule: write 'output <name> <rule>'"));
      const std::string_view name = value.substr(0, split);
      if (Status status = checkArrayName("output", name); !status.ok()) return status;
      const std::string_view rest = value.substr(split + 1);
      const std::string_view ruleText = rest.substr(0, rest.find(' '));
      Expected<ComparisonRule> rule = parseComparisonRule(ruleText);
      if (!rule) return error(concat("output '", name, "': ", rule.status().message()));
      if (Status status = parseElementType(name, rest.substr(ruleText.size())); !status.ok())
        return status;
      manifest_.outputs.emplace_back(std::string(name), *rule);
    } else {
      return error(concat("unknown key '", key,
                          "' (the keys are case, kernel, backend, device, seed, input, output)"));
    }
    return Status();
  }

  std::string_view origin_;
  std::size_t line_ = 0;
  XcheckManifest manifest_;
  bool caseSeen_ = false, kernelSeen_ = false, backendSeen_ = false, deviceSeen_ = false,
       seedSeen_ = false;
};

} // namespace

bool isXcheckName(std::string_view name) {
  if (name.empty() || name.front() == '.') return false;
  for (char c : name)
    if (!isNameCharacter(c)) return false;
  return true;
}

std::string formatManifest(const XcheckManifest& manifest) {
  std::string text = concat(kFirstLine, "\ncase ", manifest.caseName, "\nkernel ", manifest.kernel,
                            "\nbackend ", manifest.backend, "\n");
  if (!manifest.device.empty()) {
    std::string device = manifest.device;
    for (char& c : device)
      if (c == '\n' || c == '\r') c = ' ';
    text += concat("device ", device, "\n");
  }
  text += concat("seed ", manifest.seed, "\n");
  const auto typeSuffix = [&](const std::string& name) {
    return std::find(manifest.bf16Arrays.begin(), manifest.bf16Arrays.end(), name) ==
                   manifest.bf16Arrays.end()
               ? ""
               : " bf16";
  };
  for (const std::string& input : manifest.inputs)
    text += concat("input ", input, typeSuffix(input), "\n");
  for (const auto& [name, rule] : manifest.outputs)
    text += concat("output ", name, " ", formatComparisonRule(rule), typeSuffix(name), "\n");
  return text;
}

Expected<XcheckManifest> parseManifest(std::string_view text, std::string_view origin) {
  return ManifestParser(origin).parse(text);
}

Expected<XcheckManifest> readManifest(const std::filesystem::path& caseDirectory) {
  const std::filesystem::path path = caseDirectory / kXcheckManifestName;
  Expected<std::string> text = readInputFile(path);
  if (!text) return text.status();
  return parseManifest(*text, path.string());
}

} // namespace tcpu::cli
