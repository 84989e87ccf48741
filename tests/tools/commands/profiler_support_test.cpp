// JIT'd kernels seen by profilers and debuggers (docs/profiling.md): TCPU_PERF_MAP=1 lists them
// in perf's /tmp/perf-<pid>.map; TCPU_GDB_JIT=1 registers them with GDB's JIT interface, so a
// breakpoint on a kernel is hit and a backtrace names it. Each test also runs without the
// variable and sees nothing, so it can fail.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "temp_dir.hpp"
#include "tool_test_support.hpp"

namespace tcpu::test {
namespace {

// `tcpu run` of the IR vector add (no clang) with a fresh compile cache, as one shell command.
std::string runVectorAdd(const TempDir& dir) {
  return concat("'", TCPU_TOOL_PATH, "' run '", TCPU_SOURCE_DIR, "/kernels/ir/vector_add.ll'",
                " --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32' --grid 1,1,1",
                " --arg zeros:4 --arg zeros:4 --arg zeros:4 --arg 4 --out-dir '",
                (dir.path() / "out").string(), "'");
}

std::string environment(const TempDir& dir, const std::string& flag) {
  return concat("TCPU_CACHE_DIR='", (dir.path() / "cache").string(), "' ", flag, " ");
}

// The map file the process `pid` wrote, or "" when it wrote none; the file is removed.
std::string takePerfMap(const std::string& pid) {
  const std::filesystem::path path = concat("/tmp/perf-", pid, ".map");
  if (!std::filesystem::exists(path)) return "";
  std::string text = readText(path);
  std::filesystem::remove(path);
  return text;
}

TEST(ProfilerSupport, PerfMapListsEveryJitLinkedKernel) {
  TempDir dir;
  for (const bool enabled : {true, false}) {
    // `exec` keeps the shell's pid, which names the map file.
    auto [status, output] =
        runShell(concat("sh -c \"echo \\$\\$; exec env ",
                        environment(dir, enabled ? "TCPU_PERF_MAP=1" : "TCPU_PERF_MAP=0"),
                        runVectorAdd(dir), "\" 2>&1"));
    ASSERT_EQ(status, 0) << output;
    const std::string pid = output.substr(0, output.find('\n'));
    const std::string map = takePerfMap(pid);
    if (!enabled) {
      EXPECT_EQ(map, "") << "TCPU_PERF_MAP=0 wrote a map";
      continue;
    }
    // "START SIZE name" in hexadecimal: the kernel's entry, with a size.
    const std::regex line(R"((^|\n)([0-9a-f]+) ([0-9a-f]+) __tcpu_entry_add_kernel\n)");
    std::smatch match;
    ASSERT_TRUE(std::regex_search(map, match, line)) << map;
    EXPECT_NE(std::stoull(match[2].str(), nullptr, 16), 0u);
    EXPECT_NE(std::stoull(match[3].str(), nullptr, 16), 0u);
  }
}

TEST(ProfilerSupport, GdbStopsInAJitLinkedKernelAndNamesIt) {
  if (runShell("command -v gdb >/dev/null 2>&1").first != 0) GTEST_SKIP() << "gdb is not installed";
  TempDir dir;
  // LeakSanitizer cannot work under ptrace: in sanitizer builds the traced tool checks no leaks
  // (its fatal "does not work under ptrace" report would count as a finding).
  const std::string gdb = "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
                          "gdb -batch -nx -ex 'set breakpoint pending on' "
                          "-ex 'break __tcpu_entry_add_kernel' -ex run -ex bt -ex kill --args ";
  for (const bool enabled : {true, false}) {
    auto [status, output] =
        runShell(concat(environment(dir, enabled ? "TCPU_GDB_JIT=1" : "TCPU_GDB_JIT=0"), gdb,
                        runVectorAdd(dir), " 2>&1"));
    const bool hit = output.find("hit Breakpoint 1") != std::string::npos;
    if (!enabled) {
      EXPECT_FALSE(hit) << "without TCPU_GDB_JIT gdb cannot see the kernel\n" << output;
      continue;
    }
    ASSERT_TRUE(hit) << output;
    EXPECT_TRUE(std::regex_search(output, std::regex(R"(#0 .* in __tcpu_entry_add_kernel)")))
        << output;
  }
}

} // namespace
} // namespace tcpu::test
