// Parsing one subcommand's arguments: `--name value`, `--name=value`, flags,
// short aliases (`-o`), and positionals, with --help built from the same
// table. Errors name the argument and the value.
#ifndef TCPU_TOOLS_COMMAND_LINE_HPP
#define TCPU_TOOLS_COMMAND_LINE_HPP

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::cli {

struct OptionSpec {
  std::string name;      // without dashes: "kernel-name"
  std::string valueName; // shown in help ("NAME"); empty: a flag that takes no value
  std::string help;
  char shortName = 0; // 'o' for -o, or 0
  bool required = false;
  bool repeatable = false;
};

struct CommandSpec {
  std::string name;        // "compile"
  std::string usage;       // after "tcpu <name> ": "<kernel.cpp|.ll|.bc> [options]"
  std::string summary;     // one line
  std::string description; // paragraphs after the usage, may be empty
  std::vector<OptionSpec> options;
  std::size_t minPositionals = 0;
  std::size_t maxPositionals = 0; // SIZE_MAX: any number
};

struct ParsedArguments {
  std::map<std::string, std::vector<std::string>> values; // flags hold one empty value
  std::vector<std::string> positionals;
  bool help = false;

  bool has(const std::string& name) const { return values.contains(name); }
  // The (last) value of an option, or nullopt.
  std::optional<std::string> get(const std::string& name) const;
  std::string getOr(const std::string& name, const std::string& fallback) const;
  const std::vector<std::string>& all(const std::string& name) const;
};

// TCPU_ERROR_INVALID_VALUE with "tcpu <command>: ..." on unknown options, missing values,
// missing required options and wrong positional counts. `--help` anywhere sets `help` and
// skips the required checks.
Expected<ParsedArguments> parseArguments(const CommandSpec& spec,
                                         std::span<const std::string> arguments);

std::string helpText(const CommandSpec& spec);

// Parses a whole decimal integer in [min, max]; the message names `what` and the text.
Expected<long long> parseInteger(const std::string& what, const std::string& text, long long min,
                                 long long max);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_COMMAND_LINE_HPP
