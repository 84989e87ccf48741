// Kernels for NVIDIA GPUs: the tutorials' bitcode, the same files the CPU compiles, becomes PTX
// with one CUDA kernel per kernel, of its name, taking the launch's parameters, one thread per
// block; math comes from libdevice, device_assert from CUDA's __assertfail; CUDA's own
// assembler (ptxas) accepts the result where the machine has one. Nothing here needs a GPU.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "ptx/libdevice.hpp"
#include "ptx/ptx_compiler.hpp"

namespace tcpu::test {
namespace {

namespace fs = std::filesystem;
using codegen::PtxModule;
using codegen::PtxRequest;

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Compiled {
  std::string bytes; // keeps the request's span alive
  Expected<PtxModule> module;
};

Compiled compile(const fs::path& path, const std::string& arch = "sm_90",
                 const std::string& signature = "", const std::string& kernelName = "") {
  Compiled result{readFile(path), Status(TCPU_ERROR_UNKNOWN, "not compiled")};
  PtxRequest request;
  request.bytes = std::as_bytes(std::span(result.bytes.data(), result.bytes.size()));
  request.name = path.filename().string();
  request.arch = arch;
  request.options.signature = signature;
  request.options.kernelName = kernelName;
  result.module = codegen::compileToPtx(request);
  return result;
}

fs::path tutorial(const std::string& name) {
  return fs::path(TCPU_TUTORIAL_KERNELS_DIR) / (name + ".bc");
}

// The parameters of PTX kernel `name`, or -1 when the PTX has no such kernel.
int entryParams(const std::string& ptx, const std::string& name) {
  const std::regex entry("\\.entry " + name + "\\(([^)]*)\\)");
  std::smatch match;
  if (!std::regex_search(ptx, match, entry)) return -1;
  const std::string params = match[1].str();
  int count = 0;
  for (size_t at = params.find(".param"); at != std::string::npos;
       at = params.find(".param", at + 1))
    ++count;
  return count;
}

// CUDA's PTX assembler: $CUDA_PATH/bin, /usr/local/cuda/bin or PATH; empty if none.
std::string findPtxas() {
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(variable); root && *root)
      if (fs::exists(fs::path(root) / "bin" / "ptxas")) return (fs::path(root) / "bin" / "ptxas");
  if (fs::exists("/usr/local/cuda/bin/ptxas")) return "/usr/local/cuda/bin/ptxas";
  if (std::system("command -v ptxas >/dev/null 2>&1") == 0) return "ptxas";
  return "";
}

class TutorialPtx : public testing::TestWithParam<std::string> {};

TEST_P(TutorialPtx, EachKernelIsACudaKernelOfOneThreadPerBlock) {
  Compiled compiled = compile(tutorial(GetParam()));
  // The same bitcode the CPU runs.
  ASSERT_TRUE(compiled.module.ok()) << compiled.module.status().message();
  const PtxModule& module = *compiled.module;
  ASSERT_FALSE(module.kernels.empty());
  for (const codegen::KernelInfo& kernel : module.kernels) {
    EXPECT_EQ(kernel.entrySymbol, kernel.name);
    EXPECT_EQ(entryParams(module.ptx, kernel.name), static_cast<int>(kernel.params.size()))
        << kernel.name;
  }
  EXPECT_NE(module.ptx.find(".maxntid 1, 1, 1"), std::string::npos);
  EXPECT_NE(module.ptx.find(".target sm_90"), std::string::npos);
  // Every libdevice function is linked in: the PTX calls no external math function.
  EXPECT_EQ(module.ptx.find(".extern .func"), std::string::npos)
      << module.ptx.substr(module.ptx.find(".extern .func"), 200);

  // CUDA's own assembler accepts it, where the machine has one.
  const std::string ptxas = findPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine to assemble with";
  const fs::path directory =
      fs::temp_directory_path() / ("tcpu-ptx-test-" + std::to_string(getpid()));
  fs::create_directories(directory);
  const fs::path ptx = directory / (GetParam() + ".ptx");
  std::ofstream(ptx) << module.ptx;
  const fs::path log = directory / (GetParam() + ".log");
  // -O0: what is checked is that CUDA accepts the PTX; its optimizer takes 30 s on attention.
  const std::string command = ptxas + " -O0 -arch=sm_90 " + ptx.string() + " -o " +
                              (directory / (GetParam() + ".cubin")).string() + " >" + log.string() +
                              " 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << readFile(log);
  fs::remove_all(directory);
}

INSTANTIATE_TEST_SUITE_P(Tutorials, TutorialPtx,
                         testing::Values("vector_add", "softmax", "matmul", "dropout", "layer_norm",
                                         "attention", "extern_math", "grouped_gemm"),
                         [](const testing::TestParamInfo<std::string>& tutorialParam) {
                           return tutorialParam.param;
                         });

TEST(Ptx, SignaturesSpecializeAsOnTheCpu) {
  Compiled plain = compile(tutorial("vector_add"));
  ASSERT_TRUE(plain.module.ok()) << plain.module.status().message();
  EXPECT_EQ(entryParams(plain.module->ptx, "add_kernel"), 4);
  // ":1" binds n_elements at compile time: it leaves the CUDA kernel's parameters.
  Compiled one = compile(tutorial("vector_add"), "sm_80", "*fp32:16, *fp32:16, *fp32:16, i32:1");
  ASSERT_TRUE(one.module.ok()) << one.module.status().message();
  EXPECT_EQ(entryParams(one.module->ptx, "add_kernel"), 3);
  EXPECT_NE(one.module->ptx.find(".target sm_80"), std::string::npos);
  Compiled bad = compile(tutorial("vector_add"), "sm_90", "*fp32, *fp32, i32");
  ASSERT_FALSE(bad.module.ok());
  EXPECT_EQ(bad.module.status().code(), TCPU_ERROR_INVALID_VALUE);
  EXPECT_NE(bad.module.status().message().find("signature has 3 entries"), std::string::npos)
      << bad.module.status().message();
}

fs::path irKernel(const std::string& name) {
  return fs::path(TCPU_CODEGEN_TEST_KERNELS_DIR) / name;
}

TEST(Ptx, IrKernelsOfAnyProducerCompileToo) {
  // triton-cpu-style IR written for the CPU (x86 triple and data layout): retargeted.
  Compiled compiled = compile(irKernel("vector_add.ll"));
  ASSERT_TRUE(compiled.module.ok()) << compiled.module.status().message();
  EXPECT_EQ(entryParams(compiled.module->ptx, "add_kernel"), 4);
}

TEST(Ptx, RuntimeServicesBecomeCudasAndHostOnlyCodeIsRefused) {
  Compiled services = compile(irKernel("gpu_services.ll"));
  ASSERT_TRUE(services.module.ok()) << services.module.status().message();
  const std::string& ptx = services.module->ptx;
  EXPECT_NE(ptx.find("__assertfail"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("tcpuKernelAssertFail"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("pause"), std::string::npos) << ptx;
  Compiled printer = compile(irKernel("gpu_printer.ll"));
  ASSERT_FALSE(printer.module.ok());
  EXPECT_EQ(printer.module.status().code(), TCPU_ERROR_NOT_SUPPORTED);
  EXPECT_NE(printer.module.status().message().find("device_print"), std::string::npos)
      << printer.module.status().message();
  Compiled crc = compile(irKernel("gpu_crc.ll"));
  ASSERT_FALSE(crc.module.ok());
  EXPECT_EQ(crc.module.status().code(), TCPU_ERROR_NOT_SUPPORTED);
  EXPECT_NE(crc.module.status().message().find("llvm.x86.sse42.crc32.32.32"), std::string::npos)
      << crc.module.status().message();
}

TEST(Ptx, BadArchitecturesAndMissingLibdeviceAreErrors) {
  for (const char* arch : {"sm_20", "sm_99x", "znver3", ""}) {
    Compiled compiled = compile(tutorial("vector_add"), arch);
    ASSERT_FALSE(compiled.module.ok()) << arch;
    EXPECT_EQ(compiled.module.status().code(), TCPU_ERROR_INVALID_VALUE);
    EXPECT_NE(compiled.module.status().message().find(std::string("arch '") + arch + "'"),
              std::string::npos)
        << compiled.module.status().message();
  }
  const std::string bytes = readFile(tutorial("extern_math"));
  PtxRequest request;
  request.bytes = std::as_bytes(std::span(bytes.data(), bytes.size()));
  request.name = "extern_math.nvptx.bc";
  request.libdevice = "/nonexistent/libdevice.10.bc";
  Expected<PtxModule> missing = codegen::compileToPtx(request);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), TCPU_ERROR_FILE_NOT_FOUND);
  EXPECT_NE(missing.status().message().find("/nonexistent/libdevice.10.bc"), std::string::npos)
      << missing.status().message();
  // Looking it up names every place it looked.
  setenv("TCPU_LIBDEVICE", "/nonexistent/libdevice.10.bc", 1);
  setenv("CUDA_PATH", "/nonexistent-cuda", 1);
  Expected<std::string> found = codegen::findLibdevice();
  unsetenv("TCPU_LIBDEVICE");
  unsetenv("CUDA_PATH");
  if (!found.ok()) {
    EXPECT_EQ(found.status().code(), TCPU_ERROR_FILE_NOT_FOUND);
    EXPECT_NE(found.status().message().find("/nonexistent-cuda/nvvm/libdevice/libdevice.10.bc"),
              std::string::npos)
        << found.status().message();
  } else { // the machine's own CUDA toolkit, after the two that do not exist
    EXPECT_EQ(*found, "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  }
}

} // namespace
} // namespace tcpu::test
