// tcpu cache ls / clear on a temporary cache directory: entries listed with their kernels,
// damaged ones flagged, and clear removing tcpu's files only.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <ctime>

#include "cache/object_cache.hpp"
#include "scoped_environment.hpp"
#include "tcpu/frontend_cache.hpp"
#include "tool_test_support.hpp"

namespace tcpu::cli {
namespace {

using test::runTool;
using test::ScopedEnvironment;
using test::TempDir;
using test::writeText;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string key(char digit) {
  return std::string(64, digit);
}

// An entry as the codegen cache writes it, holding kernels `names`.
std::string entryBytes(const std::vector<std::string>& names) {
  codegen::CompiledModule module;
  for (const std::string& name : names) {
    codegen::KernelInfo kernel;
    kernel.name = name;
    kernel.entrySymbol = name + "_entry";
    module.kernels.push_back(kernel);
  }
  module.object = "an object file";
  return codegen::serializeEntry(module);
}

class CacheCommand : public ::testing::Test {
protected:
  // A cache with two good entries, a damaged one, a precompiled header, a stale and a live
  // temporary, and files that are not tcpu's (which no command may touch).
  void SetUp() override {
    const std::filesystem::path& d = dir_.path();
    writeText(d / (key('1') + ".tcpuobj"), entryBytes({"add_kernel"}));
    writeText(d / (key('2') + ".tcpuobj"), entryBytes({"softmax_16", "softmax_32"}));
    writeText(d / (key('3') + ".tcpuobj"), entryBytes({"cut"}).substr(0, 20));
    writeText(d / (key('7') + ".tcpupch"), "a precompiled header");
    writeText(d / (key('4') + ".tmp.1.0.99"), "half a write");
    std::filesystem::last_write_time(d / (key('4') + ".tmp.1.0.99"),
                                     std::filesystem::file_time_type::clock::now() -
                                         std::chrono::hours(2));
    live_ = key('5') + concat(".tmp.", ::getpid(), ".0.7");
    writeText(d / live_, "being written");
    writeText(d / "notes.txt", "mine");
    writeText(d / (key('6') + ".tmp.x.y.z"), "not a tcpu temporary name");
    std::filesystem::create_symlink(d / "notes.txt", d / "link.tcpuobj");
  }

  TempDir dir_;
  std::string live_;
  const ScopedEnvironment cacheDirectory_{"TCPU_CACHE_DIR", dir_.path().string()};
  const ScopedEnvironment cacheEnabled_{"TCPU_CACHE_DISABLE", std::nullopt};
};

TEST_F(CacheCommand, ListShowsKernelsSizesAndFlagsDamagedEntries) {
  const test::CliResult result = runTool({"cache", "ls"});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  const std::string& out = result.out;
  const std::uintmax_t size1 = std::filesystem::file_size(dir_.path() / (key('1') + ".tcpuobj"));
  EXPECT_TRUE(
      contains(out, concat("cache ", dir_.path().string(), ": 3 entries, 1 precompiled header, ")))
      << out;
  // 20 bytes of text: no precompiled header, flagged.
  EXPECT_TRUE(contains(out, concat(key('7'), ".tcpupch  20 B")) &&
              contains(out, "DAMAGED (not a clang precompiled header (no magic); tcpu rebuilds "
                            "it)\n"))
      << out;
  EXPECT_TRUE(contains(out, concat("  ", key('1'), ".tcpuobj  ", size1, " B"))) << out;
  EXPECT_TRUE(contains(out, "  add_kernel\n")) << out;
  EXPECT_TRUE(contains(out, "  softmax_16, softmax_32\n")) << out;
  EXPECT_TRUE(contains(out, concat(key('3'), ".tcpuobj  20 B"))) << out;
  EXPECT_TRUE(contains(out, "DAMAGED (truncated or corrupt; tcpu recompiles it)")) << out;
  EXPECT_TRUE(contains(out, "temporary, stale (clear removes it)")) << out;
  EXPECT_TRUE(contains(out, concat("temporary, being written by process ", ::getpid()))) << out;
  EXPECT_FALSE(contains(out, "notes.txt"));
  EXPECT_FALSE(contains(out, "link.tcpuobj")) << "symbolic links are never tcpu's";
  EXPECT_FALSE(contains(out, ".tmp.x.y.z"));
  // The modification time, as local time.
  struct stat info{};
  ASSERT_EQ(::stat((dir_.path() / (key('1') + ".tcpuobj")).c_str(), &info), 0);
  std::tm local{};
  localtime_r(&info.st_mtime, &local);
  char modified[32] = {};
  std::strftime(modified, sizeof modified, "%Y-%m-%d %H:%M:%S", &local);
  EXPECT_TRUE(contains(out, concat("  ", modified, "  add_kernel\n"))) << out;
}

TEST_F(CacheCommand, ClearRemovesOnlyTcpuFilesAndSaysHowManyAndHowMuch) {
  const test::CliResult result = runTool({"cache", "clear"});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  EXPECT_TRUE(contains(result.out, concat("cache ", dir_.path().string(),
                                          ": removed 3 entries, 1 precompiled header and 1 "
                                          "stale temporary (")))
      << result.out;
  EXPECT_TRUE(contains(result.out, "; kept 1 being written\n")) << result.out;
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir_.path()))
    left.push_back(entry.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{live_, key('6') + ".tmp.x.y.z", "link.tcpuobj",
                                            "notes.txt"}));

  const test::CliResult again = runTool({"cache", "clear"});
  ASSERT_EQ(again.code, kExitSuccess);
  EXPECT_TRUE(contains(again.out, ": nothing to clear; kept 1 being written")) << again.out;
}

