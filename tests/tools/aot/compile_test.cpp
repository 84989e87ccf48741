// tcpu compile end to end: kernels compiled ahead of time, linked into a plain C program with
// the system C compiler against libtcpu_runtime only, give the JIT's results bit for bit; names
// and hashes follow Triton's compile.py; bad command lines fail cleanly and write nothing.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "tool_test_support.hpp"

namespace tcpu::cli {
namespace {

namespace fs = std::filesystem;
using test::aotCompile;
using test::buildAndRunC;
using test::CliResult;
using test::readText;
using test::runShell;
using test::runTool;
using test::TempDir;

const std::string kVectorAdd = std::string(TCPU_SOURCE_DIR) + "/kernels/tutorials/vector_add.cpp";
const std::string kExternMath = std::string(TCPU_SOURCE_DIR) + "/kernels/tutorials/extern_math.cpp";
const std::string kSaxpy = std::string(TCPU_SOURCE_DIR) + "/tests/codegen/kernels/saxpy_source.cpp";

TEST(Compile, NamesAndHashFollowTritonsCompilePy) {
  TempDir dir;
  const std::string signature = "*fp32:16, *fp32:16, *fp32:16, i32:16";
  const auto [header, object] =
      aotCompile(kVectorAdd, "add_kernel", signature, "(n_elements+1023)/1024,1,1",
                 (dir.path() / "add").string());
  // sha256(" ".join(entries + [meta]))[:8], computed by coreutils, not by tcpu.
  const std::string hashed = "*fp32:16 *fp32:16 *fp32:16 i32:16 threads0xtargethost";
  const std::string hash = runShell("printf '%s' '" + hashed + "' | sha256sum").second.substr(0, 8);
  EXPECT_EQ(header, (dir.path() / ("add." + hash + "_0d1d2d3d.h")).string());
  EXPECT_EQ(object, (dir.path() / ("add." + hash + "_0d1d2d3d.o")).string());
  const std::string text = readText(header);
  EXPECT_NE(text.find("// tcpu-linker: add_kernel_" + hash +
                      "_0d1d2d3d:float* x_ptr, float* y_ptr, float* output_ptr, int32_t "
                      "n_elements:_threads0xtargethost:16,16,16,16\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tcpuResult add_kernel_" + hash +
                      "_0d1d2d3d(tcpuStream stream, float* x_ptr, float* y_ptr, float* "
                      "output_ptr, int32_t n_elements);"),
            std::string::npos)
      << text;
  // --print-outputs names the same files without compiling.
  const CliResult printed = runTool({"compile", "does-not-exist.cpp", "--kernel-name", "add_kernel",
                                     "--signature", signature, "--grid", "1,1,1", "--out-path",
                                     (dir.path() / "add").string(), "--print-outputs"});
  EXPECT_EQ(printed.code, kExitSuccess) << printed.err;
  EXPECT_EQ(printed.out, header + "\n" + object + "\n");
}

TEST(Compile, NumWarpsAndStagesGiveTritonsOwnNames) {
  // With --num-warps/--num-stages the meta is Triton's "warps<W>xstages<S>" (the other one
  // taking Triton's default, 1 warp or 3 stages), so the names are compile.py's.
  TempDir dir;
  const std::string signature = "*fp32:16, *fp32:16, *fp32:16, i32:16";
  for (const auto& [options, meta] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--num-warps", "4", "--num-stages", "2"}, "warps4xstages2"},
           {{"--num-warps", "8"}, "warps8xstages3"},
           {{"--num-stages", "5"}, "warps1xstages5"}}) {
    std::vector<std::string> command = {
        "compile",        kVectorAdd, "--kernel-name", "add_kernel", "--signature",
        signature,        "--grid",   "1,1,1",         "--out-path", (dir.path() / "add").string(),
        "--print-outputs"};
    command.insert(command.end(), options.begin(), options.end());
    const CliResult printed = runTool(command);
    ASSERT_EQ(printed.code, kExitSuccess) << printed.err;
    const std::string hashed = "*fp32:16 *fp32:16 *fp32:16 i32:16 " + meta;
    const std::string hash =
        runShell("printf '%s' '" + hashed + "' | sha256sum").second.substr(0, 8);
    EXPECT_EQ(printed.out.substr(0, printed.out.find('\n')),
              (dir.path() / ("add." + hash + "_0d1d2d3d.h")).string())
        << meta;
  }
  const CliResult bad = runTool({"compile", kVectorAdd, "--kernel-name", "add_kernel",
                                 "--signature", signature, "--grid", "1,1,1", "--num-warps", "0"});
  EXPECT_EQ(bad.code, kExitUsage);
  EXPECT_NE(bad.err.find("--num-warps"), std::string::npos) << bad.err;
}

TEST(Compile, ObjectsNeedOnlyTheRuntimeAndMatchTheJitBitForBit) {
  TempDir dir;
  // Grids as Triton users write them (cdiv, max): the launcher computes what --grid evaluates
  // (a cdiv that rounded down would leave the last 675 elements of out unwritten).
  const auto aligned = aotCompile(kVectorAdd, "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32",
                                  "cdiv(n_elements, 1024),1,1", (dir.path() / "add").string());
  const auto math = aotCompile(kExternMath, "asin_kernel", "*fp32, *fp32, i32",
                               "max(cdiv(n_elements, 1024), 1), 1, 1",
                               (dir.path() / "asin").string(), {"--num-threads", "1"});
  const std::string addName = fs::path(aligned[0]).stem().string(); // add.<hash>_<suffix>
  const std::string addFunction = "add_kernel_" + addName.substr(4);
  const std::string asinFunction = "asin_kernel_" + fs::path(math[0]).stem().string().substr(5);
  std::ostringstream main;
  main << "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
       << "#include \"" << aligned[0] << "\"\n#include \"" << math[0] << "\"\n"
       << "static int threads_seen = -1;\n"
       << "static void on_enter(const tcpuLaunchHookInfo* info, void* user) {\n"
       << "  (void)user; threads_seen = info->numThreads; }\n"
       << "int main(void) {\n"
       << "  if (tcpuInit(0) != TCPU_SUCCESS) return 10;\n"
       << "  enum { N = 100003 };\n"
       << "  float* x = aligned_alloc(64, sizeof(float) * 100032);\n"
       << "  float* y = aligned_alloc(64, sizeof(float) * 100032);\n"
       << "  float* out = aligned_alloc(64, sizeof(float) * 100032);\n"
       << "  for (int i = 0; i < N; ++i) { x[i] = (float)i * 0.5f - 7.0f; y[i] = 1.0f / (float)(i "
          "+ 1); }\n"
       << "  tcpuResult r = " << addFunction << "(NULL, x, y, out, N);\n"
       << "  if (r != TCPU_SUCCESS) { printf(\"add: %d %s\\n\", r, tcpuGetLastErrorDetail()); "
          "return 11; }\n"
       << "  for (int i = 0; i < N; ++i) if (out[i] != x[i] + y[i]) { printf(\"add[%d]\\n\", i); "
          "return 12; }\n"
       << "  for (int i = 0; i < N; ++i) x[i] = (float)(i % 2001) / 1000.0f - 1.0f;\n"
       << "  tcpuSetLaunchHooks(on_enter, NULL, NULL);\n"
       << "  r = " << asinFunction << "(NULL, x, out, N);\n"
       << "  if (r != TCPU_SUCCESS) { printf(\"asin: %d %s\\n\", r, tcpuGetLastErrorDetail()); "
          "return 13; }\n"
       << "  if (threads_seen != 1) { printf(\"threads %d\\n\", threads_seen); return 14; }\n"
       << "  FILE* f = fopen(\"" << (dir.path() / "asin.bin").string() << "\", \"wb\");\n"
       << "  fwrite(out, sizeof(float), N, f); fclose(f);\n"
       << "  if (unload_" << asinFunction << "() != TCPU_SUCCESS) return 15;\n"
       << "  printf(\"ok\\n\");\n  return 0;\n}\n";
  std::string ldd;
  const auto [status, output] = buildAndRunC(dir, main.str(), {aligned[1], math[1]}, &ldd);
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(output, "ok\n");
  EXPECT_NE(ldd.find("libtcpu_runtime"), std::string::npos) << "no library list: " << ldd;
  EXPECT_EQ(ldd.find("libLLVM"), std::string::npos) << ldd;
  EXPECT_EQ(ldd.find("libclang"), std::string::npos) << ldd;
  EXPECT_EQ(ldd.find("libtcpu_codegen"), std::string::npos) << ldd;

  // The same kernel through the JIT, same inputs: the same bits.
  test::JitKernel jit(kExternMath, "asin_kernel", "*fp32, *fp32, i32");
  constexpr int n = 100003;
  std::vector<float> x(n), expected(n);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>(i % 2001) / 1000.0f - 1.0f;
  jit.launch((n + 1023) / 1024, {x.data(), expected.data()}, n);
  const std::string aot = readText(dir.path() / "asin.bin");
  ASSERT_EQ(aot.size(), sizeof(float) * n);
  EXPECT_EQ(std::memcmp(aot.data(), expected.data(), aot.size()), 0);
}

TEST(Compile, AGridWhoseCdivHasNoPositiveDivisorIsRefusedAtLaunch) {
  // max(..., 1) would turn cdiv's failure into a grid of 1: the launcher must notice it anyway,
  // as tcpu run's evaluation does.
  TempDir dir;
  const auto add = aotCompile(kVectorAdd, "add_kernel", "*fp32, *fp32, *fp32, i32",
                              "max(cdiv(n_elements, 0), 1), 1, 1", (dir.path() / "add").string());
  const std::string function = "add_kernel_" + fs::path(add[0]).stem().string().substr(4);
  std::ostringstream main;
  main << "#include <stdio.h>\n#include \"" << add[0] << "\"\n"
       << "int main(void) {\n"
       << "  if (tcpuInit(0) != TCPU_SUCCESS) return 10;\n"
       << "  float x[4] = {0}, y[4] = {0}, out[4] = {7, 7, 7, 7};\n"
       << "  tcpuResult r = " << function << "(NULL, x, y, out, 4);\n"
       << "  printf(\"%d %g\\n\", (int)r, out[0]);\n  return 0;\n}\n";
  const auto [status, output] = buildAndRunC(dir, main.str(), {add[1]});
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(output, std::to_string(TCPU_ERROR_INVALID_VALUE) + " 7\n"); // nothing launched
}

TEST(Compile, Fp32ScalarsArriveExactAndHintOneArgumentsLeaveThePrototype) {
  TempDir dir;
  const auto saxpy = aotCompile(kSaxpy, "saxpy", "fp32, *kfp32:16, *fp32:16, i32:1", "1,1,1",
                                (dir.path() / "saxpy").string());
  const std::string text = readText(saxpy[0]);
  const std::string function = "saxpy_" + fs::path(saxpy[0]).stem().string().substr(6);
  EXPECT_NE(text.find(function + "(tcpuStream stream, float alpha, const float* x, float* y);"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(":float alpha, const float* x, float* y, int32_t n:_threads0xtargethost:0,"
                      "16,16,1\n"),
            std::string::npos)
      << text;
  std::ostringstream main;
  main << "#include <stdio.h>\n#include \"" << saxpy[0] << "\"\n"
       << "int main(void) {\n"
       << "  _Alignas(16) float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n"
       << "  _Alignas(16) float y[4] = {0.0f, 0.0f, 0.0f, 0.0f};\n"
       << "  if (tcpuInit(0) != TCPU_SUCCESS) return 10;\n"
       << "  const float alpha = 0.1f;\n"
       << "  if (" << function
       << "(NULL, alpha, x, y) != TCPU_SUCCESS) return 11;\n"
       // n is specialized to 1: only y[0] changes, and by exactly alpha * 1.
       << "  if (y[0] != alpha || y[1] != 0.0f) { printf(\"%.9g %.9g\\n\", y[0], y[1]); return 12; "
          "}\n"
       << "  printf(\"ok\\n\");\n  return 0;\n}\n";
  const auto [status, output] = buildAndRunC(dir, main.str(), {saxpy[1]});
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "ok\n");
}

TEST(Compile, BadCommandLinesFailWithTheArgumentAndWriteNothing) {
  TempDir dir;
  const std::string out = (dir.path() / "k").string();
  const auto run = [&](std::vector<std::string> arguments) {
    std::vector<std::string> full = {"compile"};
    full.insert(full.end(), arguments.begin(), arguments.end());
    return runTool(full);
  };
  const std::string sig = "*fp32:16, *fp32:16, *fp32:16, i32";
  const std::string grid = "(n_elements+1023)/1024,1,1";

  CliResult r = run({kVectorAdd, "--kernel-name", "add_kernel", "--signature",
                     "*fp32:16, *fp33, *fp32, i32", "--grid", grid, "--out-path", out});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("signature column 12: unknown pointer element type 'fp33'"),
            std::string::npos)
      << r.err;

