// Subcommand argument parsing (tools/src/cli/command_line.cpp) with a fixed spec shaped like
// `tcpu compile`'s and `tcpu run`'s (required options, a repeatable one, short aliases, a
// flag): the input is the argument list, split on '\0'. Accepted lists satisfy the spec.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "fuzz_support.hpp"

namespace tcpu::fuzz {
namespace {

const cli::CommandSpec& spec() {
  static const cli::CommandSpec command = {
      "fuzz",
      "<kernel.ll> [out.npy] [options]",
      "a spec for the fuzzer",
      "",
      {{"kernel-name", "NAME", "the kernel", 0, true},
       {"signature", "SIG", "Triton signature", 's', true},
       {"arg", "VALUE", "an argument (repeatable)", 'a', false, true},
       {"out", "PATH", "output path", 'o'},
       {"num-threads", "T", "worker threads", 0},
       {"print-outputs", "", "a flag", 'p'},
       {"verbose", "", "a repeatable flag", 'v', false, true}},
      1,
      2,
  };
  return command;
}

} // namespace

int fuzzCommandLine(const uint8_t* data, size_t size) {
  const std::string_view text = asText(data, size);
  std::vector<std::string> arguments;
  if (!text.empty())
    for (size_t begin = 0;;) {
      const size_t end = text.find('\0', begin);
      arguments.emplace_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
      if (end == std::string_view::npos) break;
      begin = end + 1;
    }
  Expected<cli::ParsedArguments> parsed = cli::parseArguments(spec(), arguments);
  if (!parsed) {
    TCPU_FUZZ_CHECK(parsed.status().code() == TCPU_ERROR_INVALID_VALUE, parsed.status().message());
    TCPU_FUZZ_CHECK(parsed.status().message().starts_with("tcpu fuzz: "),
                    parsed.status().message());
    return 0;
  }
  size_t values = 0;
  for (const cli::OptionSpec& option : spec().options) {
    const std::vector<std::string>& all = parsed->all(option.name);
    values += all.size();
    TCPU_FUZZ_CHECK(option.repeatable || all.size() <= 1, option.name);
    TCPU_FUZZ_CHECK(parsed->help || !option.required || !all.empty(), option.name);
    if (option.valueName.empty())
      for (const std::string& value : all)
        TCPU_FUZZ_CHECK(value.empty(), concat("flag --", option.name, " has value '", value, "'"));
    TCPU_FUZZ_CHECK(parsed->get(option.name).has_value() == !all.empty(), option.name);
  }
  TCPU_FUZZ_CHECK(parsed->values.size() <= spec().options.size(), "options outside the spec");
  TCPU_FUZZ_CHECK(values + parsed->positionals.size() <= arguments.size(), "values out of nowhere");
  TCPU_FUZZ_CHECK(parsed->help || (parsed->positionals.size() >= spec().minPositionals &&
                                   parsed->positionals.size() <= spec().maxPositionals),
                  concat(parsed->positionals.size(), " positionals"));
  // What tcpu run does with a number: a whole decimal in range, or an error naming it.
  if (std::optional<std::string> threads = parsed->get("num-threads")) {
    Expected<long long> count = cli::parseInteger("--num-threads", *threads, 0, 1024);
    TCPU_FUZZ_CHECK(count.ok() ? *count >= 0 && *count <= 1024
                               : count.status().message().starts_with("--num-threads"),
                    *threads);
  }
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzCommandLine)
