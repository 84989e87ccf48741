// The Python front end's files in the compile cache (tcpu/frontend_cache.hpp): their layout, the
// order of a store's writes, reading and marking variants, the directory the environment names,
// and agreement with what lists and prunes the cache (cache/cache_files.hpp, cache_limit.hpp).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "cache/cache_files.hpp"
#include "cache/cache_limit.hpp"
#include "cache/temporary_files.hpp"
#include "scoped_environment.hpp"
#include "tcpu/cache_directory.hpp"
#include "tcpu/frontend_cache.hpp"
#include "temp_dir.hpp"

namespace tcpu::codegen {
namespace {

using test::TempDir;

const std::string kEntry(64, 'a');
const std::string kOtherEntry(64, 'b');
const std::string kVariant = "0123456789abcdef";
const std::string kOtherVariant = "fedcba9876543210";
const std::string kHost(32, 'c');

using tcpu::test::ScopedEnvironment;

// A writer of a library, as tcpuCodegenWriteSharedObject is one: `bytes` at the path.
std::function<Status(const std::filesystem::path&)> writes(std::string bytes) {
  return [bytes](const std::filesystem::path& library) {
    std::ofstream(library, std::ios::binary) << bytes;
    return Status();
  };
}

std::vector<CacheFile> listed(const std::filesystem::path& directory) {
  Expected<std::vector<CacheFile>> files = listCacheFiles(directory);
  EXPECT_TRUE(files.ok()) << files.status().message();
  return files.ok() ? *files : std::vector<CacheFile>();
}

TEST(FrontEndCache, AVariantsFilesAreInItsEntrysDirectoryUnderPython) {
  const FrontEndCache cache("/cache");
  EXPECT_EQ(cache.directory(), "/cache/python");
  EXPECT_EQ(*cache.libraryPath(kEntry, kVariant),
            "/cache/python/" + kEntry + "/" + kVariant + ".so");
  EXPECT_EQ(*cache.metadataPath(kEntry, kVariant),
            "/cache/python/" + kEntry + "/" + kVariant + ".json");
  EXPECT_TRUE(FrontEndCache::isFileName(kVariant + ".so"));
  EXPECT_TRUE(FrontEndCache::isFileName(kVariant + ".json"));
  EXPECT_TRUE(FrontEndCache::isFileName("host-" + kHost + ".txt"));
}

TEST(FrontEndCache, NamesThatAreNotTheFrontEndsAreRefused) {
  const FrontEndCache cache("/cache");
  for (const std::string& entry : {std::string(63, 'a'), std::string(64, 'A'), std::string("../x"),
                                   std::string(62, 'a') + "/a"}) {
    EXPECT_FALSE(FrontEndCache::isEntryName(entry)) << entry;
    Expected<std::filesystem::path> path = cache.libraryPath(entry, kVariant);
    ASSERT_FALSE(path.ok()) << entry;
    EXPECT_EQ(path.status().code(), TCPU_ERROR_INVALID_VALUE);
  }
  for (const std::string& variant : {std::string("0123456789abcde"), std::string("../../../etc"),
                                     std::string("0123456789abcdeg")})
    EXPECT_FALSE(cache.metadataPath(kEntry, variant).ok()) << variant;
  EXPECT_FALSE(FrontEndCache::isFileName(kVariant + ".txt"));
  EXPECT_FALSE(FrontEndCache::isFileName("host-" + kHost + ".json"));
  EXPECT_EQ(cache.storeHost("../x", "znver4").code(), TCPU_ERROR_INVALID_VALUE);
}

TEST(FrontEndCache, AStoreWritesTheLibraryFirstAndTheMetadataLast) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  bool metadataBefore = true;
  ASSERT_TRUE(cache
                  .store(
                      kEntry, kVariant,
                      [&](const std::filesystem::path& library) {
                        metadataBefore =
                            std::filesystem::exists(*cache.metadataPath(kEntry, kVariant));
                        return writes("ELF")(library);
                      },
                      "{\"name\": \"add\"}")
                  .ok());
  EXPECT_FALSE(metadataBefore);
  const std::vector<FrontEndCache::Variant> variants = cache.variants(kEntry);
  ASSERT_EQ(variants.size(), 1u);
  EXPECT_EQ(variants[0].name, kVariant);
  EXPECT_EQ(variants[0].metadata, "{\"name\": \"add\"}");
  EXPECT_TRUE(std::filesystem::exists(*cache.libraryPath(kEntry, kVariant)));
}

TEST(FrontEndCache, AFailedLibraryWriteWritesNoMetadata) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  const Status failed = cache.store(
      kEntry, kVariant,
      [](const std::filesystem::path&) { return Status(TCPU_ERROR_NOT_SUPPORTED, "no linker"); },
      "{}");
  EXPECT_EQ(failed.code(), TCPU_ERROR_NOT_SUPPORTED);
  EXPECT_TRUE(cache.variants(kEntry).empty());
  EXPECT_FALSE(std::filesystem::exists(*cache.metadataPath(kEntry, kVariant)));
}