TEST_F(CacheCommand, DirOptionOverridesTheEnvironment) {
  const TempDir other;
  writeText(other.path() / (key('9') + ".tcpuobj"), entryBytes({"other_kernel"}));
  const test::CliResult list = runTool({"cache", "ls", "--dir", other.path().string()});
  ASSERT_EQ(list.code, kExitSuccess) << list.err;
  EXPECT_TRUE(contains(list.out, "other_kernel")) << list.out;
  EXPECT_FALSE(contains(list.out, "add_kernel")) << list.out;
  const test::CliResult clear = runTool({"cache", "clear", "--dir", other.path().string()});
  EXPECT_TRUE(contains(clear.out, "removed 1 entry and 0 stale temporaries")) << clear.out;
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / (key('1') + ".tcpuobj")));
}

TEST_F(CacheCommand, MissingDirectoryHasNothingToClearOrList) {
  const std::string missing = (dir_.path() / "none").string();
  const test::CliResult clear = runTool({"cache", "clear", "--dir", missing});
  EXPECT_EQ(clear.code, kExitSuccess);
  EXPECT_EQ(clear.out, concat("cache ", missing, " does not exist: nothing to clear\n"));
  EXPECT_FALSE(std::filesystem::exists(missing));
  const test::CliResult list = runTool({"cache", "ls", "--dir", missing});
  EXPECT_EQ(list.code, kExitSuccess);
  EXPECT_EQ(list.out,
            concat("cache ", missing, ": does not exist, 0 entries, 0 B of 1.07 GB (limit)\n"));
  const test::CliResult prune = runTool({"cache", "prune", "--dir", missing});
  EXPECT_EQ(prune.code, kExitSuccess) << prune.err;
  EXPECT_FALSE(std::filesystem::exists(missing));
}

TEST_F(CacheCommand, EntriesWrittenByALoadAreListedWithTheirKernel) {
  const TempDir fresh;
  const ScopedEnvironment directory("TCPU_CACHE_DIR", fresh.path().string());
  const test::CliResult dump =
      runTool({"dump", TCPU_SOURCE_DIR "/tests/codegen/kernels/scale.ll", "--what", "input"});
  ASSERT_EQ(dump.code, kExitSuccess) << dump.err;
  const test::CliResult list = runTool({"cache", "ls"});
  ASSERT_EQ(list.code, kExitSuccess) << list.err;
  EXPECT_TRUE(contains(list.out, ": 1 entry, ")) << list.out;
  EXPECT_TRUE(contains(list.out, "  scale\n")) << list.out;
  EXPECT_FALSE(contains(list.out, "DAMAGED")) << list.out;
}

