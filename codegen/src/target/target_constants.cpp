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
  // AMD's Zen only: there vdpbf16ps ran tl's bf16 matmul at 1.6x the fp32 path (Zen 4); on
  // Intel's cores it ran at 0.75-0.8x of it (Emerald Rapids, whose AMX takes such products).
  return machine.getTargetTriple().isX86() && subtarget &&
         machine.getTargetCPU().starts_with("znver") &&
         subtarget->checkFeatures("+avx512bf16,+avx512f,+evex512");
}

bool hasAmxBf16(const llvm::TargetMachine& machine) {
  const llvm::MCSubtargetInfo* subtarget = machine.getMCSubtargetInfo();
  return machine.getTargetTriple().isX86() && machine.getTargetTriple().isArch64Bit() &&
         subtarget && subtarget->checkFeatures("+amx-tile,+amx-bf16");
}

TargetConstants targetConstantsFor(const llvm::TargetMachine& machine, const llvm::Module& module) {
  return {preferredVectorBits(machine, module), hasBf16Dot(machine), hasAmxBf16(machine)};
}

void defineTargetConstants(llvm::Module& module, const TargetConstants& constants) {
  defineConstant(module, "__tcpu_target_vector_bits", constants.vectorBits);
  defineConstant(module, "__tcpu_target_bf16_dot", constants.bf16Dot ? 1 : 0);
  defineConstant(module, "__tcpu_target_amx_bf16", constants.amxBf16 ? 1 : 0);
}

Status checkTargetIntrinsics(const llvm::Module& module, const TargetConstants& constants) {
  // The intrinsics of each guarded instruction set, by prefix, with the CPU feature they need.
  struct Guarded {
    const char* prefix;
    bool available;
    const char* feature;
    const char* constant;
  };
  const Guarded guarded[] = {
      {"llvm.x86.avx512bf16.", constants.bf16Dot, "AVX512-BF16", "__tcpu_target_bf16_dot"},
      {"llvm.x86.tile", constants.amxBf16, "AMX", "__tcpu_target_amx_bf16"},
      {"llvm.x86.tdp", constants.amxBf16, "AMX", "__tcpu_target_amx_bf16"},
      {"llvm.x86.ldtilecfg", constants.amxBf16, "AMX", "__tcpu_target_amx_bf16"},
  };
  for (const llvm::Function& function : module) {
    if (!function.isDeclaration() || function.use_empty()) continue;
    for (const Guarded& set : guarded)
      if (!set.available && function.getName().starts_with(set.prefix))
        return Status(TCPU_ERROR_NOT_SUPPORTED,
                      "the kernel calls " + function.getName().str() + ", which needs " +
                          set.feature +
                          ", and the target has none (a call of the module's own, "
                          "or tl's branch on " +
                          set.constant + " that did not fold: a tcpu bug)");
  }
  return {};
}

} // namespace tcpu::codegen
