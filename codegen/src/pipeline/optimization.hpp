// The optimization pass of every target's pipeline: LLVM's O3, tuned per target.
#ifndef TCPU_CODEGEN_OPTIMIZATION_HPP
#define TCPU_CODEGEN_OPTIMIZATION_HPP

#include <vector>

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Target/TargetMachine.h>

namespace tcpu::codegen {

struct OptimizationPlan {
  llvm::PipelineTuningOptions tuning;
  // Vector variants of math functions the loop vectorizer may widen calls into (SLEEF's);
  // null: LLVM's own library info for the triple.
  const std::vector<llvm::VecDesc>* vectorFunctions = nullptr;
  // Masked block loops get an unmasked twin right before vectorization (mask_versioning.hpp).
  bool versionMaskedLoops = false;
};

// LLVM's O3 pipeline for `machine`, as `plan` tunes it.
void optimizeModule(llvm::Module& module, llvm::TargetMachine& machine,
                    const OptimizationPlan& plan);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_OPTIMIZATION_HPP
