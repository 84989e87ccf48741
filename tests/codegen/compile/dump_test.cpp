// Looking inside: TCPU_DUMP_DIR and tcpuModuleGetText.
#include <fstream>
#include <iterator>

#include "codegen_test_support.hpp"

namespace tcpu::test {
namespace {

class Dumps : public CodegenTest {};

TEST_F(Dumps, DumpDirectoryGetsInputOptimizedIrAndAssembly) {
  const std::filesystem::path directory = cacheDir_ / "dumps";
  setenv("TCPU_DUMP_DIR", directory.c_str(), 1);
  load("nv_expf.ll");
  unsetenv("TCPU_DUMP_DIR");
  std::map<std::string, std::string> texts;
  for (const auto& item : std::filesystem::directory_iterator(directory)) {
    std::ifstream in(item.path(), std::ios::binary);
    const std::string name = item.path().filename().string();
    texts[name.substr(name.find('.'))] =
        std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  ASSERT_EQ(texts.size(), 3u);
  EXPECT_NE(texts[".input.ll"].find("@__nv_expf"), std::string::npos);
  EXPECT_NE(texts[".opt.ll"].find("__tcpu_entry_nv_exp"), std::string::npos);
  EXPECT_NE(texts[".s"].find("Sleef_expf"), std::string::npos);
}

TEST_F(Dumps, ModuleTextsThroughTheApi) {
  const tcpuModule module = load("vector_add.ll");
  EXPECT_NE(text(module, TCPU_MODULE_TEXT_INPUT_IR).find("define void @add_kernel"),
            std::string::npos);
  const std::string optimized = text(module, TCPU_MODULE_TEXT_OPTIMIZED_IR);
  EXPECT_NE(optimized.find("define void @__tcpu_entry_add_kernel"), std::string::npos);
  EXPECT_NE(optimized.find("<"), std::string::npos) << "expected vectorized code";
  EXPECT_NE(text(module, TCPU_MODULE_TEXT_ASSEMBLY).find("__tcpu_entry_add_kernel"),
            std::string::npos);
  const char* value = nullptr;
  EXPECT_TCPU_ERROR(tcpuModuleGetText(&value, module, static_cast<tcpuModuleText>(9)),
                    TCPU_ERROR_INVALID_VALUE, "kind=9");
}

} // namespace
} // namespace tcpu::test
