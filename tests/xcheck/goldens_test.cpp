// The CPU backend's outputs against the GPU's: every case of kernels/xcheck_cases.txt runs on
// the CPU (from the build's tutorial bitcode) and is judged, output by output, by its rule
// against the committed outputs of the same case on an NVIDIA GPU (tests/goldens/gpu,
// tests/goldens/README.md says how they were made). Where a CUDA GPU is present, each case
// also runs live on it (PTX compiled here by `tcpu ptx --cases`) and is compared the same way.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli_result.hpp"
#include "tcpu/tcpu.h"
#include "temp_dir.hpp"
#include "xcheck/xcheck_cases.hpp"
#include "xcheck/xcheck_compare.hpp"

namespace tcpu::test {
namespace {

const std::filesystem::path kGoldens = TCPU_XCHECK_GOLDENS;

std::vector<std::string> caseNames() {
  std::vector<std::string> names;
  if (Expected<std::vector<cli::XcheckCase>> cases = cli::readXcheckCases(TCPU_XCHECK_CASES))
    for (const cli::XcheckCase& xcheckCase : *cases)
      names.push_back(xcheckCase.name);
  return names;
}

// Runs one case on a backend into run/<case>, as `tcpu xcheck --cases` does.
void runCase(const std::string& name, const std::string& backend,
             const std::filesystem::path& modules, const std::filesystem::path& run) {
  const CliResult result =
      runTool({"xcheck", "--cases", TCPU_XCHECK_CASES, "--case", name, "--backend", backend,
               "--modules", modules.string(), "--out-dir", run.string()});
  ASSERT_EQ(result.code, cli::kExitSuccess) << result.out << result.err;
}

void expectSameByRules(const std::filesystem::path& expected, const std::filesystem::path& actual) {
  std::ostringstream report;
  Expected<bool> passed = cli::compareRunDirectories(expected, actual, report);
  ASSERT_TRUE(passed.ok()) << passed.status().message();
  EXPECT_TRUE(*passed) << report.str();
}

TEST(XcheckGoldens, EveryCaseHasAGoldenAndEveryGoldenACase) {
  const std::vector<std::string> names = caseNames();
  ASSERT_FALSE(names.empty()) << TCPU_XCHECK_CASES << " has no readable cases";
  std::set<std::string> goldens;
  for (const auto& entry : std::filesystem::directory_iterator(kGoldens))
    if (entry.is_directory()) goldens.insert(entry.path().filename().string());
  EXPECT_EQ(goldens, std::set<std::string>(names.begin(), names.end()))
      << "regenerate tests/goldens/gpu as tests/goldens/README.md says";
}

class XcheckCase : public ::testing::TestWithParam<std::string> {};

TEST_P(XcheckCase, CpuMatchesTheGpuGoldens) {
  const TempDir run;
  runCase(GetParam(), "cpu", TCPU_XCHECK_MODULES, run.path());
  if (HasFatalFailure()) return;
  expectSameByRules(kGoldens / GetParam(), run.path() / GetParam());
}

TEST_P(XcheckCase, CpuMatchesTheGpuLive) {
  tcpuContext context = nullptr;
  if (tcpuCtxCreate(&context, TCPU_BACKEND_CUDA, 0) != TCPU_SUCCESS)
    GTEST_SKIP() << "no CUDA GPU here: " << tcpuGetLastErrorDetail();
  tcpuCtxDestroy(context);
  const TempDir work;
  const CliResult ptx = runTool({"ptx", "--cases", TCPU_XCHECK_CASES, "--case", GetParam(),
                                 "--modules", TCPU_XCHECK_MODULES, "--out-dir",
                                 (work.path() / "ptx").string(), "--arch", "sm_70"});
  ASSERT_EQ(ptx.code, cli::kExitSuccess) << ptx.out << ptx.err;
  runCase(GetParam(), "cuda", work.path() / "ptx", work.path() / "gpu");
  runCase(GetParam(), "cpu", TCPU_XCHECK_MODULES, work.path() / "cpu");
  if (HasFatalFailure()) return;
  expectSameByRules(work.path() / "gpu" / GetParam(), work.path() / "cpu" / GetParam());
}

INSTANTIATE_TEST_SUITE_P(ReferenceKernels, XcheckCase, ::testing::ValuesIn(caseNames()),
                         [](const ::testing::TestParamInfo<std::string>& testCase) {
                           return testCase.param;
                         });

} // namespace
} // namespace tcpu::test
