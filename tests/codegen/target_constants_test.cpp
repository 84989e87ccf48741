// The constants codegen defines for kernels about their target (__tcpu_target_vector_bits):
// the vector width kernels prefer on each CPU, and the definition given to a module that
// declares the constant, and to no other.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include "target/target.hpp"
#include "target/target_constants.hpp"

namespace tcpu::codegen {
namespace {

const char* const kReader = R"(
@__tcpu_target_vector_bits = external constant i32
define i32 @read() {
  %bits = load i32, ptr @__tcpu_target_vector_bits
  ret i32 %bits
}
)";

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext& context, const std::string& text) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(text, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

// The vector width codegen would define for `cpu` (a named LLVM CPU of this host's target).
unsigned vectorBitsFor(const std::string& cpu) {
  Expected<TargetDescription> target = describeTarget(cpu);
  EXPECT_TRUE(target) << target.status().message();
  if (!target) return 0;
  Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(*target, CompileOptions{});
  EXPECT_TRUE(machine) << machine.status().message();
  if (!machine) return 0;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, kReader);
  if (!module) return 0;
  // As compiling does (retarget in compiler.cpp): the CPU, and the width kernels prefer.
  const std::string width = kernelVectorWidth(**machine);
  for (llvm::Function& function : *module) {
    function.addFnAttr("target-cpu", (*machine)->getTargetCPU());
    if (!width.empty()) function.addFnAttr("prefer-vector-width", width);
  }
  return preferredVectorBits(**machine, *module);
}

TEST(TargetConstants, VectorBitsFollowTheCpusTuning) {
  if (!llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    GTEST_SKIP() << "the named CPUs are x86's";
  EXPECT_EQ(vectorBitsFor("x86-64"), 128u);    // SSE2
  EXPECT_EQ(vectorBitsFor("x86-64-v3"), 256u); // AVX2
  // AVX-512: zmm, whether the CPU's own tuning prefers them (AMD's) or ymm (Intel's).
  EXPECT_EQ(vectorBitsFor("skylake-avx512"), 512u);
  EXPECT_EQ(vectorBitsFor("emeraldrapids"), 512u);
  EXPECT_EQ(vectorBitsFor("znver4"), 512u);
  EXPECT_GE(vectorBitsFor(""), 128u) << "the host";
}

TEST(TargetConstants, ADeclarationBecomesAnInternalConstant) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, kReader);
  ASSERT_TRUE(module);
  defineTargetConstants(*module, 512);
  const llvm::GlobalVariable* global = module->getGlobalVariable("__tcpu_target_vector_bits", true);
  ASSERT_NE(global, nullptr);
  ASSERT_TRUE(global->hasInitializer());
  EXPECT_TRUE(global->isConstant());
  EXPECT_TRUE(global->hasInternalLinkage());
  const auto* value = llvm::dyn_cast<llvm::ConstantInt>(global->getInitializer());
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(value->getZExtValue(), 512u);
}

TEST(TargetConstants, ModulesThatDoNotDeclareItAreLeftAsTheyAre) {
  llvm::LLVMContext context;
  // Its own definition stays, as does a global of that name but another type.
  std::unique_ptr<llvm::Module> defined =
      parse(context, "@__tcpu_target_vector_bits = constant i32 7\n");
  std::unique_ptr<llvm::Module> wrongType =
      parse(context, "@__tcpu_target_vector_bits = external global i64\n");
  std::unique_ptr<llvm::Module> without = parse(context, "@other = external global i32\n");
  ASSERT_TRUE(defined && wrongType && without);
  defineTargetConstants(*defined, 512);
  defineTargetConstants(*wrongType, 512);
  defineTargetConstants(*without, 512);
  const auto* own = llvm::dyn_cast<llvm::ConstantInt>(
      defined->getGlobalVariable("__tcpu_target_vector_bits")->getInitializer());
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->getZExtValue(), 7u);
  EXPECT_TRUE(wrongType->getGlobalVariable("__tcpu_target_vector_bits")->isDeclaration());
  EXPECT_EQ(without->getGlobalVariable("__tcpu_target_vector_bits"), nullptr);
  EXPECT_EQ(without->global_size(), 1u);
}

} // namespace
} // namespace tcpu::codegen
