// The tail every target's pipeline shares, from a module with its kernels prepared to the file
// the target runs: optimization, the target's lowering, a check of what tcpu made, emission.
#ifndef TCPU_CODEGEN_CODE_GENERATION_HPP
#define TCPU_CODEGEN_CODE_GENERATION_HPP

#include <functional>
#include <string>

#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "pipeline/optimization.hpp"
#include "tcpu/status.hpp"

namespace tcpu::codegen {

struct CodeGeneration {
  OptimizationPlan optimization;
  // What must follow optimization on this target (math lowered to its library, bounds checks
  // on the accesses that run), and its refusals of code it cannot run; may be empty.
  std::function<Status(llvm::Module&)> lowering;
  llvm::CodeGenFileType output = llvm::CodeGenFileType::ObjectFile; // or assembly (PTX)
};

// The optimized IR and the assembly of a compile, made only when asked for (dumps, tcpu inspect).
struct GeneratedTexts {
  std::string optimizedIr;
  std::string assembly;
};

// Optimizes `module` for `machine`, lowers it, verifies it and emits `steps.output`: the file's
// bytes. With `texts`, fills them too.
Expected<std::string> generateCode(llvm::Module& module, llvm::TargetMachine& machine,
                                   const CodeGeneration& steps, GeneratedTexts* texts = nullptr);

// The module as IR text.
std::string irText(const llvm::Module& module);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_CODE_GENERATION_HPP