  r = run({kVectorAdd, "--kernel-name", "sub_kernel", "--signature", sig, "--grid", grid,
           "--out-path", out});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("--kernel-name: " + kVectorAdd +
                       ": the module has no kernel named 'sub_kernel' (kernels: add_kernel)"),
            std::string::npos)
      << r.err;

  r = run({kVectorAdd, "--kernel-name", "add_kernel", "--signature", sig, "--grid",
           "(n+1023)/1024,1,1", "--out-path", out});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("unknown argument 'n'"), std::string::npos) << r.err;

  // Another system: --triple needs --sysroot and the reverse; an unknown triple or a CPU of
  // another architecture is named.
  r = run({kVectorAdd, "--kernel-name", "add_kernel", "--signature", sig, "--grid", grid,
           "--out-path", out, "--triple", "aarch64-linux-gnu"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("--triple aarch64-linux-gnu needs --sysroot"), std::string::npos) << r.err;
  r = run({kVectorAdd, "--kernel-name", "add_kernel", "--signature", sig, "--grid", grid,
           "--out-path", out, "--sysroot", dir.path().string()});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("--sysroot is for --triple"), std::string::npos) << r.err;
  r = run({kVectorAdd, "--kernel-name", "add_kernel", "--signature", sig, "--grid", grid,
           "--out-path", out, "--triple", "nonsense-x-y", "--sysroot", dir.path().string()});
  EXPECT_NE(r.code, kExitSuccess);
  EXPECT_NE(r.err.find("--triple/--target: no LLVM target for nonsense-x-y"), std::string::npos)
      << r.err;
  r = run({kVectorAdd, "--kernel-name", "add_kernel", "--signature", sig, "--grid", grid,
           "--out-path", out, "--triple", "aarch64-linux-gnu", "--sysroot", dir.path().string(),
           "--target", "skylake"});
  EXPECT_NE(r.code, kExitSuccess);
  EXPECT_NE(r.err.find("target CPU 'skylake' is not a CPU LLVM knows for aarch64"),
            std::string::npos)
      << r.err;

  r = run({kVectorAdd, "--kernel-name", "add_kernel", "--signature", sig, "--grid", grid,
           "--out-path", (dir.path() / "missing-dir" / "k").string()});
  EXPECT_EQ(r.code, kExitInputOutput);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;

  r = run({(dir.path() / "nope.cpp").string(), "--kernel-name", "add_kernel", "--signature", sig,
           "--grid", grid, "--out-path", out});
  EXPECT_EQ(r.code, kExitInputOutput);
  EXPECT_NE(r.err.find("nope.cpp"), std::string::npos) << r.err;

  r = run({kVectorAdd, "--kernel-name", "add_kernel", "--signature", sig, "--grid", grid,
           "--out-name", "9lives"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("--out-name '9lives' is not a C identifier"), std::string::npos) << r.err;

  r = run({kVectorAdd, "--kernel-name", "add_kernel", "--signature", sig, "--grid", grid,
           "--out-path", out, "--target", "no-such-cpu"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("no-such-cpu"), std::string::npos) << r.err;

  EXPECT_TRUE(fs::is_empty(dir.path())) << "a failed compile left files behind";
}

} // namespace
} // namespace tcpu::cli
