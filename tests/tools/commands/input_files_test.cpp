// Every command that reads an input file (tcpu compile, tcpu ptx, tcpu xcheck --cases) gets
// what is not a readable kernel or manifest as an exit status and a message naming the path:
// a directory (which once aborted the tool from inside libstdc++), a FIFO (which would block
// forever if opened), an empty file, a file too large to be an input, a path whose name is not
// UTF-8, and an unreadable file. All go through formats/input_files.cpp.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli_result.hpp"
#include "formats/input_files.hpp"
#include "temp_dir.hpp"

namespace {

using tcpu::cli::kExitInputOutput;
using tcpu::test::CliResult;
using tcpu::test::runTool;

// Each command, run on `input`.
std::vector<std::pair<std::string, CliResult>> runEachCommand(const std::string& input,
                                                              const tcpu::test::TempDir& dir) {
  const std::string out = (dir.path() / "out").string();
  return {
      {"compile", runTool({"compile", input, "--kernel-name", "k", "--signature", "*fp32", "--grid",
                           "1,1,1", "--out-path", out})},
      {"ptx", runTool({"ptx", input, "-o", out + ".ptx"})},
      {"xcheck --cases",
       runTool({"xcheck", "--cases", input, "--modules", dir.path().string(), "--out-dir", out})},
  };
}

void expectRefused(const std::string& input, const std::string& why,
                   const tcpu::test::TempDir& dir) {
  for (const auto& [command, result] : runEachCommand(input, dir)) {
    EXPECT_EQ(result.code, kExitInputOutput) << command << ": " << result.err;
    EXPECT_NE(result.err.find(input), std::string::npos) << command << ": " << result.err;
    EXPECT_NE(result.err.find(why), std::string::npos) << command << ": " << result.err;
  }
}

TEST(InputFiles, ADirectoryIsRefusedNotRead) {
  tcpu::test::TempDir dir;
  const auto folder = dir.path() / "kernel.ll";
  std::filesystem::create_directory(folder);
  expectRefused(folder.string(), "is not a regular file", dir);
}

TEST(InputFiles, AFifoIsRefusedWithoutOpeningIt) {
  tcpu::test::TempDir dir;
  const auto fifo = dir.path() / "kernel.cpp";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expectRefused(fifo.string(), "is not a regular file", dir); // no writer: opening would block
}

TEST(InputFiles, AFileLargerThanAnInputIsRefusedBeforeReading) {
  tcpu::test::TempDir dir;
  const auto huge = dir.path() / "huge.ll";
  {
    std::ofstream(huge.string()).put('x');
  }
  std::filesystem::resize_file(huge, tcpu::cli::kMaxInputFileBytes + 1); // sparse: no disk used
  expectRefused(huge.string(), "more than an input may be", dir);
}

TEST(InputFiles, AMissingPathWhoseNameIsNotUtf8IsNamed) {
  tcpu::test::TempDir dir;
  const std::string name = (dir.path() / "k\xff\xfe.ll").string();
  expectRefused(name, "does not exist", dir);
}

TEST(InputFiles, AnEmptyFileIsAnErrorOfTheCommandNotACrash) {
  tcpu::test::TempDir dir;
  for (const char* name : {"empty.ll", "empty.cpp", "empty.txt"}) {
    const auto empty = dir.path() / name;
    {
      std::ofstream(empty.string()).flush();
    }
    for (const auto& [command, result] : runEachCommand(empty.string(), dir)) {
      EXPECT_NE(result.code, 0) << command << " " << name;
      EXPECT_LE(result.code, kExitInputOutput) << command << " " << name << ": " << result.err;
      EXPECT_FALSE(result.err.empty()) << command << " " << name;
    }
  }
}

TEST(InputFiles, AnUnreadableFileIsRefused) {
  if (geteuid() == 0) GTEST_SKIP() << "running as root, which reads files whatever their mode";
  tcpu::test::TempDir dir;
  const auto locked = dir.path() / "kernel.ll";
  {
    std::ofstream(locked.string()) << "; module\n";
  }
  ASSERT_EQ(chmod(locked.c_str(), 0), 0);
  expectRefused(locked.string(), "cannot be opened", dir);
}

} // namespace
