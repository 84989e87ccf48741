#include "pipeline/compile_module.hpp"

#include "ir/bounds_check.hpp"
#include "pipeline/cancel_checks.hpp"
#include "pipeline/code_generation.hpp"
#include "pipeline/kernel_module.hpp"
#include "pipeline/retarget.hpp"
#include "support/llvm_guard.hpp"
#include "support/phase_timer.hpp"
#include "target/math_library.hpp"
#include "target/target_constants.hpp"

namespace tcpu::codegen {
namespace {

Status compileInto(const CompileRequest& request, CompiledModule& result) {
  const PhaseTimer preparing;
  llvm::LLVMContext context;
  DiagnosticCollector diagnostics(context);
  Expected<std::unique_ptr<llvm::Module>> parsed =
      parseKernelModule(request.bytes, request.name, context);
  if (!parsed) return parsed.status();
  llvm::Module& module = **parsed;
  if (request.withTexts) result.inputIr = irText(module);

  Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(request.target, request.options, !request.linkedCode);
  if (!machine) return machine.status();
  const SleefIsa isa = sleefIsaFor(**machine);
  retarget(module, **machine, request.options);
  const TargetConstants constants = targetConstantsFor(**machine, module);
  defineTargetConstants(module, constants);
  canonicalizeMathCalls(module);
  Expected<std::vector<KernelInfo>> kernels = prepareKernels(module, request.options);
  if (!kernels)
    return Status(kernels.status().code(), concat(request.name, ": ", kernels.status().message()));
  result.kernels = kernels.take();
  if (request.linkedCode) {
    Expected<LinkedCode> code = request.linkedCode(result.kernels);
    if (!code) return code.status();
    if (Status linked = linkCode(module, *code); !linked.ok()) return linked;
  }
  // Again, for the functions made since (the kernels' entries, the linked code): kernels are
  // inlined into their entries and vectorized there, under the entries' attributes.
  retarget(module, **machine, request.options);
  preparing.report("IR preparation");

  const SleefVectorMappings vectorMath(isa, request.options.mathUlp);
  CodeGeneration steps;
  steps.optimization.tuning.LoopVectorization = true;
  steps.optimization.tuning.SLPVectorization = true;
  steps.optimization.tuning.LoopUnrolling = true;
  steps.optimization.vectorFunctions = &vectorMath.descriptors();
  steps.optimization.versionMaskedLoops = true;
  steps.lowering = [&](llvm::Module& optimized) -> Status {
    // After optimization, so that the checks guard the vectorized accesses that run.
    if (request.options.checkBounds) instrumentBoundsChecks(optimized, result.kernels);
    insertCancelChecks(optimized);
    lowerMathToSleef(optimized, isa, request.options.mathUlp);
    if (Status supported = checkTargetIntrinsics(optimized, constants); !supported.ok())
      return Status(supported.code(), concat(request.name, ": ", supported.message()));
    return {};
  };
  GeneratedTexts texts;
  Expected<std::string> object =
      generateCode(module, **machine, steps, request.withTexts ? &texts : nullptr);
  if (!object) return object.status();
  result.object = object.take();
  result.optimizedIr = std::move(texts.optimizedIr);
  result.assembly = std::move(texts.assembly);
  if (diagnostics.hasErrors())
    return Status(TCPU_ERROR_INVALID_SOURCE, concat(request.name, ": ", diagnostics.joined()));
  return {};
}

} // namespace

Expected<CompiledModule> compileModule(const CompileRequest& request) {
  CompiledModule result;
  Status status = runGuarded("compiling the module", [&] { return compileInto(request, result); });
  if (!status.ok()) return status;
  return result;
}

} // namespace tcpu::codegen
