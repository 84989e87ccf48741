// The argument parser every subcommand uses, and the top-level dispatch.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{"demo",
                        "<input> [options]",
                        "a command for tests",
                        "",
                        {{"name", "NAME", "a name", 0, true},
                         {"out", "PATH", "where to write", 'o'},
                         {"arg", "VALUE", "repeatable", 0, false, true},
                         {"verbose", "", "a flag"}},
                        1,
                        1};

Expected<ParsedArguments> parse(std::vector<std::string> arguments) {
  return parseArguments(kSpec, arguments);
}

TEST(CommandLine, ParsesLongShortInlineAndRepeatedOptions) {
  Expected<ParsedArguments> parsed =
      parse({"in.cpp", "--name", "k", "-o", "x.h", "--arg=1", "--arg", "2", "--verbose"});
  ASSERT_TRUE(parsed) << parsed.status().message();
  EXPECT_EQ(parsed->positionals, std::vector<std::string>{"in.cpp"});
  EXPECT_EQ(parsed->get("name"), "k");
  EXPECT_EQ(parsed->get("out"), "x.h");
  EXPECT_EQ(parsed->all("arg"), (std::vector<std::string>{"1", "2"}));
  EXPECT_TRUE(parsed->has("verbose"));
  EXPECT_FALSE(parsed->has("missing"));
}

TEST(CommandLine, ErrorsNameTheArgumentAndValue) {
  auto message = [](std::vector<std::string> arguments) {
    Expected<ParsedArguments> parsed = parse(std::move(arguments));
    EXPECT_FALSE(parsed);
    return parsed ? std::string() : parsed.status().message();
  };
  EXPECT_NE(message({"in", "--name", "k", "--nmae", "x"}).find("unknown option '--nmae'"),
            std::string::npos);
  EXPECT_NE(message({"in", "--name"}).find("option --name needs a value (NAME)"),
            std::string::npos);
  EXPECT_NE(message({"in"}).find("missing required option --name"), std::string::npos);
  EXPECT_NE(message({"in", "--name", "a", "--name", "b"}).find("is given twice ('a' and 'b')"),
            std::string::npos);
  EXPECT_NE(message({"in", "--name", "a", "--verbose=yes"}).find("takes no value (got 'yes')"),
            std::string::npos);
  EXPECT_NE(message({"in", "extra", "--name", "a"}).find("unexpected argument 'extra'"),
            std::string::npos);
  EXPECT_NE(message({"--name", "a"}).find("0 positional"), std::string::npos);
}

TEST(CommandLine, HelpSkipsRequiredChecksAndListsOptions) {
  Expected<ParsedArguments> parsed = parse({"--help"});
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(parsed->help);
  const std::string help = helpText(kSpec);
  EXPECT_NE(help.find("usage: tcpu demo <input> [options]"), std::string::npos);
  EXPECT_NE(help.find("-o, --out PATH"), std::string::npos);
  EXPECT_NE(help.find("(required)"), std::string::npos);
}

TEST(CommandLine, IntegersAreWholeAndInRange) {
  EXPECT_EQ(*parseInteger("--num-threads", "8", 0, 1024), 8);
  EXPECT_FALSE(parseInteger("--num-threads", "8x", 0, 1024));
  EXPECT_FALSE(parseInteger("--num-threads", "", 0, 1024));
  Expected<long long> big = parseInteger("--num-threads", "5000", 0, 1024);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.status().message(), "--num-threads=5000 is out of range [0, 1024]");
}

int cli(std::vector<std::string> arguments, std::string& out, std::string& err) {
  std::ostringstream o, e;
  const int code = runCli(arguments, {o, e});
  out = o.str();
  err = e.str();
  return code;
}

TEST(Cli, DispatchesAndReportsUnknownCommands) {
  std::string out, err;
  EXPECT_EQ(cli({}, out, err), kExitUsage);
  EXPECT_EQ(cli({"frobnicate"}, out, err), kExitUsage);
  EXPECT_NE(err.find("unknown command 'frobnicate'"), std::string::npos);
  EXPECT_EQ(cli({"--help"}, out, err), kExitSuccess);
  for (const char* command : {"compile", "link", "run", "info", "cache", "dump"}) {
    EXPECT_NE(out.find(command), std::string::npos) << command;
    std::string commandOut, commandErr;
    EXPECT_EQ(cli({command, "--help"}, commandOut, commandErr), kExitSuccess) << command;
    EXPECT_NE(commandOut.find(std::string("usage: tcpu ") + command), std::string::npos) << command;
  }
  EXPECT_EQ(cli({"--version"}, out, err), kExitSuccess);
  EXPECT_EQ(out.rfind("tcpu ", 0), 0u);
}

} // namespace
} // namespace tcpu::cli
