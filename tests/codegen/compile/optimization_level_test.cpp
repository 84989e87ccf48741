// The level each CPU kernel module is optimized at (pipeline/optimization.hpp): O3 for the
// tutorials that compute matrix products, O2 for the rest. Read from the tutorials' bitcode, so
// that a renamed tl function the choice looks for fails here, not as a slower matmul.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/SourceMgr.h>

#include "pipeline/optimization.hpp"

namespace tcpu::codegen {
namespace {

llvm::OptimizationLevel levelOf(const std::string& tutorial) {
  const std::filesystem::path path =
      std::filesystem::path(TCPU_TUTORIAL_KERNELS_DIR) / (tutorial + ".bc");
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseIRFile(path.string(), error, context);
  EXPECT_TRUE(module) << path << ": " << error.getMessage().str();
  return module ? optimizationLevelFor(*module) : llvm::OptimizationLevel::O0;
}

TEST(OptimizationLevel, ModulesWithAMatrixProductGetO3) {
  for (const char* tutorial : {"matmul", "attention", "grouped_gemm"})
    EXPECT_EQ(levelOf(tutorial), llvm::OptimizationLevel::O3) << tutorial;
}

TEST(OptimizationLevel, TheRestGetO2) {
  for (const char* tutorial : {"vector_add", "softmax", "layer_norm", "dropout", "extern_math"})
    EXPECT_EQ(levelOf(tutorial), llvm::OptimizationLevel::O2) << tutorial;
}

} // namespace
} // namespace tcpu::codegen