// The Python front end's compiled kernels (python/<key>/<variant>.so and .json, and
// python/host-<id>.txt; python/tcpu/frontend/build/disk_cache.py) are listed and cleared too, with
// their temporaries; other files under python/ are not tcpu's.
TEST_F(CacheCommand, PythonFrontEndFilesAreListedAndCleared) {
  const TempDir fresh;
  const std::filesystem::path python = fresh.path() / "python";
  const std::filesystem::path entry = python / key('a');
  const std::string variant(16, 'b');
  // Written as the front end writes a variant: its .json seals the shared object.
  ASSERT_TRUE(codegen::FrontEndCache(fresh.path())
                  .store(
                      key('a'), variant,
                      [](const std::filesystem::path& library) {
                        writeText(library, "a shared object");
                        return Status();
                      },
                      "{}")
                  .ok());
  writeText(python / ("host-" + std::string(32, 'c') + ".txt"), "znver4");
  const std::string stale = variant + ".so.tmp.1.0.42";
  writeText(entry / stale, "half a link");
  std::filesystem::last_write_time(entry / stale, std::filesystem::file_time_type::clock::now() -
                                                      std::chrono::hours(2));
  writeText(python / "mine.txt", "not tcpu's");
  std::filesystem::create_directories(python / "notakey");
  writeText(python / "notakey" / (variant + ".so"), "not in a key directory");

  const test::CliResult list = runTool({"cache", "ls", "--dir", fresh.path().string()});
  ASSERT_EQ(list.code, kExitSuccess) << list.err;
  EXPECT_TRUE(contains(list.out, ": 0 entries, 3 Python front-end files, ")) << list.out;
  EXPECT_TRUE(contains(list.out, concat("  python/", key('a'), "/", variant, ".so  15 B")))
      << list.out;
  EXPECT_TRUE(contains(list.out, "Python kernel, compiled (shared object)")) << list.out;
  EXPECT_TRUE(contains(list.out, "Python kernel: what it was compiled from")) << list.out;
  EXPECT_TRUE(contains(list.out, "temporary, stale (clear removes it)")) << list.out;
  EXPECT_FALSE(contains(list.out, "mine.txt") || contains(list.out, "notakey")) << list.out;
  EXPECT_FALSE(contains(list.out, "DAMAGED")) << list.out;

  const test::CliResult clear = runTool({"cache", "clear", "--dir", fresh.path().string()});
  ASSERT_EQ(clear.code, kExitSuccess) << clear.err;
  EXPECT_TRUE(contains(clear.out, "removed 0 entries, 3 Python front-end files and 1 stale "
                                  "temporary"))
      << clear.out;
  EXPECT_FALSE(std::filesystem::exists(entry)) << "the emptied key directory goes too";
  EXPECT_TRUE(std::filesystem::exists(python / "mine.txt"));
  EXPECT_TRUE(std::filesystem::exists(python / "notakey" / (variant + ".so")));
}

TEST_F(CacheCommand, BadActionsAndDisabledCacheAreUsageErrors) {
  const test::CliResult action = runTool({"cache", "purge"});
  EXPECT_EQ(action.code, kExitUsage);
  EXPECT_TRUE(contains(action.err, "unknown action 'purge' (expected ls, clear or prune)"))
      << action.err;
  EXPECT_EQ(runTool({"cache"}).code, kExitUsage);
  const test::CliResult size = runTool({"cache", "prune", "--max-size", "1.5G"});
  EXPECT_EQ(size.code, kExitUsage);
  EXPECT_TRUE(contains(size.err, "--max-size='1.5G' is not a size")) << size.err;
  const test::CliResult misplaced = runTool({"cache", "ls", "--max-size", "1G"});
  EXPECT_EQ(misplaced.code, kExitUsage);
  EXPECT_TRUE(contains(misplaced.err, "--max-size is an option of prune only")) << misplaced.err;
  {
    const ScopedEnvironment bad("TCPU_CACHE_MAX_SIZE", "lots");
    const test::CliResult environment = runTool({"cache", "ls"});
    EXPECT_EQ(environment.code, kExitUsage);
    EXPECT_TRUE(contains(environment.err, "TCPU_CACHE_MAX_SIZE='lots' is not a size"))
        << environment.err;
  }
  const ScopedEnvironment disabled("TCPU_CACHE_DISABLE", "1");
  const ScopedEnvironment unset("TCPU_CACHE_DIR", std::nullopt);
  const test::CliResult list = runTool({"cache", "ls"});
  EXPECT_EQ(list.code, kExitUsage);
  EXPECT_TRUE(contains(list.err, "no cache directory: disabled (TCPU_CACHE_DISABLE=1); name one "
                                 "with --dir"))
      << list.err;
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / (key('1') + ".tcpuobj")));
}

