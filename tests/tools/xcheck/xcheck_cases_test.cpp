// Cross-check cases files (xcheck_cases.hpp): what a case is, and the errors naming the file,
// the line and the value; then `tcpu xcheck --cases` and `tcpu ptx --cases` over a small file.
#include <gtest/gtest.h>

#include "cli/exit_codes.hpp"
#include "tool_test_support.hpp"
#include "xcheck/xcheck_cases.hpp"

namespace tcpu::cli {
namespace {

using test::runTool;

TEST(XcheckCases, NameModuleArgumentsContinuationsAndQuotes) {
  Expected<std::vector<XcheckCase>> cases =
      parseXcheckCases("# comment\n"
                       "\n"
                       "add  vector_add.bc -k add_kernel --signature \"*fp32, i32\"\n"
                       "    --grid '(n+3)/4,1,1'   --arg rand:9\n"
                       "  # an indented comment\n"
                       "copy copy.bc --kernel=copy\n",
                       "cases.txt");
  ASSERT_TRUE(cases.ok()) << cases.status().message();
  ASSERT_EQ(cases->size(), 2u);
  const XcheckCase& add = (*cases)[0];
  EXPECT_EQ(add.name, "add");
  EXPECT_EQ(add.module, "vector_add.bc");
  EXPECT_EQ(add.line, 3u);
  EXPECT_EQ(add.runArguments,
            (std::vector<std::string>{"-k", "add_kernel", "--signature", "*fp32, i32", "--grid",
                                      "(n+3)/4,1,1", "--arg", "rand:9"}));
  EXPECT_EQ(caseOption(add, "kernel", 'k'), "add_kernel");
  EXPECT_EQ(caseOption(add, "signature"), "*fp32, i32");
  EXPECT_EQ(caseOption(add, "seed"), std::nullopt);
  EXPECT_EQ(caseOption((*cases)[1], "kernel", 'k'), "copy");
  EXPECT_EQ(
      withoutOption(add.runArguments, "signature"),
      (std::vector<std::string>{"-k", "add_kernel", "--grid", "(n+3)/4,1,1", "--arg", "rand:9"}));
}

TEST(XcheckCases, ErrorsNameTheFileTheLineAndTheValue) {
  const auto message = [](std::string_view text) {
    Expected<std::vector<XcheckCase>> cases = parseXcheckCases(text, "c.txt");
    EXPECT_FALSE(cases.ok()) << text;
    EXPECT_EQ(cases.status().code(), TCPU_ERROR_INVALID_VALUE);
    return cases.ok() ? std::string() : cases.status().message();
  };
  EXPECT_EQ(message("a m.bc --grid \"1,1,1\n"), "c.txt:1: unterminated \" quote");
  EXPECT_EQ(message("a m.bc\nb m.bc\na m.bc\n"), "c.txt:3: case 'a' is defined twice");
  EXPECT_EQ(message("  --arg 1\n"),
            "c.txt:1: an indented line continues a case, but no case started");
  EXPECT_EQ(message("lonely\n"), "c.txt:1: a case starts with its name and its module");
  EXPECT_EQ(message("a m.bc\nb \"\" -k k\n"), "c.txt:2: case 'b' has an empty module");
  EXPECT_NE(message("../up m.bc\n").find("case name '../up' must be"), std::string::npos);
  EXPECT_EQ(message("# nothing\n"), "c.txt: no cases");
}

TEST(XcheckCases, SelectKeepsFileOrderAndNamesUnknownCases) {
  Expected<std::vector<XcheckCase>> cases = parseXcheckCases("a m\nb m\nc m\n", "c.txt");
  ASSERT_TRUE(cases.ok());
  Expected<std::vector<XcheckCase>> selected = selectXcheckCases(*cases, {"c", "a"});
  ASSERT_TRUE(selected.ok());
  ASSERT_EQ(selected->size(), 2u);
  EXPECT_EQ((*selected)[0].name, "a");
  EXPECT_EQ((*selected)[1].name, "c");
  Expected<std::vector<XcheckCase>> unknown = selectXcheckCases(*cases, {"d"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), TCPU_ERROR_NOT_FOUND);
  EXPECT_EQ(unknown.status().message(), "--case d: no such case (the cases: a, b, c)");
}

// Two cases of the IR vector add; the second's generators differ so that its run differs.
class XcheckCasesCommand : public ::testing::Test {
protected:
  void SetUp() override {
    test::writeText(dir_.path() / "cases.txt",
                    "add vector_add.ll -k add_kernel --signature \"*fp32, *fp32, *fp32, i32\"\n"
                    "    --grid \"(n+1023)/1024,1,1\" --arg rand:1500 --arg rand:1500\n"
                    "    --arg zeros:1500 --arg 1500 --seed 3 --output out=exact\n"
                    "add_full vector_add.ll -k add_kernel --signature \"*fp32,*fp32,*fp32,i32\"\n"
                    "    --grid \"(n+1023)/1024,1,1\" --arg full:7:1.5 --arg arange:7\n"
                    "    --arg zeros:7 --arg 7 --output out=exact\n");
  }
  test::CliResult runCases(const std::string& run, std::vector<std::string> extra = {}) {
    std::vector<std::string> arguments{"xcheck",
                                       "--cases",
                                       cases(),
                                       "--modules",
                                       kModules,
                                       "--out-dir",
                                       (dir_.path() / run).string()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return runTool(arguments);
  }
  std::string cases() const { return (dir_.path() / "cases.txt").string(); }
  const std::string kModules = TCPU_SOURCE_DIR "/kernels/ir";
  test::TempDir dir_;
};

TEST_F(XcheckCasesCommand, RunsEveryCaseIntoItsDirectoryAndTheRunsCompare) {
  const test::CliResult first = runCases("a");
  ASSERT_EQ(first.code, kExitSuccess) << first.out << first.err;
  EXPECT_NE(first.out.find("2 of 2 cases ran on cpu"), std::string::npos) << first.out;
  const std::string manifest = test::readText(dir_.path() / "a" / "add_full" / "xcheck.txt");
  EXPECT_NE(manifest.find("case add_full\nkernel add_kernel\nbackend cpu\n"), std::string::npos)
      << manifest;
  ASSERT_EQ(runCases("b").code, kExitSuccess);
  const test::CliResult same =
      runTool({"xcheck", "--compare", (dir_.path() / "a").string(), (dir_.path() / "b").string()});
  EXPECT_EQ(same.code, kExitSuccess) << same.out << same.err;
  EXPECT_NE(same.out.find("all 2 outputs of 2 cases passed"), std::string::npos) << same.out;
}

TEST_F(XcheckCasesCommand, CaseSelectsAndAFailingCaseDoesNotStopTheOthers) {
  const test::CliResult one = runCases("one", {"--case", "add_full"});
  ASSERT_EQ(one.code, kExitSuccess) << one.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "one" / "add"));
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "one" / "add_full" / "out.npy"));

  // A modules directory without the module: every case fails, each named with its line.
  const test::CliResult missing =
      runTool({"xcheck", "--cases", cases(), "--modules", dir_.path().string(), "--out-dir",
               (dir_.path() / "m").string()});
  EXPECT_EQ(missing.code, kExitKernelFailure);
  EXPECT_NE(missing.err.find("case add (" + cases() + ":1) failed"), std::string::npos)
      << missing.err;
  EXPECT_NE(missing.err.find("case add_full (" + cases() + ":4) failed"), std::string::npos)
      << missing.err;
  EXPECT_NE(missing.out.find("0 of 2 cases ran on cpu"), std::string::npos) << missing.out;
}