TEST(FrontEndCache, AnUnwritableCacheIsAnOperatingSystemError) {
  TempDir dir;
  std::ofstream(dir.path() / "python") << "a file where the directory should be";
  const FrontEndCache cache(dir.path());
  EXPECT_EQ(cache.store(kEntry, kVariant, writes("ELF"), "{}").code(), TCPU_ERROR_OPERATING_SYSTEM);
  EXPECT_EQ(cache.storeHost(kHost, "znver4").code(), TCPU_ERROR_OPERATING_SYSTEM);
}

TEST(FrontEndCache, VariantsAreListedByNameWithTheirMetadataOnly) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  EXPECT_TRUE(cache.variants(kEntry).empty()); // no entry yet
  ASSERT_TRUE(cache.store(kEntry, kOtherVariant, writes("ELF"), "second").ok());
  ASSERT_TRUE(cache.store(kEntry, kVariant, writes("ELF"), "first").ok());
  ASSERT_TRUE(cache.store(kOtherEntry, kVariant, writes("ELF"), "other entry").ok());
  // Not variants: a temporary of a write in progress, and a file of someone else.
  std::ofstream(temporaryPathFor(*cache.metadataPath(kEntry, "1111111111111111"))) << "half";
  std::ofstream(cache.directory() / kEntry / "notes.json") << "{}";
  const std::vector<FrontEndCache::Variant> variants = cache.variants(kEntry);
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(variants[0].name, kVariant);
  EXPECT_EQ(variants[0].metadata, "first");
  EXPECT_EQ(variants[1].name, kOtherVariant);
  EXPECT_EQ(variants[1].metadata, "second");
}

TEST(FrontEndCache, ALibraryIsReadOnlyWhenItMatchesItsSeal) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  ASSERT_TRUE(cache.store(kEntry, kVariant, writes("ELF and more"), "{}").ok());
  Expected<std::string> read = cache.readLibrary(kEntry, kVariant);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, "ELF and more");
  EXPECT_FALSE(FrontEndCache::damage(*cache.libraryPath(kEntry, kVariant)));
  for (const std::string& damaged : {std::string("ELF and"), std::string("ELF AND more")}) {
    std::ofstream(*cache.libraryPath(kEntry, kVariant), std::ios::binary) << damaged;
    read = cache.readLibrary(kEntry, kVariant);
    ASSERT_FALSE(read.ok()) << damaged;
    EXPECT_EQ(read.status().code(), TCPU_ERROR_INVALID_IMAGE);
    EXPECT_TRUE(FrontEndCache::damage(*cache.libraryPath(kEntry, kVariant))) << damaged;
  }
}

TEST(FrontEndCache, AVariantMovedUnderAnotherEntryIsRefused) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  ASSERT_TRUE(cache.store(kOtherEntry, kVariant, writes("ELF"), "{}").ok());
  std::filesystem::create_directories(cache.directory() / kEntry);
  for (const auto& path :
       {*cache.libraryPath(kOtherEntry, kVariant), *cache.metadataPath(kOtherEntry, kVariant)})
    std::filesystem::copy_file(path, cache.directory() / kEntry / path.filename());
  EXPECT_TRUE(cache.variants(kEntry).empty());
  EXPECT_EQ(cache.readLibrary(kEntry, kVariant).status().code(), TCPU_ERROR_INVALID_IMAGE);
  const std::optional<std::string> damage =
      FrontEndCache::damage(*cache.metadataPath(kEntry, kVariant));
  ASSERT_TRUE(damage);
  EXPECT_NE(damage->find("not for where it is"), std::string::npos) << *damage;
}

TEST(FrontEndCache, ADirectoryOthersMayWriteIsDistrusted) {
  TempDir dir;
  const FrontEndCache cache(dir.path() / "cache");
  EXPECT_FALSE(cache.distrust()); // not there yet: created private
  ASSERT_TRUE(cache.store(kEntry, kVariant, writes("ELF"), "{}").ok());
  EXPECT_FALSE(cache.distrust());
  for (const std::filesystem::path& path : {dir.path() / "cache", cache.directory()}) {
    struct stat info{};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u) << path; // whatever the umask
    ASSERT_EQ(::chmod(path.c_str(), 0777), 0);
    const std::optional<std::string> why = cache.distrust();
    ASSERT_TRUE(why) << path;
    EXPECT_NE(why->find("writable by others"), std::string::npos) << *why;
    ASSERT_EQ(::chmod(path.c_str(), 0700), 0);
  }
}

