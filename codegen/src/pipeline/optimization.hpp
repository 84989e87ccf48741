// The optimization pass of every target's pipeline: LLVM's O2 or O3, tuned per target.
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
  llvm::OptimizationLevel level = llvm::OptimizationLevel::O3;
};

// The level a CPU kernel module is optimized at: O3 where it computes matrix products (tl's
// dot and what is built on it, found by tl's one function all of them call), O2 elsewhere.
// Measured on the tutorials (bench/RESULTS.md, 2026-12-08): O2 optimizes 25-35 % faster and
// halves code generation for softmax, and its kernels ran as fast (vector add, matmul) or
// faster (softmax, layer norm: O3's extra unrolling costs there); only attention ran 5 % slower
// at O2, so modules with a dot keep O3.
llvm::OptimizationLevel optimizationLevelFor(const llvm::Module& module);

// LLVM's default pipeline at `plan.level` for `machine`, as `plan` tunes it.
void optimizeModule(llvm::Module& module, llvm::TargetMachine& machine,
                    const OptimizationPlan& plan);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_OPTIMIZATION_HPP
