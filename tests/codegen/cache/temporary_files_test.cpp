// The temporaries of the cache's writes (codegen/src/cache/temporary_files.hpp): the names
// writers make are the names `tcpu cache clear` and pruning parse, and an atomic write leaves the
// whole file or nothing.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "cache/temporary_files.hpp"
#include "temp_dir.hpp"

namespace tcpu::codegen {
namespace {

using test::TempDir;

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::set<std::string> namesIn(const std::filesystem::path& directory) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    names.insert(entry.path().filename().string());
  return names;
}

TEST(TemporaryFiles, NamesAreBesideTheFileAndParseBackToItAndThisProcess) {
  const std::filesystem::path target = "/cache/python/entry/0123456789abcdef.so";
  const std::filesystem::path temporary = temporaryPathFor(target);
  EXPECT_EQ(temporary.parent_path(), target.parent_path());
  const std::string name = temporary.filename().string();
  const std::optional<TemporaryName> parsed = parseTemporaryName(name);
  ASSERT_TRUE(parsed) << name;
  EXPECT_EQ(parsed->target, "0123456789abcdef.so");
  EXPECT_EQ(parsed->writerPid, ::getpid());
}

TEST(TemporaryFiles, EveryNameIsNew) {
  std::set<std::filesystem::path> names;
  for (int i = 0; i < 100; ++i)
    names.insert(temporaryPathFor("/cache/file"));
  EXPECT_EQ(names.size(), 100u);
}

TEST(TemporaryFiles, OtherNamesAreNotTemporaries) {
  for (const char* name :
       {"file", "file.tmp", "file.tmp.1.2", "file.tmp.1.2.3.4", "file.tmp.x.2.3", "file.tmp.1..3",
        "file.tmp.-1.2.3", "file.tmp.123456789012345678901.2.3"})
    EXPECT_FALSE(parseTemporaryName(name)) << name;
  const std::optional<TemporaryName> parsed = parseTemporaryName("k.tcpuobj.tmp.42.0.7");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->target, "k.tcpuobj");
  EXPECT_EQ(parsed->writerPid, 42);
}

TEST(TemporaryFiles, WhatWritersPutBesideATemporaryCountsAsIt) {
  // The linker's input and log beside a shared object's temporary, clang's own temporary of a
  // precompiled header: a writer killed mid-write leaves them, and they must be known to go.
  for (const char* name : {"v.so.tmp.42.0.7.o", "v.so.tmp.42.0.7.log", "k.tmp.42.0.7-AbC9xYz1",
                           "k.tmp.42.0.7-a1b2c3d4.tmp", "k.tmp.42.0-f7f3b763.7.tmp"}) {
    const std::optional<TemporaryName> parsed = parseTemporaryName(name);
    ASSERT_TRUE(parsed) << name;
    EXPECT_EQ(parsed->writerPid, 42) << name;
  }
  for (const char* name : {"v.so.tmp.42.0.7.txt", "k.tmp.42.0.7-", "k.tmp.42.0.7-a/b",
                           "k.tmp.42.0.7-abcdefghijklmnopq"})
    EXPECT_FALSE(parseTemporaryName(name)) << name;
}

TEST(TemporaryFiles, AnAtomicWriteReplacesTheFileWholeAndLeavesNoTemporary) {
  TempDir dir;
  const std::filesystem::path file = dir.path() / "results.json";
  ASSERT_TRUE(writeFileAtomically(file, "first").ok());
  const std::string big(1 << 20, 'x');
  ASSERT_TRUE(writeFileAtomically(file, big).ok());
  EXPECT_EQ(readText(file), big);
  EXPECT_EQ(namesIn(dir.path()), std::set<std::string>{"results.json"});
  struct stat info{};
  ASSERT_EQ(::stat(file.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u); // private, as the front end wrote its files
}

TEST(TemporaryFiles, AFailedWriteSaysWhereAndLeavesNothing) {
  TempDir dir;
  const Status missing = writeFileAtomically(dir.path() / "absent" / "file", "text");
  EXPECT_EQ(missing.code(), TCPU_ERROR_OPERATING_SYSTEM);
  EXPECT_NE(missing.message().find((dir.path() / "absent").string()), std::string::npos)
      << missing.message();
  // A directory where the file should go: the rename fails, and the temporary goes again.
  std::filesystem::create_directories(dir.path() / "taken" / "inside");
  const Status taken = writeFileAtomically(dir.path() / "taken", "text");
  EXPECT_EQ(taken.code(), TCPU_ERROR_OPERATING_SYSTEM);
  EXPECT_EQ(namesIn(dir.path()), (std::set<std::string>{"taken"}));
}

} // namespace
} // namespace tcpu::codegen
