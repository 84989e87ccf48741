// tcpu ptx: a kernel module (IR or tl source, the same the CPU runs) compiled for an NVIDIA GPU,
// written all or nothing, and the errors with their exit codes.
#include <gtest/gtest.h>

#include <filesystem>

#include "tool_test_support.hpp"

namespace tcpu::cli {
namespace {

using test::runTool;
using test::TempDir;

const std::string kVectorAdd = TCPU_SOURCE_DIR "/kernels/ir/vector_add.ll";
const std::string kTlVectorAdd = TCPU_SOURCE_DIR "/kernels/tutorials/vector_add.cpp";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Ptx, PrintsThePtxOfEveryKernel) {
  const test::CliResult result = runTool({"ptx", kVectorAdd});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  EXPECT_TRUE(contains(result.out, ".entry add_kernel(")) << result.out;
  EXPECT_TRUE(contains(result.out, ".target sm_90")) << result.out;
  EXPECT_TRUE(contains(result.out, "%ctaid.x")) << "the program id is the block's";
}

TEST(Ptx, TlSourceToAFileWithItsKernelsListed) {
  TempDir directory;
  const std::string output = (directory.path() / "add.ptx").string();
  const test::CliResult result = runTool({"ptx", kTlVectorAdd, "--arch", "sm_80", "--signature",
                                          "*fp32:16, *fp32:16, *fp32:16, i32", "-o", output});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  EXPECT_EQ(result.out, "add_kernel(ptr x_ptr, ptr y_ptr, ptr output_ptr, i32 n_elements)\n");
  const std::string ptx = test::readText(output);
  EXPECT_TRUE(contains(ptx, ".target sm_80")) << ptx;
  EXPECT_TRUE(contains(ptx, ".entry add_kernel(")) << ptx;
}

TEST(Ptx, ErrorsNameTheArgumentAndWriteNothing) {
  TempDir directory;
  const std::string output = (directory.path() / "out.ptx").string();
  const test::CliResult arch = runTool({"ptx", kVectorAdd, "--arch", "sm_20", "-o", output});
  EXPECT_EQ(arch.code, kExitUsage);
  EXPECT_TRUE(contains(arch.err, "arch 'sm_20'")) << arch.err;
  const test::CliResult kernel =
      runTool({"ptx", kVectorAdd, "--kernel-name", "nope", "--signature", "*fp32", "-o", output});
  EXPECT_EQ(kernel.code, kExitUsage);
  EXPECT_TRUE(contains(kernel.err, "no kernel named 'nope'")) << kernel.err;
  const test::CliResult missing = runTool({"ptx", "/nonexistent/k.ll", "-o", output});
  EXPECT_EQ(missing.code, kExitInputOutput);
  EXPECT_TRUE(contains(missing.err, "/nonexistent/k.ll")) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(output));
}

} // namespace
} // namespace tcpu::cli
