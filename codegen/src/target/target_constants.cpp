#include "target/target_constants.hpp"

#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/MC/MCSubtargetInfo.h>

namespace tcpu::codegen {

namespace {

void defineConstant(llvm::Module& module, const char* name, unsigned value) {
  llvm::GlobalVariable* global = module.getGlobalVariable(name);
  if (!global || !global->isDeclaration() || !global->getValueType()->isIntegerTy(32)) return;
  global->setInitializer(llvm::ConstantInt::get(global->getValueType(), value));
  global->setConstant(true);
  global->setLinkage(llvm::GlobalValue::InternalLinkage);
}

} // namespace

unsigned preferredVectorBits(const llvm::TargetMachine& machine, const llvm::Module& module) {
  for (const llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    const llvm::TargetTransformInfo info = machine.getTargetTransformInfo(function);
    return static_cast<unsigned>(
        info.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector).getFixedValue());
  }
  return 0;
}

bool hasBf16Dot(const llvm::TargetMachine& machine) {
  const llvm::MCSubtargetInfo* subtarget = machine.getMCSubtargetInfo();
  return machine.getTargetTriple().isX86() && subtarget &&
         subtarget->checkFeatures("+avx512bf16,+avx512f,+evex512");
}

TargetConstants targetConstantsFor(const llvm::TargetMachine& machine, const llvm::Module& module) {
  return {preferredVectorBits(machine, module), hasBf16Dot(machine)};
}

void defineTargetConstants(llvm::Module& module, const TargetConstants& constants) {
  defineConstant(module, "__tcpu_target_vector_bits", constants.vectorBits);
  defineConstant(module, "__tcpu_target_bf16_dot", constants.bf16Dot ? 1 : 0);
}

Status checkTargetIntrinsics(const llvm::Module& module, const TargetConstants& constants) {
  if (constants.bf16Dot) return {};
  for (const llvm::Function& function : module)
    if (function.isDeclaration() && function.getName().starts_with("llvm.x86.avx512bf16.") &&
        !function.use_empty())
      return Status(TCPU_ERROR_UNKNOWN, "the kernel calls " + function.getName().str() +
                                            " but the target has no AVX512-BF16 (a branch on "
                                            "__tcpu_target_bf16_dot did not fold: a tcpu bug)");
  return {};
}

} // namespace tcpu::codegen
