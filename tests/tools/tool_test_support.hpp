// What the tool tests share: a temporary directory, whole-file reads and writes, running a
// shell command, and a kernel launched through the JIT to compare ahead-of-time results with.
#ifndef TCPU_TESTS_TOOLS_TOOL_TEST_SUPPORT_HPP
#define TCPU_TESTS_TOOLS_TOOL_TEST_SUPPORT_HPP

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli_result.hpp"
#include "loader/ir_module_loader.hpp"
#include "tcpu/tcpu.h"
#include "temp_dir.hpp"

namespace tcpu::test {

inline std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// (exit status, stdout) of `command` run by /bin/sh.
inline std::pair<int, std::string> runShell(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return {-1, "popen failed"};
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe.get())) > 0;)
    output.append(buffer, n);
  const int status = pclose(pipe.release());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// Runs `tcpu compile` and returns the header and object it wrote.
inline std::array<std::string, 2> aotCompile(const std::string& source, const std::string& kernel,
                                             const std::string& signature, const std::string& grid,
                                             const std::string& outPath,
                                             std::vector<std::string> extra = {}) {
  std::vector<std::string> arguments = {"compile",     source,    "--kernel-name", kernel,
                                        "--signature", signature, "--grid",        grid,
                                        "--out-path",  outPath};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  const CliResult result = runTool(arguments);
  EXPECT_EQ(result.code, cli::kExitSuccess) << result.err;
  std::istringstream lines(result.out);
  std::array<std::string, 2> paths;
  std::getline(lines, paths[0]);
  std::getline(lines, paths[1]);
  EXPECT_TRUE(std::filesystem::exists(paths[0])) << paths[0];
  EXPECT_TRUE(std::filesystem::exists(paths[1])) << paths[1];
  return paths;
}

// The shared libraries `program` links, as the platform's own tool lists them: ldd on Linux,
// `otool -L` on macOS, which has no ldd.
inline std::string linkedLibraries(const std::filesystem::path& program) {
#if defined(__APPLE__)
  return runShell("otool -L " + program.string()).second;
#else
  return runShell("ldd " + program.string()).second;
#endif
}

// Builds a C program from `mainC` plus `sources` (objects, C files) with the system C compiler,
// linked against libtcpu_runtime only, and runs it; returns its exit status and output.
inline std::pair<int, std::string> buildAndRunC(const TempDir& dir, const std::string& mainC,
                                                const std::vector<std::string>& sources,
                                                std::string* lddOutput = nullptr) {
  writeText(dir.path() / "main.c", mainC);
  const std::filesystem::path runtime = TCPU_RUNTIME_LIBRARY;
  std::ostringstream command;
  command << TCPU_C_COMPILER << " -std=c11 -Wall -Wextra -Werror -pedantic -I"
          << dir.path().string() << " -I" TCPU_RUNTIME_INCLUDE_DIR " "
          << (dir.path() / "main.c").string();
  for (const std::string& source : sources)
    command << " " << source;
  command << " -L" << runtime.parent_path().string() << " -ltcpu_runtime -lsleef -lm -Wl,-rpath,"
          << runtime.parent_path().string() << " -o " << (dir.path() / "program").string();
  auto [built, buildOutput] = runShell(command.str() + " 2>&1");
  if (built != 0) return {built, "build failed: " + command.str() + "\n" + buildOutput};
  if (lddOutput) *lddOutput = linkedLibraries(dir.path() / "program");
  return runShell((dir.path() / "program").string() + " 2>&1");
}

// A kernel loaded through codegen's JIT with a signature, launched over a 1-D grid with pointer
// arguments followed by one int32 count.
class JitKernel {
public:
  JitKernel(const std::string& path, const std::string& kernel, const std::string& signature) {
    EXPECT_EQ(tcpuInit(0), TCPU_SUCCESS);
    tcpu::registerModuleLoader(std::make_shared<tcpu::codegen::IrModuleLoader>());
    tcpuJitOption keys[] = {TCPU_JIT_KERNEL_NAME, TCPU_JIT_SIGNATURE};
    void* values[] = {const_cast<char*>(kernel.c_str()), const_cast<char*>(signature.c_str())};
    EXPECT_EQ(tcpuModuleLoadEx(&module_, path.c_str(), 2, keys, values), TCPU_SUCCESS)
        << tcpuGetLastErrorDetail();
    EXPECT_EQ(tcpuModuleGetFunction(&function_, module_, kernel.c_str()), TCPU_SUCCESS)
        << tcpuGetLastErrorDetail();
  }
  ~JitKernel() { tcpuModuleUnload(module_); }
  JitKernel(const JitKernel&) = delete;
  JitKernel& operator=(const JitKernel&) = delete;

  void launch(unsigned gridX, std::vector<void*> pointers, int32_t count) {
    std::vector<void*> params;
    for (void*& pointer : pointers)
      params.push_back(&pointer);
    params.push_back(&count);
    EXPECT_EQ(tcpuLaunchKernel(function_, gridX, 1, 1, 1, 1, 1, 0, nullptr, params.data(), nullptr),
              TCPU_SUCCESS)
        << tcpuGetLastErrorDetail();
  }

private:
  tcpuModule module_ = nullptr;
  tcpuFunction function_ = nullptr;
};

} // namespace tcpu::test

#endif // TCPU_TESTS_TOOLS_TOOL_TEST_SUPPORT_HPP
