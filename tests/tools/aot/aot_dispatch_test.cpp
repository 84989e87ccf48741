// tcpu compile + tcpu link together, on real compiled kernels: the dispatcher picks the most
// specialized object whose hints hold (aligned or not, value 1, divisible by 16, neither),
// returns TCPU_ERROR_INVALID_VALUE when none does, and selects algorithms by id.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tool_test_support.hpp"

namespace tcpu::cli {
namespace {

namespace fs = std::filesystem;
using test::aotCompile;
using test::buildAndRunC;
using test::CliResult;
using test::runTool;
using test::TempDir;
using test::writeText;

// One kernel source per specialization, each writing its own tag, so that the program can
// tell which object the dispatcher ran. Same name and parameters as tutorial 01's add_kernel.
std::string taggedKernel(int tag) {
  std::ostringstream source;
  source << "#include <cstdint>\n"
         << "extern \"C\" void add_kernel(const float* x_ptr, const float* y_ptr, float* "
            "output_ptr, int32_t n_elements, uint32_t pid, uint32_t, uint32_t, uint32_t, "
            "uint32_t, uint32_t) {\n"
         << "  if (pid == 0) output_ptr[0] = x_ptr[0] + y_ptr[0] + " << tag << ".0f;\n"
         << "  (void)n_elements;\n}\n";
  return source.str();
}

class AotDispatch : public ::testing::Test {
protected:
  // Compiles the tagged kernel `tag` with a signature (and extra options) under out-name "add".
  std::string specialization(int tag, const std::string& signature,
                             std::vector<std::string> extra = {}) {
    const fs::path source = dir_.path() / ("tag" + std::to_string(tag) + ".cpp");
    writeText(source, taggedKernel(tag));
    extra.insert(extra.end(), {"--out-name", "add"});
    const auto paths = aotCompile(source.string(), "add_kernel", signature, "1,1,1",
                                  (dir_.path() / ("tag" + std::to_string(tag))).string(), extra);
    objects_.push_back(paths[1]);
    return paths[0];
  }
  void link(const std::vector<std::string>& headers, const std::string& name) {
    std::vector<std::string> arguments = {"link"};
    arguments.insert(arguments.end(), headers.begin(), headers.end());
    arguments.insert(arguments.end(), {"-o", (dir_.path() / name).string()});
    const CliResult result = runTool(arguments);
    ASSERT_EQ(result.code, kExitSuccess) << result.err;
    objects_.push_back((dir_.path() / (name + ".c")).string());
  }
  // Runs `body` (C statements) in a program where x, y, out are 64-byte aligned, with
  // `call(X, Y, N)` launching through the dispatcher and `ran` its tag (0: nothing written).
  void expectProgram(const std::string& include, const std::string& body) {
    std::ostringstream main;
    main << "#include <stdio.h>\n#include <stdlib.h>\n#include \"" << include << "\"\n"
         << "static float* out;\n"
         << "static int ran(void) { int tag = (int)(out[0] - 3.0f); out[0] = 0.0f; return tag; }\n"
         << "#define EXPECT(c) do { if (!(c)) { printf(\"line %d: %s\\n\", __LINE__, #c); "
            "return 1; } } while (0)\n"
         << "int main(void) {\n"
         << "  if (tcpuInit(0) != TCPU_SUCCESS) return 2;\n"
         << "  float* x = aligned_alloc(64, 256); float* y = aligned_alloc(64, 256);\n"
         << "  out = aligned_alloc(64, 256);\n"
         << "  for (int i = 0; i < 64; ++i) { x[i] = 1.0f; y[i] = 2.0f; out[i] = 0.0f; }\n"
         << body << "\n  printf(\"ok\\n\");\n  return 0;\n}\n";
    const auto [status, output] = buildAndRunC(dir_, main.str(), objects_);
    EXPECT_EQ(status, 0) << output;
    EXPECT_EQ(output, "ok\n");
  }

  TempDir dir_;
  std::vector<std::string> objects_;
};

TEST_F(AotDispatch, PicksTheMostSpecializedObjectWhoseHintsHold) {
  const std::string aligned = specialization(1, "*fp32:16, *fp32:16, *fp32:16, i32:16");
  const std::string one = specialization(2, "*fp32:16, *fp32:16, *fp32:16, i32:1");
  const std::string generic = specialization(3, "*fp32, *fp32, *fp32, i32");
  link({generic, one, aligned}, "dispatch");
  expectProgram("dispatch.h", R"(
  EXPECT(add_default(NULL, x, y, out, 32) == TCPU_SUCCESS && ran() == 1);
  EXPECT(add_default(NULL, x, y, out, 1) == TCPU_SUCCESS && ran() == 2);
  EXPECT(add_default(NULL, x, y, out, 17) == TCPU_SUCCESS && ran() == 3);
  EXPECT(add_default(NULL, x + 1, y, out, 32) == TCPU_SUCCESS && ran() == 3);
  EXPECT(add_default(NULL, x, y + 2, out, 1) == TCPU_SUCCESS && ran() == 3);
  EXPECT(add_get_num_algos() == 1);
  EXPECT(add(NULL, x, y, out, 32, 0) == TCPU_SUCCESS && ran() == 1);
  EXPECT(add(NULL, x, y, out, 32, 1) == TCPU_ERROR_INVALID_VALUE && ran() == -3);
  EXPECT(add(NULL, x, y, out, 32, -1) == TCPU_ERROR_INVALID_VALUE);
  EXPECT(unload_add() == TCPU_SUCCESS);
  EXPECT(load_add() == TCPU_SUCCESS);)");
}

TEST_F(AotDispatch, NoMatchingSpecializationIsInvalidValueAndAlgorithmsAreSelectedById) {
  const std::string aligned = specialization(1, "*fp32:16, *fp32:16, *fp32:16, i32:16");
  const std::string serial =
      specialization(4, "*fp32:16, *fp32:16, *fp32:16, i32:16", {"--num-threads", "1"});
  link({aligned, serial}, "strict");
  expectProgram("strict.h", R"(
  EXPECT(add_get_num_algos() == 2);
  EXPECT(add(NULL, x, y, out, 32, 0) == TCPU_SUCCESS && ran() == 1);
  EXPECT(add(NULL, x, y, out, 32, 1) == TCPU_SUCCESS && ran() == 4);
  EXPECT(add(NULL, x, y, out, 17, 0) == TCPU_ERROR_INVALID_VALUE && ran() == -3);
  EXPECT(add(NULL, x + 1, y, out, 32, 1) == TCPU_ERROR_INVALID_VALUE && ran() == -3);)");
}

} // namespace
} // namespace tcpu::cli
