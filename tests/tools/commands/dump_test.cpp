// tcpu dump: the texts of a compiled module, with the load options applied, and the errors.
#include <gtest/gtest.h>

#include "tool_test_support.hpp"

namespace tcpu::cli {
namespace {

using test::runShell;
using test::runTool;
using test::TempDir;
using test::writeText;

const std::string kVectorAdd = TCPU_SOURCE_DIR "/kernels/ir/vector_add.ll";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Dump, AssemblyIsTheDefault) {
  const test::CliResult result = runTool({"dump", kVectorAdd});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  EXPECT_TRUE(contains(result.out, "add_kernel:")) << result.out;
  EXPECT_TRUE(contains(result.out, "\t.text")) << result.out;
  EXPECT_FALSE(contains(result.out, "define void")) << "assembly, not IR";
}

TEST(Dump, WhatSelectsTheInputOrTheOptimizedIr) {
  const test::CliResult input = runTool({"dump", kVectorAdd, "--what", "input"});
  ASSERT_EQ(input.code, kExitSuccess) << input.err;
  EXPECT_TRUE(contains(input.out, "define void @add_kernel(ptr noalias %x")) << input.out;
  EXPECT_TRUE(contains(input.out, "phi i32")) << "the loop as written, before optimization";

  const test::CliResult optimized = runTool({"dump", kVectorAdd, "--what", "ir"});
  ASSERT_EQ(optimized.code, kExitSuccess) << optimized.err;
  EXPECT_TRUE(contains(optimized.out, "define")) << optimized.out;
  EXPECT_NE(optimized.out, input.out);
  EXPECT_TRUE(contains(optimized.out, "<16 x float>") || contains(optimized.out, "<8 x float>") ||
              contains(optimized.out, "<4 x float>"))
      << "optimized IR is vectorized:\n"
      << optimized.out;
}

TEST(Dump, SignatureSpecializesTheKernel) {
  const test::CliResult plain = runTool({"dump", kVectorAdd, "--what", "ir"});
  const test::CliResult specialized =
      runTool({"dump", kVectorAdd, "--what", "ir", "--kernel-name", "add_kernel", "--signature",
               "*fp32:16, *fp32:16, *fp32:16, 4096"});
  ASSERT_EQ(specialized.code, kExitSuccess) << specialized.err;
  EXPECT_NE(specialized.out, plain.out);
  // The bound n is a constant now: the entry reads three parameters from the kernelParams array
  // (offsets 0, 8, 16) where the plain kernel reads a fourth at offset 24.
  EXPECT_TRUE(contains(plain.out, "ptr %0, i64 24")) << plain.out;
  EXPECT_FALSE(contains(specialized.out, "ptr %0, i64 24")) << specialized.out;
}

TEST(Dump, TargetSelectsTheInstructionSet) {
  const test::CliResult baseline = runTool({"dump", kVectorAdd, "--target", "x86-64"});
  ASSERT_EQ(baseline.code, kExitSuccess) << baseline.err;
  EXPECT_FALSE(contains(baseline.out, "%ymm")) << "x86-64 has no AVX";
  const test::CliResult avx2 = runTool({"dump", kVectorAdd, "--target", "x86-64-v3"});
  ASSERT_EQ(avx2.code, kExitSuccess) << avx2.err;
  EXPECT_TRUE(contains(avx2.out, "%ymm")) << avx2.out;
}

TEST(Dump, BadOptionValuesAreUsageErrors) {
  const test::CliResult what = runTool({"dump", kVectorAdd, "--what", "bitcode"});
  EXPECT_EQ(what.code, kExitUsage);
  EXPECT_TRUE(contains(what.err, "--what='bitcode' is not one of input, ir, asm")) << what.err;
  const test::CliResult target = runTool({"dump", kVectorAdd, "--target", "pentium9"});
  EXPECT_EQ(target.code, kExitUsage);
  EXPECT_TRUE(contains(target.err, "'pentium9' is not a CPU LLVM knows")) << target.err;
  const test::CliResult kernel = runTool({"dump", kVectorAdd, "--kernel-name", "mul"});
  EXPECT_EQ(kernel.code, kExitUsage);
  EXPECT_TRUE(contains(kernel.err, "no kernel named 'mul'")) << kernel.err;
  const test::CliResult signature = runTool({"dump", kVectorAdd, "--signature", "*fp32, i33"});
  EXPECT_EQ(signature.code, kExitUsage);
  EXPECT_TRUE(contains(signature.err, "signature column")) << signature.err;
  EXPECT_EQ(runTool({"dump"}).code, kExitUsage);
}

TEST(Dump, MissingOrUncompilableModulesAreInputErrors) {
  const test::CliResult missing = runTool({"dump", "no/such/kernel.ll"});
  EXPECT_EQ(missing.code, kExitInputOutput);
  EXPECT_TRUE(contains(missing.err, "module 'no/such/kernel.ll' does not exist")) << missing.err;
  const test::CliResult broken =
      runTool({"dump", TCPU_SOURCE_DIR "/tests/codegen/kernels/bad_source.cpp"});
  EXPECT_EQ(broken.code, kExitInputOutput);
  EXPECT_TRUE(contains(broken.err, "undeclared_name")) << broken.err;
  const test::CliResult folder = runTool({"dump", TCPU_SOURCE_DIR "/kernels"});
  EXPECT_EQ(folder.code, kExitInputOutput);
  EXPECT_TRUE(contains(folder.err, "is not a regular file")) << folder.err;
}

TEST(Dump, SharedObjectsHaveNoText) {
  const TempDir dir;
  writeText(dir.path() / "k.c", R"(
#include "tcpu/kernel_abi.h"
static void entry(void* const* p, uint64_t b, uint64_t e, const tcpuLaunchFrame* f) {
  (void)p; (void)b; (void)e; (void)f;
}
const tcpuKernelDesc tcpu_kernel_desc_noop = {TCPU_KERNEL_ABI_VERSION, 0, "noop", entry, 0};
)");
  const std::string library = (dir.path() / "k.so").string();
  auto [built, output] =
      runShell(std::string(TCPU_C_COMPILER) + " -shared -fPIC -I" TCPU_RUNTIME_INCLUDE_DIR " " +
               (dir.path() / "k.c").string() + " -o " + library + " 2>&1");
  ASSERT_EQ(built, 0) << output;
  const test::CliResult result = runTool({"dump", library});
  EXPECT_EQ(result.code, kExitUsage);
  EXPECT_TRUE(contains(result.err, "has no text for this format")) << result.err;
  EXPECT_TRUE(result.out.empty());
}

} // namespace
} // namespace tcpu::cli
