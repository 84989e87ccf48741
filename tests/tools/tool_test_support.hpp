// What the tool tests share: a temporary directory, whole-file reads and writes, running a
// shell command, and a kernel launched through the JIT to compare ahead-of-time results with.
#ifndef TCPU_TESTS_TOOLS_TOOL_TEST_SUPPORT_HPP
#define TCPU_TESTS_TOOLS_TOOL_TEST_SUPPORT_HPP

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir_module_loader.hpp"
#include "tcpu/tcpu.h"

namespace tcpu::test {

class TempDir {
public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tcpu-tool-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

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