TEST(FrontEndCache, MarkingAVariantUsedSetsItsMetadatasAccessTime) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  ASSERT_TRUE(cache.store(kEntry, kVariant, writes("ELF"), "{}").ok());
  const std::filesystem::path metadata = *cache.metadataPath(kEntry, kVariant);
  const std::time_t longAgo = std::time(nullptr) - 24 * 3600;
  const timespec times[2] = {{longAgo, 0}, {longAgo, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, metadata.c_str(), times, 0), 0);
  cache.markUsed(kEntry, kVariant);
  struct stat info{};
  ASSERT_EQ(::stat(metadata.c_str(), &info), 0);
  EXPECT_GT(info.st_atime, longAgo + 3600);
  EXPECT_EQ(info.st_mtime, longAgo); // its modification time stays
}

TEST(FrontEndCache, HostsAreKeptBesideTheEntries) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  EXPECT_FALSE(cache.readHost(kHost));
  ASSERT_TRUE(cache.storeHost(kHost, "znver4").ok());
  EXPECT_EQ(cache.readHost(kHost), "znver4");
  EXPECT_TRUE(std::filesystem::exists(cache.directory() / ("host-" + kHost + ".txt")));
}

TEST(EntryCompileLock, OneCompileOfAnEntryAtATime) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  EntryCompileLock first(cache, kEntry);
  ASSERT_TRUE(first.opened()); // python/ made for it
  EXPECT_TRUE(first.acquire(std::chrono::milliseconds(0)));
  EntryCompileLock second(cache, kEntry); // another process's or thread's
  EXPECT_FALSE(second.acquire(std::chrono::milliseconds(20)));
  EntryCompileLock other(cache, kOtherEntry); // another entry's: not held up
  EXPECT_TRUE(other.acquire(std::chrono::milliseconds(0)));
  first.release();
  EXPECT_FALSE(first.opened());
  EXPECT_TRUE(second.acquire(std::chrono::milliseconds(0)));
  // The lock files are not the cache's files: listing and pruning leave them alone.
  EXPECT_TRUE(std::filesystem::exists(cache.directory() / "compile-aa.lock"));
  EXPECT_TRUE(listed(dir.path()).empty());
}

TEST(EntryCompileLock, NamesThatAreNotAnEntrysOpenNone) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  EXPECT_FALSE(EntryCompileLock(cache, "../x").opened());
  EXPECT_FALSE(EntryCompileLock(cache, kVariant).opened());
  EXPECT_FALSE(std::filesystem::exists(cache.directory()));
}

TEST(FrontEndCache, ListingTellsEveryFileAStoreWritesAndItsTemporaries) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  ASSERT_TRUE(cache.store(kEntry, kVariant, writes("ELF"), "{}").ok());
  ASSERT_TRUE(cache.storeHost(kHost, "znver4").ok());
  const std::filesystem::path writing = temporaryPathFor(*cache.libraryPath(kEntry, kOtherVariant));
  std::ofstream(writing) << "half a library";
  std::ofstream(cache.directory() / kEntry / "someone-elses.so") << "not tcpu's";
  std::vector<std::filesystem::path> frontEnd, temporaries;
  for (const CacheFile& file : listed(dir.path())) {
    if (file.kind == CacheFile::Kind::FrontEnd) frontEnd.push_back(file.path);
    if (file.kind == CacheFile::Kind::Temporary) {
      temporaries.push_back(file.path);
      EXPECT_EQ(file.writerPid, ::getpid());
      EXPECT_FALSE(isStaleTemporary(file)); // its writer, this process, lives
    }
  }
  // Sorted by path: the .json before the .so.
  EXPECT_EQ(frontEnd,
            (std::vector<std::filesystem::path>{*cache.metadataPath(kEntry, kVariant),
                                                *cache.libraryPath(kEntry, kVariant),
                                                cache.directory() / ("host-" + kHost + ".txt")}));
  EXPECT_EQ(temporaries, std::vector<std::filesystem::path>{writing});
}

