// Runs every fuzz target (built without libFuzzer, TCPU_FUZZ_NO_ENTRY) over its checked-in
// crash reproducers (regressions/<target>/) and its seed corpus (corpus/<target>/), in the
// normal build: a fixed parser stays fixed, and the seeds keep passing the targets' checks.
// A failed invariant aborts the process with the file:line of the check.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cache/object_cache.hpp"
#include "fuzz_support.hpp"
#include "pipeline/compile_module.hpp"

namespace {

namespace fs = std::filesystem;
using tcpu::fuzz::FuzzTarget;

const fs::path kFuzzDir = TCPU_FUZZ_DIR;

std::string readBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The files of a directory, sorted (a missing directory has none).
std::vector<fs::path> filesIn(const fs::path& directory) {
  std::vector<fs::path> files;
  std::error_code error;
  if (!fs::is_directory(directory, error)) return files;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory))
    if (entry.is_regular_file() && entry.path().filename().string().front() != '.')
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Inputs on which LLVM itself leaks, by their names (tests/fuzz/README.md, "Known LLVM
// limitations"): "*llvm_fatal_error*" (crash recovery unwinds an LLVM fatal error without
// running destructors: all the compile had allocated leaks) and "*_leak" (LLVM 19's bitcode
// reader leaks what it built before an error). tcpu cannot free that memory, so these inputs
// run in a child process that ends with _exit, skipping LeakSanitizer's check at exit (the
// sanitizer stage runs this test); every other input runs here, checked for leaks.
bool llvmLeaksOn(const fs::path& file) {
  const std::string name = file.filename().string();
  return name.find("llvm_fatal_error") != std::string::npos || name.ends_with("_leak");
}

// The target's result on `bytes`, in a child process for inputs LLVM leaks on; -1 if the
// child did not exit normally.
int runTarget(const FuzzTarget& target, const std::string& bytes, bool inChild) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  if (!inChild) return target.function(data, bytes.size());
  const pid_t child = fork();
  if (child == 0) _exit(target.function(data, bytes.size()) == 0 ? 0 : 1);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

class FuzzTargetInputs : public testing::TestWithParam<FuzzTarget> {
protected:
  static void runAll(const FuzzTarget& target, const fs::path& directory) {
    for (const fs::path& file : filesIn(directory)) {
      SCOPED_TRACE(file.string());
      const std::string bytes = readBytes(file);
      EXPECT_EQ(runTarget(target, bytes, llvmLeaksOn(file)), 0);
    }
  }
};

TEST_P(FuzzTargetInputs, Regressions) {
  runAll(GetParam(), kFuzzDir / "regressions" / GetParam().name);
}

TEST_P(FuzzTargetInputs, SeedCorpus) {
  const fs::path directory = kFuzzDir / "corpus" / GetParam().name;
  EXPECT_FALSE(filesIn(directory).empty()) << "no seeds in " << directory;
  runAll(GetParam(), directory);
}

INSTANTIATE_TEST_SUITE_P(Fuzz, FuzzTargetInputs, testing::ValuesIn(tcpu::fuzz::kFuzzTargets),
                         [](const testing::TestParamInfo<FuzzTarget>& target) {
                           return std::string(target.param.name);
                         });

// The targets accept any Status from a compile; the fix for this one is a specific refusal.
TEST(FuzzFixes, AppendingGlobalThatIsNotSpecialIsRefusedWhenParsing) {
  const std::string bytes =
      readBytes(kFuzzDir / "regressions" / "ir" / "appending_global_not_special");
  tcpu::Expected<tcpu::codegen::TargetDescription> target = tcpu::codegen::describeTarget("");
  ASSERT_TRUE(target.ok()) << target.status().message();
  tcpu::codegen::CompileRequest request;
  request.bytes = std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
  request.name = "appending.ll";
  request.target = *target;
  tcpu::Expected<tcpu::codegen::CompiledModule> compiled = tcpu::codegen::compileModule(request);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), TCPU_ERROR_INVALID_SOURCE) << compiled.status().message();
  EXPECT_NE(compiled.status().message().find("@llvm.glspirv32ors has appending linkage"),
            std::string::npos)
      << compiled.status().message();
}

// The cache-entry seed is serializeEntry's output for this module. When the entry format
// changes on purpose, regenerate it: TCPU_FUZZ_WRITE_SEEDS=1 ./fuzz_regressions_test
// --gtest_filter='*CacheEntrySeed*'.
TEST(FuzzSeeds, CacheEntrySeedIsCurrent) {
  tcpu::codegen::CompiledModule module;
  tcpu::codegen::KernelInfo kernel;
  kernel.name = "add_kernel";
  kernel.entrySymbol = "__tcpu_entry_add_kernel";
  for (const char* name : {"x_ptr", "y_ptr", "output_ptr"}) {
    kernel.params.push_back({TCPU_TYPE_PTR, TCPU_TYPE_FP32, 8, 8, nullptr});
    kernel.paramNames.push_back(name);
  }
  kernel.params.push_back({TCPU_TYPE_I32, TCPU_TYPE_UNKNOWN, 4, 4, nullptr});
  kernel.paramNames.push_back("n_elements");
  module.kernels.push_back(kernel);
  tcpu::codegen::KernelInfo bare;
  bare.name = "empty";
  bare.entrySymbol = "__tcpu_entry_empty";
  bare.flags = TCPU_KERNEL_PROGRAMS_WAIT;
  module.kernels.push_back(bare);
  module.object = "\x7f"
                  "ELF: the reader never looks inside the object";
  const std::string bytes = tcpu::codegen::serializeEntry(module);
  const fs::path seed = kFuzzDir / "corpus" / "cache_entry" / "two_kernels.tcpuobj";
  if (const char* write = std::getenv("TCPU_FUZZ_WRITE_SEEDS");
      write && std::string(write) == "1") {
    std::ofstream(seed, std::ios::binary | std::ios::trunc) << bytes;
  }
  EXPECT_EQ(readBytes(seed), bytes) << seed
                                    << " is not the current entry format; regenerate it "
                                       "with TCPU_FUZZ_WRITE_SEEDS=1";
}

} // namespace
