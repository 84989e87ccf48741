// The compile cache for C++ kernel source: a load whose source, tcpu headers, options and the
// other files clang read are unchanged hits the cache without running clang (TCPU_DEBUG=1
// reports every clang run as "clang: compiling <name>"), in this process or a fresh one; any
// change misses; many processes share one cache. tl sources compile with tl.h precompiled
// (kept in the cache), which changes no bitcode.
#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "codegen_test_support.hpp"
#include "temp_dir.hpp"

extern char** environ;

namespace tcpu::test {
namespace {

constexpr const char* kClangRan = "clang: compiling";

// A kernel that stores kValue from the header next to it, so a run tells which header it saw.
const char* const kKernelSource = R"(// stamps the value its header defines
#include <cstdint>
#include "helper.h"
extern "C" void stamp(int32_t* out, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  out[0] = kValue;
}
)";

// Dated a second back: a file modified as a compile starts may have been read in either version,
// and such a compile is not stored under its source key; these tests write files and compile at
// once.
void writeFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now() -
                                             std::chrono::seconds(1));
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeKernel(const std::filesystem::path& directory, int value) {
  writeFile(directory / "kernel.cpp", kKernelSource);
  writeFile(directory / "helper.h", "constexpr int32_t kValue = " + std::to_string(value) + ";\n");
}

// A tl kernel multiplying by `scale`: it begins by including tcpu/tl.h, so it compiles with tl.h
// precompiled.
std::string tlSource(int scale) {
  return "#include \"tcpu/tl.h\"\n"
         "struct scale_kernel : tcpu::tl::program {\n"
         "  void operator()(const float* x, float* out, int32_t n) const {\n"
         "    const auto offsets = program_id(0) * 64 + tcpu::tl::arange<0, 64>();\n"
         "    tcpu::tl::store(out + offsets, tcpu::tl::load(x + offsets, offsets < n) * " +
         std::to_string(scale) +
         ".0f, offsets < n);\n"
         "  }\n"
         "};\n"
         "TL_KERNEL(scale_kernel, scale_kernel);\n";
}

std::vector<std::filesystem::path> cacheFiles(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  if (std::filesystem::exists(directory))
    for (const auto& item : std::filesystem::directory_iterator(directory))
      files.push_back(item.path());
  return files;
}

class SourceCache : public CodegenTest {
protected:
  void SetUp() override {
    CodegenTest::SetUp();
    writeKernel(dir_.path(), 1);
  }

  // Loads `path` with TCPU_DEBUG=1; returns what codegen reported on stderr.
  std::string loadLogged(tcpuModule& module, const std::filesystem::path& path,
                         const JitOptions& options = {}) {
    setenv("TCPU_DEBUG", "1", 1);
    ::testing::internal::CaptureStderr();
    const tcpuResult result = tcpuModuleLoadEx(&module, path.c_str(), options.count(),
                                               const_cast<tcpuJitOption*>(options.keys.data()),
                                               const_cast<void**>(options.values.data()));
    std::string log = ::testing::internal::GetCapturedStderr();
    unsetenv("TCPU_DEBUG");
    keep(result, module, path.string());
    return log;
  }

  // Loads source text from memory with TCPU_DEBUG=1; returns what codegen reported on stderr.
  std::string loadDataLogged(tcpuModule& module, const std::string& source) {
    setenv("TCPU_DEBUG", "1", 1);
    ::testing::internal::CaptureStderr();
    const tcpuResult result = tcpuModuleLoadData(&module, source.data(), source.size());
    std::string log = ::testing::internal::GetCapturedStderr();
    unsetenv("TCPU_DEBUG");
    keep(result, module, "source from memory");
    return log;
  }

  // What scale_kernel of `module` makes of 0, 1, ..., 99.
  std::vector<float> scaled(tcpuModule module) {
    std::vector<float> x(100), out(100, -1.0f);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = static_cast<float>(i);
    const float* px = x.data();
    float* po = out.data();
    int32_t n = 100;
    void* params[] = {&px, &po, &n};
    EXPECT_TCPU(tcpuLaunchKernel(function(module, "scale_kernel"), 2, 1, 1, 1, 1, 1, 0, nullptr,
                                 params, nullptr));
    return out;
  }

  static std::vector<float> times(float scale) {
    std::vector<float> expected(100);
    for (size_t i = 0; i < expected.size(); ++i)
      expected[i] = static_cast<float>(i) * scale;
    return expected;
  }

  std::vector<std::filesystem::path> precompiledHeaders() {
    std::vector<std::filesystem::path> found;
    for (const std::filesystem::path& file : cacheFiles(cacheDir_))
      if (file.extension() == ".tcpupch") found.push_back(file);
    return found;
  }