TEST(FrontEndCache, PruningRemovesAVariantsLibraryAndMetadataTogether) {
  TempDir dir;
  const FrontEndCache cache(dir.path());
  ASSERT_TRUE(cache.store(kEntry, kVariant, writes(std::string(1000, 'x')), "{}").ok());
  ASSERT_TRUE(cache.store(kOtherEntry, kVariant, writes(std::string(1000, 'x')), "{}").ok());
  // The first variant used long ago, the other just now.
  const std::time_t longAgo = std::time(nullptr) - 24 * 3600;
  const timespec times[2] = {{longAgo, 0}, {longAgo, 0}};
  for (const auto& path :
       {*cache.libraryPath(kEntry, kVariant), *cache.metadataPath(kEntry, kVariant)})
    ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  Expected<PruneReport> pruned = pruneCache(dir.path(), 1500, 1500);
  ASSERT_TRUE(pruned.ok()) << pruned.status().message();
  EXPECT_EQ(pruned->filesRemoved, 2u);
  EXPECT_TRUE(cache.variants(kEntry).empty());
  EXPECT_FALSE(std::filesystem::exists(*cache.libraryPath(kEntry, kVariant)));
  EXPECT_EQ(cache.variants(kOtherEntry).size(), 1u);
}

TEST(FrontEndCache, AStoreKeepsTheCacheUnderItsLimit) {
  TempDir dir;
  ScopedEnvironment limit("TCPU_CACHE_MAX_SIZE", "1");
  const FrontEndCache cache(dir.path());
  ASSERT_TRUE(cache.store(kEntry, kVariant, writes("ELF"), "{}").ok());
  for (const CacheFile& file : listed(dir.path()))
    ADD_FAILURE() << file.path << " left over the limit";
  ScopedEnvironment bad("TCPU_CACHE_MAX_SIZE", "1.5G");
  const Status refused = cache.store(kEntry, kVariant, writes("ELF"), "{}");
  EXPECT_EQ(refused.code(), TCPU_ERROR_INVALID_VALUE);
  EXPECT_NE(refused.message().find("TCPU_CACHE_MAX_SIZE"), std::string::npos);
}

TEST(CacheDirectory, TheEnvironmentNamesItInOrder) {
  ScopedEnvironment disable("TCPU_CACHE_DISABLE", std::nullopt);
  ScopedEnvironment dir("TCPU_CACHE_DIR", "/explicit");
  ScopedEnvironment xdg("XDG_CACHE_HOME", "/xdg");
  ScopedEnvironment home("HOME", "/home/someone");
  EXPECT_EQ(**cacheDirectoryFromEnvironment(), "/explicit");
  EXPECT_EQ((*FrontEndCache::fromEnvironment())->directory(), "/explicit/python");
  ::setenv("TCPU_CACHE_DIR", "", 1); // empty counts as unset
  EXPECT_EQ(**cacheDirectoryFromEnvironment(), "/xdg/tcpu");
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(**cacheDirectoryFromEnvironment(), "/home/someone/.cache/tcpu");
  ::unsetenv("HOME");
  EXPECT_FALSE(*cacheDirectoryFromEnvironment());
  EXPECT_FALSE(*FrontEndCache::fromEnvironment());
}

TEST(CacheDirectory, DisablingTheCacheLeavesTheAutotunersResults) {
  ScopedEnvironment dir("TCPU_CACHE_DIR", "/explicit");
  ScopedEnvironment disable("TCPU_CACHE_DISABLE", "1");
  EXPECT_FALSE(*cacheDirectoryFromEnvironment());
  EXPECT_FALSE(*FrontEndCache::fromEnvironment());
  ASSERT_TRUE(AutotuneResults::fromEnvironment());
  EXPECT_EQ(*AutotuneResults::fromEnvironment()->path("add-0123"),
            "/explicit/autotune/add-0123.json");
  ::setenv("TCPU_CACHE_DISABLE", "maybe", 1);
  Expected<std::optional<std::filesystem::path>> bad = cacheDirectoryFromEnvironment();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), TCPU_ERROR_INVALID_VALUE);
  EXPECT_NE(bad.status().message().find("TCPU_CACHE_DISABLE='maybe'"), std::string::npos);
}

TEST(AutotuneResults, AreWrittenAtomicallyIntoAPrivateDirectory) {
  TempDir dir;
  const AutotuneResults results(dir.path());
  ASSERT_TRUE(results.store("accumulate-0123", "{\"key\": []}").ok());
  std::ifstream in(*results.path("accumulate-0123"));
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "{\"key\": []}");
  struct stat info{};
  ASSERT_EQ(::stat((dir.path() / "autotune").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u);
  for (const char* bad : {"", ".hidden", "a/b", "../up"})
    EXPECT_EQ(results.store(bad, "{}").code(), TCPU_ERROR_INVALID_VALUE) << bad;
}

} // namespace
} // namespace tcpu::codegen
