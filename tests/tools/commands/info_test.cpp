// tcpu info: every field, as text and as JSON, with the values the runtime reports, and the
// cache line for an enabled, a disabled and a populated cache.
#include <gtest/gtest.h>

#include <sleef.h>

#include <llvm/Config/llvm-config.h>
#include <llvm/Support/JSON.h>

#include "formats/json_text.hpp"
#include "scoped_environment.hpp"
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

int attribute(tcpuDeviceAttribute which) {
  int value = -1;
  EXPECT_EQ(tcpuDeviceGetAttribute(&value, which, 0), TCPU_SUCCESS);
  return value;
}

const std::string kKey(64, 'a');

// A cache directory with two entries (100 and 50 bytes), a temporary being written (7 bytes,
// counted: it takes space) and files that are not tcpu's (not counted).
void populateCache(const std::filesystem::path& directory) {
  writeText(directory / (kKey + ".tcpuobj"), std::string(100, 'x'));
  writeText(directory / (std::string(64, 'b') + ".tcpuobj"), std::string(50, 'x'));
  writeText(directory / "notes.txt", std::string(1000, 'x'));
  writeText(directory / (kKey + ".tmp.1.2.3"), std::string(7, 'x'));
}

TEST(Info, TextShowsEveryFieldWithTheRuntimesValues) {
  const TempDir cache;
  populateCache(cache.path());
  const ScopedEnvironment directory("TCPU_CACHE_DIR", cache.path().string());
  const ScopedEnvironment enabled("TCPU_CACHE_DISABLE", std::nullopt);
  const test::CliResult result = runTool({"info"});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  int threads = 0;
  ASSERT_EQ(tcpuGetNumThreads(&threads), TCPU_SUCCESS);
  const std::string& out = result.out;
  EXPECT_TRUE(contains(out, "tcpu          0.1.0\n")) << out;
  EXPECT_TRUE(contains(out, "\ncpu           ")) << out;
  EXPECT_TRUE(contains(out, "\nfeatures      ")) << out;
  EXPECT_TRUE(
      contains(out, concat("\ncores         ", attribute(TCPU_DEVICE_ATTRIBUTE_NUM_CORES), "\n")))
      << out;
  EXPECT_TRUE(contains(out, concat("\nthreads       ", threads, "\n"))) << out;
  EXPECT_TRUE(
      contains(out, concat("\nvector bits   ", attribute(TCPU_DEVICE_ATTRIBUTE_VECTOR_BITS), "\n")))
      << out;
  EXPECT_TRUE(contains(out, concat("\nllvm          ", LLVM_VERSION_STRING, " (host cpu "))) << out;
  EXPECT_TRUE(contains(out, concat("\nsleef         ", SLEEF_VERSION_MAJOR, ".",
                                   SLEEF_VERSION_MINOR, ".", SLEEF_VERSION_PATCHLEVEL, "\n")))
      << out;
  EXPECT_TRUE(contains(out, concat("\ncache         ", cache.path().string(),
                                   " (2 entries, 157 B of 1.07 GB limit)\n")))
      << out;
}

TEST(Info, DisabledCacheIsSaidSo) {
  const ScopedEnvironment disabled("TCPU_CACHE_DISABLE", "1");
  const test::CliResult text = runTool({"info"});
  ASSERT_EQ(text.code, kExitSuccess) << text.err;
  EXPECT_TRUE(contains(text.out, "\ncache         disabled (TCPU_CACHE_DISABLE=1)\n")) << text.out;
  const test::CliResult json = runTool({"info", "--json"});
  ASSERT_EQ(json.code, kExitSuccess) << json.err;
  EXPECT_TRUE(contains(json.out, "\"cache\": {\"directory\": null, \"enabled\": false, "
                                 "\"reason\": \"disabled (TCPU_CACHE_DISABLE=1)\", \"entries\": "
                                 "0, \"bytes\": 0, \"limit_bytes\": 0}"))
      << json.out;
}

TEST(Info, JsonHasEveryKeyWithTheRuntimesValues) {
  const TempDir cache;
  populateCache(cache.path());
  const ScopedEnvironment directory("TCPU_CACHE_DIR", cache.path().string());
  const ScopedEnvironment enabled("TCPU_CACHE_DISABLE", std::nullopt);
  const test::CliResult result = runTool({"info", "--json"});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  const std::string& out = result.out;
  EXPECT_EQ(out.front(), '{');
  EXPECT_EQ(out.substr(out.size() - 2), "}\n");
  for (const char* key : {"tcpu_version", "cpu_name", "cpu_features", "llvm_host_cpu"})
    EXPECT_TRUE(contains(out, concat("\"", key, "\": "))) << key;
  EXPECT_TRUE(contains(out, "\"cpu_features\": [\"")) << out;
  EXPECT_TRUE(
      contains(out, concat("\"cores\": ", attribute(TCPU_DEVICE_ATTRIBUTE_NUM_CORES), ",\n")));
  EXPECT_TRUE(contains(
      out, concat("\"vector_bits\": ", attribute(TCPU_DEVICE_ATTRIBUTE_VECTOR_BITS), ",\n")));
  EXPECT_TRUE(contains(out, concat("\"llvm_version\": \"", LLVM_VERSION_STRING, "\"")));
  EXPECT_TRUE(contains(out, concat("\"cache\": {\"directory\": \"", cache.path().string(),
                                   "\", \"enabled\": true, \"entries\": 2, \"bytes\": 157, "
                                   "\"limit_bytes\": 1073741824}")))
      << out;
}

TEST(Info, JsonStaysValidForACachePathThatIsNotUtf8) {
  const TempDir parent;
  const std::filesystem::path cache = parent.path() / "caf\xc3\xa9-\xff\xfe";
  std::filesystem::create_directories(cache);
  const ScopedEnvironment directory("TCPU_CACHE_DIR", cache.string());
  const ScopedEnvironment enabled("TCPU_CACHE_DISABLE", std::nullopt);
  const test::CliResult result = runTool({"info", "--json"});
  ASSERT_EQ(result.code, kExitSuccess) << result.err;
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(result.out);
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError()) << result.out;
  // Valid UTF-8 (é) is kept; each stray byte is U+FFFD.
  EXPECT_TRUE(contains(result.out, "caf\xc3\xa9-\\ufffd\\ufffd\"")) << result.out;
}

TEST(Info, JsonStringsEscapeWhatJsonCannotHold) {
  using cli::jsonString;
  EXPECT_EQ(jsonString("a\"b\\c\n\t\x01\x7f"), "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\"");
  EXPECT_EQ(jsonString("\xc3\xa9\xe2\x82\xac\xf0\x9f\x99\x82"),
            "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x99\x82\"");
  // Stray, overlong, surrogate, past U+10FFFF and cut-short sequences.
  for (const char* bad : {"\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82"}) {
    const std::string quoted = jsonString(bad);
    EXPECT_EQ(quoted.find_first_of("\x80\x81\x82\x90\xa0\xaf\xc0\xe2\xed\xf4\xff"),
              std::string::npos)
        << quoted;
    EXPECT_TRUE(static_cast<bool>(llvm::json::parse(quoted))) << quoted;
  }
}

TEST(Info, TakesNoArguments) {
  const test::CliResult result = runTool({"info", "extra"});
  EXPECT_EQ(result.code, kExitUsage);
  EXPECT_TRUE(contains(result.err, "unexpected argument 'extra'")) << result.err;
}

} // namespace
} // namespace tcpu::cli