  // What the kernel of `module` stores.
  int32_t stamped(tcpuModule module) {
    int32_t value = -1;
    int32_t* out = &value;
    void* params[] = {&out};
    EXPECT_TCPU(
        tcpuLaunchKernel(function(module, "stamp"), 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
    return value;
  }

  // Starts this test binary's ChildLoadsKernel on `kernel` with the cache `cache`; its stderr
  // goes to `log`. Returns the child's pid.
  pid_t spawnChild(const std::filesystem::path& kernel, int expected,
                   const std::filesystem::path& cache, const std::filesystem::path& log) {
    std::error_code error;
    const std::string self = std::filesystem::read_symlink("/proc/self/exe", error).string();
    if (error) return -1;
    setenv("TCPU_TEST_CHILD_KERNEL", kernel.c_str(), 1);
    setenv("TCPU_TEST_CHILD_EXPECTED", std::to_string(expected).c_str(), 1);
    setenv("TCPU_TEST_CHILD_CACHE", cache.c_str(), 1);
    setenv("TCPU_DEBUG", "1", 1);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const std::string filter = "--gtest_filter=SourceCache.ChildLoadsKernel";
    char* argv[] = {const_cast<char*>(self.c_str()), const_cast<char*>(filter.c_str()), nullptr};
    pid_t pid = -1;
    if (posix_spawn(&pid, self.c_str(), &actions, nullptr, argv, environ) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    for (const char* name : {"TCPU_TEST_CHILD_KERNEL", "TCPU_TEST_CHILD_EXPECTED",
                             "TCPU_TEST_CHILD_CACHE", "TCPU_DEBUG"})
      unsetenv(name);
    return pid;
  }

  static bool exitedCleanly(pid_t pid) {
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
  }

  TempDir dir_;
};

// The child side of the tests below: loads the kernel it is given (kernel.cpp, or tlSource in
// scale.cpp) and checks its value.
TEST_F(SourceCache, ChildLoadsKernel) {
  const char* kernel = std::getenv("TCPU_TEST_CHILD_KERNEL");
  if (!kernel) GTEST_SKIP() << "run by the other SourceCache tests";
  setenv("TCPU_CACHE_DIR", std::getenv("TCPU_TEST_CHILD_CACHE"), 1);
  tcpuModule module = nullptr;
  const tcpuResult loaded = tcpuModuleLoad(&module, kernel);
  keep(loaded, module, kernel);
  ASSERT_NE(module, nullptr);
  const int expected = std::atoi(std::getenv("TCPU_TEST_CHILD_EXPECTED"));
  if (std::string(kernel).ends_with("scale.cpp"))
    EXPECT_EQ(scaled(module), times(static_cast<float>(expected)));
  else
    EXPECT_EQ(stamped(module), expected);
}

TEST_F(SourceCache, AFreshProcessLoadsWithoutClang) {
  if (!std::filesystem::exists("/proc/self/exe"))
    GTEST_SKIP() << "spawns itself through /proc/self/exe (Linux)";
  tcpuModule module = nullptr;
  EXPECT_NE(loadLogged(module, dir_.path() / "kernel.cpp").find(kClangRan), std::string::npos);
  EXPECT_EQ(stamped(module), 1);

  const std::filesystem::path log = dir_.path() / "child.log";
  ASSERT_TRUE(exitedCleanly(spawnChild(dir_.path() / "kernel.cpp", 1, cacheDir_, log)))
      << readFile(log);
  const std::string childLog = readFile(log);
  EXPECT_EQ(childLog.find(kClangRan), std::string::npos) << childLog;
  EXPECT_NE(childLog.find("cache hit"), std::string::npos) << childLog;
  EXPECT_TRUE(precompiledHeaders().empty()) << "the source does not begin with tl.h";
}

TEST_F(SourceCache, TlSourcesShareAPrecompiledTl) {
  tcpuModule first = nullptr;
  const std::string firstLog = loadDataLogged(first, tlSource(2));
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(scaled(first), times(2.0f));
  const std::vector<std::filesystem::path> headers = precompiledHeaders();
  ASSERT_EQ(headers.size(), 1u) << firstLog;
  EXPECT_NE(firstLog.find("pch: built " + headers[0].string()), std::string::npos) << firstLog;
  EXPECT_NE(firstLog.find("with " + headers[0].string()), std::string::npos) << firstLog;

  tcpuModule second = nullptr;
  const std::string secondLog = loadDataLogged(second, tlSource(3));
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(scaled(second), times(3.0f));
  EXPECT_NE(secondLog.find("with " + headers[0].string()), std::string::npos) << secondLog;
  EXPECT_EQ(secondLog.find("pch: built"), std::string::npos) << secondLog;
}

TEST_F(SourceCache, APrecompiledTlChangesNoBitcode) {
  tcpuModule with = nullptr;
  loadDataLogged(with, tlSource(2));
  ASSERT_EQ(precompiledHeaders().size(), 1u);
  // A line before the include: no precompiled header, and the same bitcode, whose object the
  // first load stored (a hit under the bitcode's key after clang ran).
  tcpuModule without = nullptr;
  const std::string log = loadDataLogged(without, "#define TCPU_TEST_NO_PCH 1\n" + tlSource(2));
  ASSERT_NE(without, nullptr);
  EXPECT_EQ(scaled(without), times(2.0f));
  EXPECT_NE(log.find(kClangRan), std::string::npos) << log;
  EXPECT_EQ(log.find(".tcpupch"), std::string::npos) << log;
  EXPECT_NE(log.find("cache hit"), std::string::npos) << "other bitcode with tl.h precompiled:\n"
                                                      << log;
}

TEST_F(SourceCache, ADamagedPrecompiledTlIsRebuilt) {
  tcpuModule first = nullptr;
  loadDataLogged(first, tlSource(2));
  const std::vector<std::filesystem::path> headers = precompiledHeaders();
  ASSERT_EQ(headers.size(), 1u);
  writeFile(headers[0], std::string(4096, 'x'));
  tcpuModule second = nullptr;
  const std::string log = loadDataLogged(second, tlSource(3));
  ASSERT_NE(second, nullptr) << log;
  EXPECT_EQ(scaled(second), times(3.0f));
  // Found before clang reads it: no top-level blocks where they should be.
  EXPECT_NE(log.find("pch: " + headers[0].string() + " is damaged"), std::string::npos) << log;
  EXPECT_NE(log.find("pch: built " + headers[0].string()), std::string::npos) << log;
  EXPECT_GT(std::filesystem::file_size(headers[0]), 4096u);
}

// Processes started together (pytest-xdist's workers) build tl.h's header once: while one holds
// pch.lock (building), another waits and then uses its header instead of building its own.
TEST_F(SourceCache, APrecompiledTlBeingBuiltIsWaitedFor) {
  tcpuModule first = nullptr;
  loadDataLogged(first, tlSource(2));
  const std::vector<std::filesystem::path> headers = precompiledHeaders();
  ASSERT_EQ(headers.size(), 1u);
  const std::filesystem::path kept = dir_.path() / "kept.tcpupch";
  std::filesystem::rename(headers[0], kept);

  // The "other process": an flock of its own on the lock, the header published while held.
  const int lock = ::open((cacheDir_ / "pch.lock").c_str(), O_RDWR | O_CREAT, 0600);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(::flock(lock, LOCK_EX), 0);
  tcpuModule second = nullptr;
  std::string log;
  std::thread waiting([&] { log = loadDataLogged(second, tlSource(3)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::filesystem::rename(kept, headers[0]);
  ::close(lock); // releases it
  waiting.join();
  ASSERT_NE(second, nullptr) << log;
  EXPECT_EQ(scaled(second), times(3.0f));
  EXPECT_NE(log.find("pch: " + headers[0].string() + " was built meanwhile"), std::string::npos)
      << log;
  EXPECT_EQ(log.find("pch: built"), std::string::npos) << log;
  EXPECT_NE(log.find("with " + headers[0].string()), std::string::npos) << log;
}

TEST_F(SourceCache, SourceFromMemoryHitsToo) {
  const std::string source = "// from memory\nextern \"C\" void stamp(int* out, unsigned, "
                             "unsigned, unsigned, unsigned, unsigned, unsigned) { out[0] = 7; }\n";
  for (int load = 0; load < 2; ++load) {
    setenv("TCPU_DEBUG", "1", 1);
    ::testing::internal::CaptureStderr();
    tcpuModule module = nullptr;
    const tcpuResult result = tcpuModuleLoadData(&module, source.data(), source.size());
    const std::string log = ::testing::internal::GetCapturedStderr();
    unsetenv("TCPU_DEBUG");
    keep(result, module, "source from memory");
    ASSERT_NE(module, nullptr);
    EXPECT_EQ(stamped(module), 7);
    EXPECT_EQ(log.find(kClangRan) != std::string::npos, load == 0)
        << "load " << load << ": " << log;
  }
}

TEST_F(SourceCache, AnEditedHeaderBesideTheSourceMisses) {
  tcpuModule first = nullptr;
  loadLogged(first, dir_.path() / "kernel.cpp");
  EXPECT_EQ(stamped(first), 1);
  writeKernel(dir_.path(), 2); // the source is the same; its header is not
  tcpuModule second = nullptr;
  EXPECT_NE(loadLogged(second, dir_.path() / "kernel.cpp").find(kClangRan), std::string::npos);
  EXPECT_EQ(stamped(second), 2);
  tcpuModule third = nullptr;
  EXPECT_EQ(loadLogged(third, dir_.path() / "kernel.cpp").find(kClangRan), std::string::npos);
  EXPECT_EQ(stamped(third), 2);
}

TEST_F(SourceCache, TheSameSourceElsewhereIsAnotherEntry) {
  tcpuModule first = nullptr;
  loadLogged(first, dir_.path() / "kernel.cpp");
  TempDir elsewhere;
  writeKernel(elsewhere.path(), 3);
  tcpuModule second = nullptr;
  loadLogged(second, elsewhere.path() / "kernel.cpp");
  EXPECT_EQ(stamped(first), 1);
  EXPECT_EQ(stamped(second), 3);
}

TEST_F(SourceCache, OptionsAreInTheKey) {
  const std::filesystem::path kernel = dir_.path() / "kernel.cpp";
  tcpuModule module = nullptr;
  loadLogged(module, kernel);
  for (const JitOptions& options : {JitOptions().set(TCPU_JIT_FP_CONTRACT, uintptr_t{0}),
                                    JitOptions().set(TCPU_JIT_FAST_MATH, uintptr_t{1}),
                                    JitOptions().set(TCPU_JIT_MATH_ULP, uintptr_t{35}),
                                    JitOptions().set(TCPU_JIT_CHECK_BOUNDS, uintptr_t{1}),
                                    JitOptions().set(TCPU_JIT_TARGET_CPU, "x86-64-v2")}) {
    tcpuModule other = nullptr;
    EXPECT_NE(loadLogged(other, kernel, options).find(kClangRan), std::string::npos)
        << "option " << options.keys[0] << " hit the default's entry";
  }
  tcpuModule again = nullptr;
  EXPECT_EQ(loadLogged(again, kernel).find(kClangRan), std::string::npos);
}

TEST_F(SourceCache, ConcurrentProcessesShareOneCache) {
  if (!std::filesystem::exists("/proc/self/exe"))
    GTEST_SKIP() << "spawns itself through /proc/self/exe (Linux)";
  const std::filesystem::path shared = dir_.path() / "shared-cache";
  std::vector<pid_t> children;
  for (int i = 0; i < 6; ++i)
    children.push_back(spawnChild(dir_.path() / "kernel.cpp", 1, shared,
                                  dir_.path() / ("child" + std::to_string(i) + ".log")));
  for (size_t i = 0; i < children.size(); ++i)
    EXPECT_TRUE(exitedCleanly(children[i]))
        << readFile(dir_.path() / ("child" + std::to_string(i) + ".log"));
  // One entry under the source's key, one under its bitcode's; no temporaries left.
  const std::vector<std::filesystem::path> files = cacheFiles(shared);
  EXPECT_EQ(files.size(), 2u);
  for (const std::filesystem::path& file : files)
    EXPECT_EQ(file.extension(), ".tcpuobj") << file;
  setenv("TCPU_CACHE_DIR", shared.c_str(), 1);
  tcpuModule module = nullptr;
  EXPECT_EQ(loadLogged(module, dir_.path() / "kernel.cpp").find(kClangRan), std::string::npos);
  EXPECT_EQ(stamped(module), 1);
}

TEST_F(SourceCache, ConcurrentProcessesShareOnePrecompiledTl) {
  if (!std::filesystem::exists("/proc/self/exe"))
    GTEST_SKIP() << "spawns itself through /proc/self/exe (Linux)";
  const std::filesystem::path shared = dir_.path() / "shared-cache";
  writeFile(dir_.path() / "scale.cpp", tlSource(5));
  std::vector<pid_t> children;
  for (int i = 0; i < 4; ++i)
    children.push_back(spawnChild(dir_.path() / "scale.cpp", 5, shared,
                                  dir_.path() / ("child" + std::to_string(i) + ".log")));
  for (size_t i = 0; i < children.size(); ++i)
    EXPECT_TRUE(exitedCleanly(children[i]))
        << readFile(dir_.path() / ("child" + std::to_string(i) + ".log"));
  size_t objects = 0, headers = 0, locks = 0;
  for (const std::filesystem::path& file : cacheFiles(shared)) {
    objects += file.extension() == ".tcpuobj";
    headers += file.extension() == ".tcpupch";
    locks += file.filename() == "pch.lock";
  }
  EXPECT_EQ(objects, 2u);
  EXPECT_EQ(headers, 1u);
  EXPECT_EQ(cacheFiles(shared).size(), 3u + locks) << "temporaries left";
  // One of them built the header; the others waited for it (pch.lock).
  size_t builds = 0;
  for (size_t i = 0; i < children.size(); ++i)
    builds += readFile(dir_.path() / ("child" + std::to_string(i) + ".log")).find("pch: built") !=
              std::string::npos;
  EXPECT_EQ(builds, 1u);
}

} // namespace
} // namespace tcpu::test
