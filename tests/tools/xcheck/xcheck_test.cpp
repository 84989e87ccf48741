// `tcpu run --xcheck` and `tcpu xcheck --compare` end to end, on the CPU backend (the GPU side
// of the same commands is checked where a GPU exists: tests/xcheck/README.md). The comparison
// rules themselves are tested in xcheck_compare_test.cpp.
#include <dlfcn.h>

#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "cli/exit_codes.hpp"
#include "formats/npy.hpp"
#include "tool_test_support.hpp"

namespace tcpu::cli {
namespace {

using test::runTool;

const std::string kVectorAdd = TCPU_SOURCE_DIR "/kernels/ir/vector_add.ll";

class XcheckCommand : public ::testing::Test {
protected:
  // One case of a run: vector add of n rand elements, the sum judged by `rule`.
  test::CliResult runCase(const std::string& run, const std::string& seed,
                          const std::string& output = "out=exact",
                          const std::string& backend = "cpu") {
    return runTool({"run",         kVectorAdd,
                    "--kernel",    "add_kernel",
                    "--signature", "*fp32, *fp32, *fp32, i32",
                    "--grid",      "(n+1023)/1024,1,1",
                    "--arg",       "rand:3000",
                    "--arg",       "rand:3000",
                    "--arg",       "zeros:3000",
                    "--arg",       "3000",
                    "--seed",      seed,
                    "--backend",   backend,
                    "--xcheck",    "vector_add",
                    "--output",    output,
                    "--out-dir",   (dir_.path() / run / "vector_add").string()});
  }
  test::CliResult compare(const std::string& expected, const std::string& actual) {
    return runTool({"xcheck", "--compare", (dir_.path() / expected).string(),
                    (dir_.path() / actual).string()});
  }
  test::TempDir dir_;
};

TEST_F(XcheckCommand, SameRunsPassAndTheManifestSaysWhatWasRun) {
  ASSERT_EQ(runCase("a", "5").code, kExitSuccess);
  ASSERT_EQ(runCase("b", "5").code, kExitSuccess);
  const std::string manifest = test::readText(dir_.path() / "a" / "vector_add" / "xcheck.txt");
  EXPECT_NE(manifest.find("case vector_add\nkernel add_kernel\nbackend cpu\ndevice CPU ("),
            std::string::npos)
      << manifest;
  EXPECT_NE(manifest.find("seed 5\ninput x\ninput y\noutput out exact\n"), std::string::npos)
      << manifest;
  const test::CliResult result = compare("a", "b");
  EXPECT_EQ(result.code, kExitSuccess) << result.out << result.err;
  EXPECT_NE(result.out.find("all 1 outputs of 1 cases passed"), std::string::npos) << result.out;
}

TEST_F(XcheckCommand, AnOutputBeyondItsRuleFailsWithExitOne) {
  ASSERT_EQ(runCase("a", "5", "out=ulp:1").code, kExitSuccess);
  ASSERT_EQ(runCase("b", "5").code, kExitSuccess);
  // Two ULP off in one element of b's output.
  const auto file = dir_.path() / "b" / "vector_add" / "out.npy";
  Expected<NpyArray> out = readNpyFile(file);
  ASSERT_TRUE(out.ok()) << out.status().message();
  float value = 0;
  std::memcpy(&value, out->data.data() + 4 * 1234, 4);
  value = std::nextafter(std::nextafter(value, 10.0f), 10.0f);
  std::memcpy(out->data.data() + 4 * 1234, &value, 4);
  Expected<std::string> bytes = formatNpy(*out);
  ASSERT_TRUE(bytes.ok());
  test::writeText(file, *bytes);
  const test::CliResult result = compare("a", "b");
  EXPECT_EQ(result.code, kExitKernelFailure) << result.out << result.err;
  EXPECT_NE(result.out.find("ulp:1"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("FAIL"), std::string::npos) << result.out;
}

TEST_F(XcheckCommand, RunsOfDifferentInputsAreNotComparable) {
  ASSERT_EQ(runCase("a", "5").code, kExitSuccess);
  ASSERT_EQ(runCase("b", "6").code, kExitSuccess);
  const test::CliResult result = compare("a", "b");
  EXPECT_EQ(result.code, kExitKernelFailure) << result.out;
  EXPECT_NE(result.out.find("inputs differ"), std::string::npos) << result.out;
}

TEST_F(XcheckCommand, BadOutputsAndBackendsAreUsageErrors) {
  test::CliResult result = runCase("a", "5", "nothere=exact");
  EXPECT_EQ(result.code, kExitUsage);
  EXPECT_NE(result.err.find("--output nothere is neither an array parameter"), std::string::npos)
      << result.err;
  result = runCase("a", "5", "out=ulp:x");
  EXPECT_EQ(result.code, kExitUsage);
  EXPECT_NE(result.err.find("--output out=ulp:x"), std::string::npos) << result.err;
  result = runCase("a", "5", "out=exact", "gpu");
  EXPECT_EQ(result.code, kExitUsage);
  EXPECT_NE(result.err.find("--backend 'gpu' is not cpu, cuda or cuda:N"), std::string::npos)
      << result.err;
  result = compare("nothing", "nothing");
  EXPECT_EQ(result.code, kExitInputOutput) << result.out;
}

TEST_F(XcheckCommand, CudaWithoutADriverSaysSo) {
  if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY)) {
    dlclose(driver);
    GTEST_SKIP() << "a CUDA driver is present here";
  }
  const test::CliResult result = runCase("a", "5", "out=exact", "cuda");
  EXPECT_EQ(result.code, kExitInputOutput);
  EXPECT_NE(result.err.find("--backend: tcpuCtxCreate: TCPU_BACKEND_CUDA ordinal 0: no CUDA "
                            "driver"),
            std::string::npos)
      << result.err;
}

} // namespace
} // namespace tcpu::cli
