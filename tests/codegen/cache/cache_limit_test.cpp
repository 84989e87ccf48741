// The compile cache's size limit (codegen/src/cache/cache_limit.hpp): TCPU_CACHE_MAX_SIZE's
// values, least-recently-used order, a Python kernel's two files going together, the prune lock,
// and two processes overfilling one cache while a third reads it.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cache/cache_files.hpp"
#include "cache/cache_limit.hpp"
#include "cache/object_cache.hpp"
#include "scoped_environment.hpp"
#include "tcpu/environment.hpp"
#include "temp_dir.hpp"

namespace tcpu::codegen {
namespace {

using test::TempDir;

void writeFile(const std::filesystem::path& path, std::size_t bytes) {
  std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
}

// Sets `path`'s access time (its last use) to `age` ago; its modification time to 100 hours ago.
void usedAgo(const std::filesystem::path& path, std::chrono::seconds age) {
  const std::time_t now = std::time(nullptr);
  const timespec times[2] = {{now - age.count(), 0}, {now - 100 * 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

std::string key(int number) {
  std::string text = std::to_string(number);
  return std::string(64 - text.size(), '0') + text;
}

uint64_t tcpuBytes(const std::filesystem::path& directory) {
  Expected<std::vector<CacheFile>> files = listCacheFiles(directory);
  EXPECT_TRUE(files.ok()) << files.status().message();
  uint64_t bytes = 0;
  for (const CacheFile& file : *files)
    bytes += file.size;
  return bytes;
}

using tcpu::test::ScopedEnvironment;

TEST(CacheLimit, SizesAreWholeNumbersWithDecimalOrBinaryUnits) {
  const std::vector<std::pair<std::string, uint64_t>> good = {{"0", 0},
                                                              {"4096", 4096},
                                                              {"4096B", 4096},
                                                              {"1K", 1000},
                                                              {"1ki", 1024},
                                                              {"512MiB", 512ull << 20},
                                                              {"2G", 2'000'000'000ull},
                                                              {"2gb", 2'000'000'000ull},
                                                              {"3Ti", 3ull << 40},
                                                              {"9223372036854775808", 1ull << 63}};
  for (const auto& [text, bytes] : good) {
    Expected<uint64_t> parsed = parseByteSize(text, "SIZE");
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().message();
    EXPECT_EQ(*parsed, bytes) << text;
  }
  for (const std::string text : {"", "G", "1.5G", "-1", "1 G", "1X", "1KiBB", "1iB", "1Pi",
                                 "9223372036854775809", "99999999999999999999", "9000000Ti"}) {
    Expected<uint64_t> parsed = parseByteSize(text, "SIZE");
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(parsed.status().code(), TCPU_ERROR_INVALID_VALUE);
    EXPECT_NE(parsed.status().message().find("SIZE='" + text + "' is not a size"),
              std::string::npos)
        << parsed.status().message();
  }
}

TEST(CacheLimit, TheEnvironmentSetsTheLimitAndABadValueIsAnError) {
  const TempDir cache;
  const ScopedEnvironment directory("TCPU_CACHE_DIR", cache.path().string());
  const ScopedEnvironment enabled("TCPU_CACHE_DISABLE", std::nullopt);
  {
    const ScopedEnvironment unset("TCPU_CACHE_MAX_SIZE", std::nullopt);
    Expected<std::optional<ObjectCache>> fromEnvironment = objectCacheFromEnvironment();
    ASSERT_TRUE(fromEnvironment.ok());
    ASSERT_TRUE(fromEnvironment->has_value());
    EXPECT_EQ((*fromEnvironment)->maxBytes(), kDefaultCacheMaxBytes);
  }
  {
    const ScopedEnvironment set("TCPU_CACHE_MAX_SIZE", "64Mi");
    EXPECT_EQ((*objectCacheFromEnvironment())->maxBytes(), 64u << 20);
  }
  const ScopedEnvironment bad("TCPU_CACHE_MAX_SIZE", "a lot");
  Expected<std::optional<ObjectCache>> refused = objectCacheFromEnvironment();
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("TCPU_CACHE_MAX_SIZE='a lot' is not a size"),
            std::string::npos)
      << refused.status().message();
}

// Oldest use goes first; a Python kernel's .json and .so go together, judged by the later of
// their uses; what is not tcpu's stays; a use (markCacheFileUsed) moves a file to the back.
TEST(CacheLimit, PruningRemovesTheLeastRecentlyUsedFirst) {
  const TempDir cache;
  const std::filesystem::path& d = cache.path();
  const std::filesystem::path kernel = d / "python" / key(9);
  std::filesystem::create_directories(kernel);
  const std::string variant(16, 'a');
  writeFile(d / (key(1) + ".tcpuobj"), 1000);
  writeFile(d / (key(2) + ".tcpuobj"), 1000);
  writeFile(d / (key(3) + ".tcpupch"), 1000);
  writeFile(kernel / (variant + ".so"), 700);
  writeFile(kernel / (variant + ".json"), 300);
  writeFile(d / "mine.bin", 5000);
  usedAgo(d / (key(1) + ".tcpuobj"), std::chrono::hours(50));
  usedAgo(kernel / (variant + ".so"), std::chrono::hours(60));
  usedAgo(kernel / (variant + ".json"), std::chrono::hours(40)); // the kernel's last use: 40 h
  usedAgo(d / (key(2) + ".tcpuobj"), std::chrono::hours(30));
  usedAgo(d / (key(3) + ".tcpupch"), std::chrono::hours(20));
  markCacheFileUsed(d / (key(1) + ".tcpuobj")); // now the most recently used

  Expected<PruneReport> first = pruneCache(d, 3000, 3000);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->bytesBefore, 4000u);
  EXPECT_EQ(first->bytesAfter, 3000u);
  EXPECT_EQ(first->filesRemoved, 2u);
  EXPECT_FALSE(std::filesystem::exists(kernel / (variant + ".so")));
  EXPECT_FALSE(std::filesystem::exists(kernel / (variant + ".json")));
  EXPECT_TRUE(std::filesystem::exists(d / (key(2) + ".tcpuobj")));

  Expected<PruneReport> second = pruneCache(d, 1500, 1500);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(second->bytesAfter, 1000u);
  EXPECT_FALSE(std::filesystem::exists(d / (key(2) + ".tcpuobj")));
  EXPECT_FALSE(std::filesystem::exists(d / (key(3) + ".tcpupch")));
  EXPECT_TRUE(std::filesystem::exists(d / (key(1) + ".tcpuobj")));
  EXPECT_TRUE(std::filesystem::exists(d / "mine.bin"));

  // Under the threshold nothing goes, whatever the target.
  Expected<PruneReport> within = pruneCache(d, 0, 1000);
  ASSERT_TRUE(within.ok());
  EXPECT_EQ(within->filesRemoved, 0u);
  EXPECT_TRUE(std::filesystem::exists(d / (key(1) + ".tcpuobj")));
}

// While another process holds the prune lock, a prune waits a few seconds and then gives up
// without removing anything; once the lock is free it prunes.
TEST(CacheLimit, APruneDoesNotRunBesideAnother) {
  const TempDir cache;
  writeFile(cache.path() / (key(1) + ".tcpuobj"), 1000);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t holder = ::fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    const int fd = ::open((cache.path() / "prune.lock").c_str(), O_RDWR | O_CREAT, 0600);
    const bool locked = fd >= 0 && ::flock(fd, LOCK_EX) == 0;
    (void)!::write(ready[1], locked ? "1" : "0", 1);
    ::pause(); // until killed
    ::_exit(0);
  }
  char locked = '0';
  ASSERT_EQ(::read(ready[0], &locked, 1), 1);
  ASSERT_EQ(locked, '1');
  const auto start = std::chrono::steady_clock::now();
  Expected<PruneReport> busy = pruneCache(cache.path(), 0, 0);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(busy.ok()) << busy.status().message();
  EXPECT_TRUE(busy->busy);
  EXPECT_GE(waited, 4.0);
  EXPECT_TRUE(std::filesystem::exists(cache.path() / (key(1) + ".tcpuobj")));
  ::kill(holder, SIGKILL); // its lock goes with it
  int status = 0;
  ASSERT_EQ(::waitpid(holder, &status, 0), holder);
  Expected<PruneReport> done = pruneCache(cache.path(), 0, 0);
  ASSERT_TRUE(done.ok());
  EXPECT_FALSE(done->busy);
  EXPECT_FALSE(std::filesystem::exists(cache.path() / (key(1) + ".tcpuobj")));
  ::close(ready[0]);
  ::close(ready[1]);
}

// A module whose object spells out its key, so a reader can tell a whole entry from anything
// else.
CompiledModule moduleOf(int number, std::size_t objectBytes) {
  CompiledModule module;
  KernelInfo kernel;
  kernel.name = "kernel_" + std::to_string(number);
  kernel.entrySymbol = kernel.name + "_entry";
  module.kernels.push_back(kernel);
  const std::string stamp = key(number);
  while (module.object.size() < objectBytes)
    module.object += stamp;
  return module;
}

// Two processes each store 48 entries of 64 KiB into a cache limited to 1 MiB (6 MiB written
// in all) while a third reads entries over and over until both are done: every store prunes, no
// read ever sees a torn, foreign or half-deleted entry (a file that opens is a whole entry), and
// at the end tcpu's files are within the limit.
TEST(CacheLimit, TwoWritersStayUnderTheLimitBesideAReader) {
  const TempDir cache;
  constexpr uint64_t kLimit = 1 << 20;
  constexpr std::size_t kEntryBytes = 64 << 10;
  constexpr int kPerWriter = 48;
  const auto writer = [&](int first) {
    const ObjectCache objects(cache.path(), kLimit);
    // (Whether each writer's newest entry survives is not asked: file times come from the
    // kernel's coarse clock, so entries written within one tick tie, and ties go by name.
    // PruningRemovesTheLeastRecentlyUsedFirst checks the order with distinct times.)
    for (int i = first; i < first + kPerWriter; ++i)
      objects.store(key(i), moduleOf(i, kEntryBytes));
    std::ofstream(cache.path() / ("done." + std::to_string(first))); // not a file of tcpu's
    return 0;
  };
  const auto reader = [&] {
    const ObjectCache objects(cache.path(), kLimit);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    int hits = 0;
    while (!(std::filesystem::exists(cache.path() / "done.0") &&
             std::filesystem::exists(cache.path() / ("done." + std::to_string(kPerWriter))))) {
      if (std::chrono::steady_clock::now() > deadline) return 5;
      for (int i = 0; i < 2 * kPerWriter; i += 16) {
        // Read as ObjectCache::load does, but tell a miss (no file) from a damaged file.
        std::ifstream in(objects.entryPath(key(i)), std::ios::binary);
        if (!in) continue;
        const std::string bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
        std::optional<CompiledModule> loaded = deserializeEntry(bytes);
        const CompiledModule expected = moduleOf(i, kEntryBytes);
        if (!loaded || loaded->object != expected.object || loaded->kernels.size() != 1 ||
            loaded->kernels[0].name != expected.kernels[0].name)
          return 3;
        markCacheFileUsed(objects.entryPath(key(i)));
        ++hits;
      }
    }
    return hits > 0 ? 0 : 4;
  };
  std::vector<pid_t> children;
  for (int role = 0; role < 3; ++role) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) ::_exit(role == 2 ? reader() : writer(role * kPerWriter));
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0)
        << "3: the reader saw a damaged or foreign entry; 4: the reader never hit; 5: the writers "
           "did not finish in 2 minutes";
  }
  const uint64_t bytes = tcpuBytes(cache.path());
  EXPECT_LE(bytes, kLimit);
  EXPECT_GT(bytes, kLimit / 2) << "pruning went far below its target";
}

} // namespace
} // namespace tcpu::codegen
