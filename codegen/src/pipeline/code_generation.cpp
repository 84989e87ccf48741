#include "pipeline/code_generation.hpp"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "support/phase_timer.hpp"

namespace tcpu::codegen {
namespace {

// TCPU_ERROR_UNKNOWN with LLVM's verifier's findings when what tcpu made of a module is not
// valid IR (a tcpu bug), before code generation could crash on it.
Status verifyProducedIr(const llvm::Module& module) {
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyModule(module, &out))
    return Status(TCPU_ERROR_UNKNOWN, concat("tcpu produced invalid IR (a tcpu bug): ", out.str()));
  return {};
}

Expected<std::string> emitFile(llvm::Module& module, llvm::TargetMachine& machine,
                               llvm::CodeGenFileType type) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream out(buffer);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, out, nullptr, type))
    return Status(TCPU_ERROR_NOT_SUPPORTED, "the target cannot emit this kind of file");
  passes.run(module);
  return std::string(buffer.data(), buffer.size());
}

} // namespace

std::string irText(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream out(text);
  module.print(out, nullptr);
  return text;
}

Expected<std::string> generateCode(llvm::Module& module, llvm::TargetMachine& machine,
                                   const CodeGeneration& steps, GeneratedTexts* texts) {
  const PhaseTimer optimizing;
  optimizeModule(module, machine, steps.optimization);
  optimizing.report("optimization");
  if (steps.lowering)
    if (Status lowered = steps.lowering(module); !lowered.ok()) return lowered;
  if (Status valid = verifyProducedIr(module); !valid.ok()) return valid;
  if (texts) {
    texts->optimizedIr = irText(module);
    // Emitting changes the module: the assembly is made of a copy.
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(module);
    Expected<std::string> assembly = emitFile(*copy, machine, llvm::CodeGenFileType::AssemblyFile);
    if (!assembly) return assembly.status();
    texts->assembly = assembly.take();
  }
  const PhaseTimer emitting;
  Expected<std::string> file = emitFile(module, machine, steps.output);
  emitting.report("code generation");
  return file;
}

} // namespace tcpu::codegen