TEST_F(XcheckCasesCommand, UsageErrorsNameWhatIsWrong) {
  const auto err = [](const test::CliResult& result) {
    EXPECT_NE(result.code, kExitSuccess);
    return result.err;
  };
  EXPECT_NE(err(runTool({"xcheck", "--cases", cases(), "--out-dir", "x"}))
                .find("--cases needs --modules"),
            std::string::npos);
  EXPECT_NE(err(runTool({"xcheck", "--cases", cases(), "--compare", "a", "b"}))
                .find("give exactly one of --compare and --cases"),
            std::string::npos);
  EXPECT_NE(err(runCases("u", {"--case", "nope"})).find("--case nope: no such case"),
            std::string::npos);
  const test::CliResult unreadable = runTool(
      {"xcheck", "--cases", "/nonexistent/cases.txt", "--modules", kModules, "--out-dir", "x"});
  EXPECT_EQ(unreadable.code, kExitInputOutput);
  EXPECT_NE(unreadable.err.find("/nonexistent/cases.txt"), std::string::npos) << unreadable.err;
  test::writeText(dir_.path() / "bad.txt", "add m.ll --grid \"1,1,1\n");
  const test::CliResult malformed =
      runTool({"xcheck", "--cases", (dir_.path() / "bad.txt").string(), "--modules", kModules,
               "--out-dir", "x"});
  EXPECT_EQ(malformed.code, kExitUsage);
  EXPECT_NE(malformed.err.find("bad.txt:1: unterminated \" quote"), std::string::npos)
      << malformed.err;
}

TEST_F(XcheckCasesCommand, PtxCasesWritesOneTypedModulePerCase) {
  const test::CliResult result =
      runTool({"ptx", "--cases", cases(), "--modules", kModules, "--out-dir",
               (dir_.path() / "ptx").string(), "--arch", "sm_70"});
  ASSERT_EQ(result.code, kExitSuccess) << result.out << result.err;
  for (const char* name : {"add", "add_full"}) {
    const std::string ptx = test::readText(dir_.path() / "ptx" / (std::string(name) + ".ptx"));
    // The case's signature typed the kernel's pointers for the CUDA backend.
    EXPECT_NE(ptx.find("// tcpu.kernel add_kernel x:*fp32 y:*fp32 out:*fp32 n:i32"),
              std::string::npos)
        << name << ":\n"
        << ptx.substr(0, 400);
    EXPECT_NE(ptx.find(".entry add_kernel"), std::string::npos);
  }
}

} // namespace
} // namespace tcpu::cli
