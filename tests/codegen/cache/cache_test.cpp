// The persistent compile cache: hits, misses, corrupt entries, options in the
// key, and several processes compiling the same kernel at once.
#include <spawn.h>
#include <sys/wait.h>

#include <fstream>
#include <iterator>
#include <vector>

#include "codegen_test_support.hpp"

extern char** environ;

namespace tcpu::test {
namespace {

std::vector<std::filesystem::path> entries(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> found;
  if (!std::filesystem::exists(directory)) return found;
  for (const auto& item : std::filesystem::directory_iterator(directory))
    found.push_back(item.path());
  return found;
}

std::string readAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeAll(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

class Cache : public CodegenTest {
protected:
  // Runs vector_add from `module` and checks its output.
  void expectAddWorks(tcpuModule module) {
    std::vector<float> x(2000, 1.5f), out(2000, 0.0f);
    float *px = x.data(), *po = out.data();
    int32_t n = 2000;
    void* params[] = {&px, &px, &po, &n};
    ASSERT_TCPU(tcpuLaunchKernel(function(module, "add_kernel"), 2, 1, 1, 1, 1, 1, 0, nullptr,
                                 params, nullptr));
    EXPECT_EQ(out, std::vector<float>(2000, 3.0f));
  }
};

TEST_F(Cache, MissStoresAnEntryAndAHitUsesIt) {
  expectAddWorks(load("vector_add.ll"));
  const auto stored = entries(cacheDir_);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].extension(), ".tcpuobj");
  // Swap in the entry of a different kernel under this key: a hit must use it
  // (proof the second load reads the cache instead of compiling).
  const std::string original = readAll(stored[0]);
  const std::filesystem::path scaleDir = cacheDir_ / "other";
  setenv("TCPU_CACHE_DIR", scaleDir.c_str(), 1);
  load("program_ids.ll");
  const auto other = entries(scaleDir);
  ASSERT_EQ(other.size(), 1u);
  writeAll(stored[0], readAll(other[0]));
  setenv("TCPU_CACHE_DIR", cacheDir_.c_str(), 1);
  tcpuModule module;
  ASSERT_TCPU(tcpuModuleLoad(&module, irPath("vector_add.ll").c_str()));
  modules_.push_back(module);
  tcpuFunction f;
  EXPECT_EQ(tcpuModuleGetFunction(&f, module, "program_ids"), TCPU_SUCCESS);
  writeAll(stored[0], original);
}

TEST_F(Cache, CorruptOrTruncatedEntriesAreRecompiled) {
  load("vector_add.ll");
  const auto stored = entries(cacheDir_);
  ASSERT_EQ(stored.size(), 1u);
  const std::string good = readAll(stored[0]);
  const std::vector<std::string> damaged = {
      good.substr(0, good.size() / 2), // truncated
      good.substr(0, 10),              // header cut
      std::string(good).replace(
          good.size() / 2, 1, 1,
          static_cast<char>(good[good.size() / 2] ^ 0x5a)), // one byte flipped
      "",                                                   // empty
      std::string(good.size(), '\xff'),                     // garbage
  };
  for (const std::string& bytes : damaged) {
    writeAll(stored[0], bytes);
    tcpuModule module;
    ASSERT_TCPU(tcpuModuleLoad(&module, irPath("vector_add.ll").c_str()));
    modules_.push_back(module);
    expectAddWorks(module);
    EXPECT_EQ(readAll(stored[0]), good) << "the damaged entry was not rewritten";
  }
}

TEST_F(Cache, OptionsAndDisableAreHonoured) {
  load("vector_add.ll");
  load("vector_add.ll", JitOptions().set(TCPU_JIT_FP_CONTRACT, uintptr_t{0}));
  load("vector_add.ll", JitOptions().set(TCPU_JIT_SIGNATURE, "*fp32:16, *fp32:16, *fp32:16, i32"));
  EXPECT_EQ(entries(cacheDir_).size(), 3u) << "each option set is its own entry";
  load("vector_add.ll", JitOptions().set(TCPU_JIT_CACHE, uintptr_t{0}));
  load("program_ids.ll", JitOptions().set(TCPU_JIT_CACHE, uintptr_t{0}));
  EXPECT_EQ(entries(cacheDir_).size(), 3u);
  setenv("TCPU_CACHE_DISABLE", "1", 1);
  load("program_ids.ll");
  EXPECT_EQ(entries(cacheDir_).size(), 3u);
}

TEST_F(Cache, DirectoryWritableByOthersIsNotTrusted) {
  std::filesystem::create_directories(cacheDir_);
  std::filesystem::permissions(cacheDir_, std::filesystem::perms::all);
  load("vector_add.ll");
  EXPECT_TRUE(entries(cacheDir_).empty()) << "wrote code into a world-writable directory";
  std::filesystem::permissions(cacheDir_, std::filesystem::perms::owner_all);
  load("vector_add.ll");
  EXPECT_EQ(entries(cacheDir_).size(), 1u);
}

// The child side of ConcurrentProcesses: loads and runs vector_add.
TEST_F(Cache, ChildProcessLoadsVectorAdd) {
  const char* directory = std::getenv("TCPU_TEST_SHARED_CACHE");
  if (!directory) GTEST_SKIP() << "run by ConcurrentProcessesShareOneEntry";
  setenv("TCPU_CACHE_DIR", directory, 1);
  expectAddWorks(load("vector_add.ll"));
}

TEST_F(Cache, ConcurrentProcessesShareOneEntry) {
  const std::filesystem::path shared = cacheDir_ / "shared";
  std::error_code error;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", error).string();
  if (error) GTEST_SKIP() << "needs /proc/self/exe to start copies of itself (Linux)";
  std::vector<pid_t> children;
  setenv("TCPU_TEST_SHARED_CACHE", shared.c_str(), 1);
  for (int i = 0; i < 6; ++i) {
    const std::string filter = "--gtest_filter=Cache.ChildProcessLoadsVectorAdd";
    char* argv[] = {const_cast<char*>(self.c_str()), const_cast<char*>(filter.c_str()), nullptr};
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv, environ), 0);
    children.push_back(pid);
  }
  unsetenv("TCPU_TEST_SHARED_CACHE");
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << pid << " failed";
  }
  const auto stored = entries(shared);
  ASSERT_EQ(stored.size(), 1u) << "leftover temporary files or duplicate entries";
  EXPECT_EQ(stored[0].extension(), ".tcpuobj");
  setenv("TCPU_CACHE_DIR", shared.c_str(), 1);
  expectAddWorks(load("vector_add.ll")); // the shared entry is whole and valid
}

} // namespace
} // namespace tcpu::test
