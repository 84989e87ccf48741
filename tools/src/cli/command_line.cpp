#include "cli/command_line.hpp"

#include <charconv>
#include <cstdint>
#include <sstream>

namespace tcpu::cli {
namespace {

Status usageError(const CommandSpec& spec, const std::string& message) {
  return Status(TCPU_ERROR_INVALID_VALUE,
                concat("tcpu ", spec.name, ": ", message, " (see 'tcpu ", spec.name, " --help')"));
}

const OptionSpec* findLong(const CommandSpec& spec, const std::string& name) {
  for (const OptionSpec& option : spec.options)
    if (option.name == name) return &option;
  return nullptr;
}

const OptionSpec* findShort(const CommandSpec& spec, char name) {
  for (const OptionSpec& option : spec.options)
    if (option.shortName != 0 && option.shortName == name) return &option;
  return nullptr;
}

} // namespace

std::optional<std::string> ParsedArguments::get(const std::string& name) const {
  auto found = values.find(name);
  if (found == values.end() || found->second.empty()) return std::nullopt;
  return found->second.back();
}

std::string ParsedArguments::getOr(const std::string& name, const std::string& fallback) const {
  return get(name).value_or(fallback);
}

const std::vector<std::string>& ParsedArguments::all(const std::string& name) const {
  static const std::vector<std::string> none;
  auto found = values.find(name);
  return found == values.end() ? none : found->second;
}

Expected<ParsedArguments> parseArguments(const CommandSpec& spec,
                                         std::span<const std::string> arguments) {
  ParsedArguments parsed;
  bool onlyPositionals = false;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (onlyPositionals || argument.size() < 2 || argument[0] != '-') {
      parsed.positionals.push_back(argument);
      continue;
    }
    if (argument == "--") {
      onlyPositionals = true;
      continue;
    }
    if (argument == "--help" || argument == "-h") {
      parsed.help = true;
      continue;
    }
    const OptionSpec* option = nullptr;
    std::optional<std::string> inlineValue;
    std::string shown; // the option as the user wrote it, for messages
    if (argument.starts_with("--")) {
      const std::size_t equals = argument.find('=');
      const std::string name =
          argument.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
      if (equals != std::string::npos) inlineValue = argument.substr(equals + 1);
      option = findLong(spec, name);
      shown = "--" + name;
    } else if (argument.size() == 2) {
      option = findShort(spec, argument[1]);
      shown = argument;
    }
    if (!option) return usageError(spec, concat("unknown option '", argument, "'"));
    std::string value;
    if (option->valueName.empty()) {
      if (inlineValue)
        return usageError(spec,
                          concat("option ", shown, " takes no value (got '", *inlineValue, "')"));
    } else if (inlineValue) {
      value = *inlineValue;
    } else if (i + 1 < arguments.size()) {
      value = arguments[++i];
    } else {
      return usageError(spec, concat("option ", shown, " needs a value (", option->valueName, ")"));
    }
    std::vector<std::string>& slot = parsed.values[option->name];
    if (!slot.empty() && !option->repeatable)
      return usageError(spec, concat("option ", shown, " is given twice ('", slot.back(), "' and '",
                                     value, "')"));
    slot.push_back(std::move(value));
  }
  if (parsed.help) return parsed;
  for (const OptionSpec& option : spec.options)
    if (option.required && !parsed.has(option.name))
      return usageError(spec,
                        concat("missing required option --", option.name, " ", option.valueName));
  if (parsed.positionals.size() < spec.minPositionals)
    return usageError(spec, concat("expected ", spec.usage, ", got ", parsed.positionals.size(),
                                   " positional argument(s)"));
  if (parsed.positionals.size() > spec.maxPositionals)
    return usageError(
        spec, concat("unexpected argument '", parsed.positionals[spec.maxPositionals], "'"));
  return parsed;
}

std::string helpText(const CommandSpec& spec) {
  ClassicStream out;
  out << "usage: tcpu " << spec.name << " " << spec.usage << "\n\n" << spec.summary << "\n";
  if (!spec.description.empty()) out << "\n" << spec.description << "\n";
  out << "\noptions:\n";
  for (const OptionSpec& option : spec.options) {
    std::string left = "  ";
    if (option.shortName) left += concat("-", option.shortName, ", ");
    left += "--" + option.name;
    if (!option.valueName.empty()) left += " " + option.valueName;
    out << left;
    if (left.size() < 28)
      out << std::string(28 - left.size(), ' ');
    else
      out << "\n" << std::string(28, ' ');
    out << option.help << (option.required ? " (required)" : "") << "\n";
  }
  out << "  -h, --help                show this help\n";
  return out.str();
}

Expected<long long> parseInteger(const std::string& what, const std::string& text, long long min,
                                 long long max) {
  long long value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end)
    return Status(TCPU_ERROR_INVALID_VALUE, concat(what, "='", text, "' is not an integer"));
  if (value < min || value > max)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat(what, "=", value, " is out of range [", min, ", ", max, "]"));
  return value;
}

} // namespace tcpu::cli
