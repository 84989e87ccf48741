// The constants codegen defines for kernels about their target (__tcpu_target_vector_bits,
// __tcpu_target_bf16_dot, __tcpu_target_amx_bf16): the vector width kernels prefer on each CPU,
// which CPUs have AVX512-BF16 and AMX, the definition given to a module that declares a
// constant, and to no other, and the error for a call of AVX512-BF16 or AMX code left in a module
// for a target without it.
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

std::unique_ptr<llvm::TargetMachine> machineFor(const std::string& cpu) {
  Expected<TargetDescription> target = describeTarget(cpu);
  EXPECT_TRUE(target) << target.status().message();
  if (!target) return nullptr;
  Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(*target, CompileOptions{});
  EXPECT_TRUE(machine) << machine.status().message();
  return machine ? machine.take() : nullptr;
}

// The vector width codegen would define for `cpu` (a named LLVM CPU of this host's target).
unsigned vectorBitsFor(const std::string& cpu) {
  std::unique_ptr<llvm::TargetMachine> machine = machineFor(cpu);
  if (!machine) return 0;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, kReader);
  if (!module) return 0;
  // As compiling does (retarget in compiler.cpp): the CPU, and the width kernels prefer.
  const std::string width = kernelVectorWidth(*machine);
  for (llvm::Function& function : *module) {
    function.addFnAttr("target-cpu", machine->getTargetCPU());
    if (!width.empty()) function.addFnAttr("prefer-vector-width", width);
  }
  return preferredVectorBits(*machine, *module);
}

bool bf16DotFor(const std::string& cpu) {
  std::unique_ptr<llvm::TargetMachine> machine = machineFor(cpu);
  return machine && hasBf16Dot(*machine);
}

bool amxBf16For(const std::string& cpu) {
  std::unique_ptr<llvm::TargetMachine> machine = machineFor(cpu);
  return machine && hasAmxBf16(*machine);
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

TEST(TargetConstants, Bf16DotWhereTheCpuHasAvx512Bf16AndItPays) {
  if (!llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    GTEST_SKIP() << "the named CPUs are x86's";
  EXPECT_FALSE(bf16DotFor("x86-64"));
  EXPECT_FALSE(bf16DotFor("x86-64-v3"));
  EXPECT_FALSE(bf16DotFor("x86-64-v4"));      // AVX-512 without BF16
  EXPECT_FALSE(bf16DotFor("skylake-avx512")); // likewise
  EXPECT_FALSE(bf16DotFor("icelake-server"));
  EXPECT_FALSE(bf16DotFor("znver3"));
  EXPECT_TRUE(bf16DotFor("znver4"));
  EXPECT_TRUE(bf16DotFor("znver5"));
  // Intel's: vdpbf16ps measured slower than the fp32 path there (and AMX takes bf16 products).
  EXPECT_FALSE(bf16DotFor("cooperlake"));
  EXPECT_FALSE(bf16DotFor("sapphirerapids"));
}

TEST(TargetConstants, AmxWhereTheCpuHasItsBf16Tiles) {
  if (!llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    GTEST_SKIP() << "the named CPUs are x86's";
  EXPECT_FALSE(amxBf16For("x86-64-v4"));
  EXPECT_FALSE(amxBf16For("cooperlake")); // AVX512-BF16, no AMX
  EXPECT_FALSE(amxBf16For("znver4"));
  EXPECT_TRUE(amxBf16For("sapphirerapids"));
  EXPECT_TRUE(amxBf16For("emeraldrapids"));
}

TEST(TargetConstants, ADeclarationBecomesAnInternalConstant) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, kReader);
  ASSERT_TRUE(module);
  defineTargetConstants(*module, TargetConstants{512, true});
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
  defineTargetConstants(*defined, TargetConstants{512, false});
  defineTargetConstants(*wrongType, TargetConstants{512, false});
  defineTargetConstants(*without, TargetConstants{512, false});
  const auto* own = llvm::dyn_cast<llvm::ConstantInt>(
      defined->getGlobalVariable("__tcpu_target_vector_bits")->getInitializer());
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->getZExtValue(), 7u);
  EXPECT_TRUE(wrongType->getGlobalVariable("__tcpu_target_vector_bits")->isDeclaration());
  EXPECT_EQ(without->getGlobalVariable("__tcpu_target_vector_bits"), nullptr);
  EXPECT_EQ(without->global_size(), 1u);
}