// Sets when `path` was last used (its access time), `age` ago.
void usedAgo(const std::filesystem::path& path, std::chrono::seconds age) {
  const timespec used{std::time(nullptr) - age.count(), 0};
  const timespec times[2] = {used, {0, UTIME_OMIT}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

// prune removes the least recently used of tcpu's files (stale temporaries first) down to
// --max-size; the fixture's live temporary and foreign files stay.
TEST_F(CacheCommand, PruneRemovesTheLeastRecentlyUsedDownToTheSize) {
  const std::filesystem::path& d = dir_.path();
  for (char digit : {'1', '2', '3'}) // old modification times: the access time decides
    std::filesystem::last_write_time(d / (key(digit) + ".tcpuobj"),
                                     std::filesystem::file_time_type::clock::now() -
                                         std::chrono::hours(48));
  std::filesystem::last_write_time(d / (key('7') + ".tcpupch"),
                                   std::filesystem::file_time_type::clock::now() -
                                       std::chrono::hours(48));
  usedAgo(d / (key('2') + ".tcpuobj"), std::chrono::hours(30)); // least recently used
  usedAgo(d / (key('3') + ".tcpuobj"), std::chrono::hours(20));
  usedAgo(d / (key('7') + ".tcpupch"), std::chrono::hours(10));
  usedAgo(d / (key('1') + ".tcpuobj"), std::chrono::hours(1)); // most recently used
  const uint64_t newest = std::filesystem::file_size(d / (key('1') + ".tcpuobj"));
  const uint64_t live = std::filesystem::file_size(d / live_);
  const std::string size = std::to_string(newest + live);
  const test::CliResult prune =
      runTool({"cache", "prune", "--dir", d.string(), "--max-size", size});
  ASSERT_EQ(prune.code, kExitSuccess) << prune.err;
  EXPECT_TRUE(contains(prune.out,
                       concat(" -> ", newest + live, " B (limit ", size, " B): removed 4 files, ")))
      << prune.out;
  EXPECT_TRUE(std::filesystem::exists(d / (key('1') + ".tcpuobj")));
  EXPECT_TRUE(std::filesystem::exists(d / live_)) << "a write in progress is never removed";
  for (const std::string& gone : {key('2') + ".tcpuobj", key('3') + ".tcpuobj",
                                  key('7') + ".tcpupch", key('4') + ".tmp.1.0.99"})
    EXPECT_FALSE(std::filesystem::exists(d / gone)) << gone;
  EXPECT_TRUE(std::filesystem::exists(d / "notes.txt"));

  const test::CliResult again =
      runTool({"cache", "prune", "--dir", d.string(), "--max-size", size});
  ASSERT_EQ(again.code, kExitSuccess) << again.err;
  EXPECT_TRUE(contains(again.out, ": nothing to prune")) << again.out;
  const test::CliResult list = runTool({"cache", "ls", "--dir", d.string()});
  EXPECT_TRUE(contains(list.out, "1 entry, ")) << list.out;
}

// Without --max-size, prune keeps to TCPU_CACHE_MAX_SIZE; 0 there means no limit.
TEST_F(CacheCommand, PruneTakesTheLimitFromTheEnvironment) {
  const std::string d = dir_.path().string();
  {
    const ScopedEnvironment unlimited("TCPU_CACHE_MAX_SIZE", "0");
    const test::CliResult prune = runTool({"cache", "prune", "--dir", d});
    ASSERT_EQ(prune.code, kExitSuccess) << prune.err;
    EXPECT_TRUE(contains(prune.out, "no limit (TCPU_CACHE_MAX_SIZE=0): nothing to prune"))
        << prune.out;
    EXPECT_TRUE(std::filesystem::exists(dir_.path() / (key('2') + ".tcpuobj")));
  }
  const ScopedEnvironment small("TCPU_CACHE_MAX_SIZE", "20");
  const test::CliResult list = runTool({"cache", "ls", "--dir", d});
  EXPECT_TRUE(contains(list.out, " of 20 B (limit)\n")) << list.out;
  const test::CliResult prune = runTool({"cache", "prune", "--dir", d});
  ASSERT_EQ(prune.code, kExitSuccess) << prune.err;
  EXPECT_TRUE(contains(prune.out, "(limit 20 B): removed ")) << prune.out;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / (key('2') + ".tcpuobj")));
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / live_));
}

} // namespace
} // namespace tcpu::cli
