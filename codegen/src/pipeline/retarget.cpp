#include "pipeline/retarget.hpp"

#include <llvm/IR/Operator.h>

#include "target/target.hpp"

namespace tcpu::codegen {

void retarget(llvm::Module& module, const llvm::TargetMachine& machine,
              const CompileOptions& options) {
  module.setTargetTriple(machine.getTargetTriple().str());
  module.setDataLayout(machine.createDataLayout());
  const std::string cpu = machine.getTargetCPU().str();
  const std::string features = machine.getTargetFeatureString().str();
  const std::string vectorWidth = kernelVectorWidth(machine);
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    // The producer's tuning would fight ours: a "min-legal-vector-width" below
    // 512 makes 512-bit vectors pass in two ymm registers, which SLEEF's
    // avx512f functions do not expect.
    for (const char* attribute : {"tune-cpu", "prefer-vector-width", "min-legal-vector-width"})
      function.removeFnAttr(attribute);
    if (!vectorWidth.empty()) function.addFnAttr("prefer-vector-width", vectorWidth);
    function.addFnAttr("target-cpu", cpu);
    if (features.empty())
      function.removeFnAttr("target-features");
    else
      function.addFnAttr("target-features", features);
    if (!options.fastMath) continue;
    for (const char* attribute : {"unsafe-fp-math", "no-infs-fp-math", "no-nans-fp-math",
                                  "no-signed-zeros-fp-math", "approx-func-fp-math"})
      function.addFnAttr(attribute, "true");
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block)
        if (llvm::isa<llvm::FPMathOperator>(instruction)) instruction.setFast(true);
  }
}

} // namespace tcpu::codegen
