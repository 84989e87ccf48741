// tcpu-rt, the tool for machines without LLVM (a GPU host): a real process, built without
// codegen, that runs precompiled modules and compares runs, and says so for anything else.
#include <gtest/gtest.h>

#include "cli/exit_codes.hpp"
#include "tool_test_support.hpp"

namespace tcpu::cli {
namespace {

const std::string kTool = TCPU_RT_PATH;
const std::string kVectorAdd = TCPU_SOURCE_DIR "/kernels/ir/vector_add.ll";

TEST(RuntimeOnlyTool, OffersRunAndXcheckOnly) {
  const auto [code, out] = test::runShell(kTool + " --help");
  EXPECT_EQ(code, kExitSuccess);
  EXPECT_NE(out.find("usage: tcpu-rt <command>"), std::string::npos) << out;
  EXPECT_NE(out.find("  run "), std::string::npos) << out;
  EXPECT_NE(out.find("  xcheck "), std::string::npos) << out;
  EXPECT_EQ(out.find("  compile "), std::string::npos) << out;
  const auto [unknown, message] = test::runShell(kTool + " ptx x.ll 2>&1");
  EXPECT_EQ(unknown, kExitUsage);
  EXPECT_NE(message.find("tcpu-rt: unknown command 'ptx'"), std::string::npos) << message;
}

TEST(RuntimeOnlyTool, IrNeedsCodegenAndSaysSo) {
  const auto [code, out] =
      test::runShell(kTool + " run " + kVectorAdd +
                     " -k add_kernel --grid 1,1,1 --arg zeros:4 --arg zeros:4 --arg zeros:4"
                     " --arg 4 --out-dir /tmp 2>&1");
  EXPECT_EQ(code, kExitInputOutput);
  EXPECT_NE(out.find("LLVM IR and kernel source load once tcpu_codegen is linked"),
            std::string::npos)
      << out;
}

TEST(RuntimeOnlyTool, ComparesRunsMadeByTheFullTool) {
  const test::TempDir dir;
  for (const char* run : {"a", "b"}) {
    const test::CliResult made =
        test::runTool({"run",         kVectorAdd,
                       "-k",          "add_kernel",
                       "--signature", "*fp32, *fp32, *fp32, i32",
                       "--grid",      "1,1,1",
                       "--arg",       "rand:100",
                       "--arg",       "rand:100",
                       "--arg",       "zeros:100",
                       "--arg",       "100",
                       "--xcheck",    "add",
                       "--output",    "out",
                       "--out-dir",   (dir.path() / run / "add").string()});
    ASSERT_EQ(made.code, kExitSuccess) << made.err;
  }
  const auto [code, out] =
      test::runShell(kTool + " xcheck --compare " + (dir.path() / "a").string() + " " +
                     (dir.path() / "b").string());
  EXPECT_EQ(code, kExitSuccess) << out;
  EXPECT_NE(out.find("all 1 outputs of 1 cases passed"), std::string::npos) << out;
}

} // namespace
} // namespace tcpu::cli
