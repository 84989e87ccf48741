#include "target/target_constants.hpp"

#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>

namespace tcpu::codegen {

unsigned preferredVectorBits(const llvm::TargetMachine& machine, const llvm::Module& module) {
  for (const llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    const llvm::TargetTransformInfo info = machine.getTargetTransformInfo(function);
    return static_cast<unsigned>(
        info.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector).getFixedValue());
  }
  return 0;
}

void defineTargetConstants(llvm::Module& module, unsigned vectorBits) {
  llvm::GlobalVariable* global = module.getGlobalVariable("__tcpu_target_vector_bits");
  if (!global || !global->isDeclaration() || !global->getValueType()->isIntegerTy(32)) return;
  global->setInitializer(llvm::ConstantInt::get(global->getValueType(), vectorBits));
  global->setConstant(true);
  global->setLinkage(llvm::GlobalValue::InternalLinkage);
}

} // namespace tcpu::codegen