TEST(TargetConstants, TheBf16ConstantsAreDefinedAsOneOrZero) {
  for (const bool has : {false, true}) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module =
        parse(context, "@__tcpu_target_bf16_dot = external constant i32\n"
                       "@__tcpu_target_amx_bf16 = external constant i32\n");
    ASSERT_TRUE(module);
    defineTargetConstants(*module, TargetConstants{256, has, !has});
    for (const char* name : {"__tcpu_target_bf16_dot", "__tcpu_target_amx_bf16"}) {
      const llvm::GlobalVariable* global = module->getGlobalVariable(name, true);
      ASSERT_NE(global, nullptr) << name;
      ASSERT_TRUE(global->hasInitializer()) << name;
      EXPECT_TRUE(global->hasInternalLinkage()) << name;
      const auto* value = llvm::dyn_cast<llvm::ConstantInt>(global->getInitializer());
      ASSERT_NE(value, nullptr) << name;
      const bool one = std::string(name) == "__tcpu_target_bf16_dot" ? has : !has;
      EXPECT_EQ(value->getZExtValue(), one ? 1u : 0u) << name;
    }
  }
}

// A call of vdpbf16ps's intrinsic that optimization left in (its guard did not fold) is an error
// naming the intrinsic on a target without AVX512-BF16, and fine on one with it; a declaration
// nothing calls is fine everywhere.
TEST(TargetConstants, Bf16CodeLeftForATargetWithoutItIsAnError) {
  const char* const called = R"(
declare <16 x float> @llvm.x86.avx512bf16.dpbf16ps.512(<16 x float>, <32 x bfloat>, <32 x bfloat>)
define <16 x float> @f(<16 x float> %c, <32 x bfloat> %a, <32 x bfloat> %b) {
  %r = call <16 x float> @llvm.x86.avx512bf16.dpbf16ps.512(<16 x float> %c, <32 x bfloat> %a, <32 x bfloat> %b)
  ret <16 x float> %r
}
)";
  const char* const unused = R"(
declare <16 x float> @llvm.x86.avx512bf16.dpbf16ps.512(<16 x float>, <32 x bfloat>, <32 x bfloat>)
)";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> calling = parse(context, called);
  std::unique_ptr<llvm::Module> declaring = parse(context, unused);
  ASSERT_TRUE(calling && declaring);
  const Status refused = checkTargetIntrinsics(*calling, TargetConstants{256, false});
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("llvm.x86.avx512bf16.dpbf16ps.512"), std::string::npos)
      << refused.message();
  EXPECT_TRUE(checkTargetIntrinsics(*calling, TargetConstants{512, true}).ok());
  EXPECT_TRUE(checkTargetIntrinsics(*declaring, TargetConstants{256, false}).ok());
}

TEST(TargetConstants, AmxCodeLeftForATargetWithoutItIsAnError) {
  const char* const called = R"(
declare x86_amx @llvm.x86.tileloadd64.internal(i16, i16, ptr, i64)
define void @f(ptr %p) {
  %t = call x86_amx @llvm.x86.tileloadd64.internal(i16 16, i16 64, ptr %p, i64 64)
  ret void
}
)";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> calling = parse(context, called);
  ASSERT_TRUE(calling);
  const Status refused = checkTargetIntrinsics(*calling, TargetConstants{512, true, false});
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("AMX"), std::string::npos) << refused.message();
  EXPECT_TRUE(checkTargetIntrinsics(*calling, TargetConstants{512, true, true}).ok());
}

} // namespace
} // namespace tcpu::codegen
