#include "pipeline/optimization.hpp"

#include <optional>

#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

#include "ir/mask_versioning.hpp"

namespace tcpu::codegen {

llvm::OptimizationLevel optimizationLevelFor(const llvm::Module& module) {
  // tcpu::tl::detail::dotProduct, mangled: every tl operation with a matrix product calls it.
  constexpr llvm::StringLiteral kDotProduct = "_ZN4tcpu2tl6detail10dotProduct";
  for (const llvm::Function& function : module)
    if (function.getName().starts_with(kDotProduct)) return llvm::OptimizationLevel::O3;
  return llvm::OptimizationLevel::O2;
}

void optimizeModule(llvm::Module& module, llvm::TargetMachine& machine,
                    const OptimizationPlan& plan) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine, plan.tuning);
  // Registered first, so it is the TargetLibraryInfo every pass sees: it lets the loop
  // vectorizer widen math calls into the vector functions.
  std::optional<llvm::TargetLibraryInfoImpl> library;
  if (plan.vectorFunctions) {
    library.emplace(machine.getTargetTriple());
    library->addVectorizableFunctions(*plan.vectorFunctions);
    functions.registerPass([&] { return llvm::TargetLibraryAnalysis(*library); });
  }
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  // In the canonical loop form the vectorizer needs.
  if (plan.versionMaskedLoops)
    builder.registerVectorizerStartEPCallback(
        [](llvm::FunctionPassManager& passes, llvm::OptimizationLevel) {
          passes.addPass(llvm::LoopSimplifyPass());
          passes.addPass(llvm::LCSSAPass());
          passes.addPass(MaskVersioningPass());
        });
  builder.buildPerModuleDefaultPipeline(plan.level).run(module, modules);
}

} // namespace tcpu::codegen
