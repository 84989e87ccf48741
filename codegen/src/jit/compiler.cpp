#include "jit/compiler.hpp"

#include <set>

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

#include "ir/bounds_check.hpp"
#include "ir/mask_versioning.hpp"
#include "support/llvm_guard.hpp"
#include "target/math_library.hpp"
#include "target/target_constants.hpp"

namespace tcpu::codegen {
namespace {

std::string print(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream out(text);
  module.print(out, nullptr);
  return text;
}

} // namespace

Expected<std::unique_ptr<llvm::Module>> parseKernelModule(std::span<const std::byte> bytesIn,
                                                          const std::string& name,
                                                          llvm::LLVMContext& context) {
  const llvm::StringRef bytes(reinterpret_cast<const char*>(bytesIn.data()), bytesIn.size());
  llvm::SMDiagnostic diagnostic;
  // A copy, because LLVM's text parser needs a NUL after the last byte.
  const std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(bytes, name);
  std::unique_ptr<llvm::Module> module = llvm::parseIR(*buffer, diagnostic, context);
  if (!module)
    return Status(TCPU_ERROR_INVALID_SOURCE,
                  concat(name, ":", diagnostic.getLineNo(), ":", diagnostic.getColumnNo() + 1, ": ",
                         diagnostic.getMessage().str()));
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyModule(*module, &out))
    return Status(TCPU_ERROR_INVALID_SOURCE,
                  concat(name, ": the IR fails LLVM's verifier: ", out.str()));
  // Objects are linked without running initializers, so a module that needs them is refused.
  for (const char* list : {"llvm.global_ctors", "llvm.global_dtors"})
    if (const llvm::GlobalVariable* table = module->getNamedGlobal(list);
        table && table->hasInitializer() && !table->getInitializer()->isNullValue())
      return Status(TCPU_ERROR_NOT_SUPPORTED,
                    concat(name, ": the module has static constructors or destructors (", list,
                           "), which kernel modules cannot have"));
  // Appending linkage is for LLVM's special arrays; the code generator stops with a fatal error
  // on any other global that has it (found by tests/fuzz/fuzz_ir).
  for (const llvm::GlobalVariable& global : module->globals())
    if (global.hasAppendingLinkage() && global.getSection() != "llvm.metadata" &&
        !llvm::is_contained(
            {"llvm.used", "llvm.compiler.used", "llvm.global_ctors", "llvm.global_dtors"},
            global.getName()))
      return Status(TCPU_ERROR_INVALID_SOURCE,
                    concat(name, ": global @", global.getName().str(),
                           " has appending linkage, which only LLVM's special arrays "
                           "(llvm.used, llvm.global_ctors, ...) can have"));
  return module;
}

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

namespace {

// The CPU and features of the target on every function, replacing what the
// producer wrote (clang writes its own defaults), and fast-math if asked.
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

void optimize(llvm::Module& module, llvm::TargetMachine& machine, const SleefIsa& isa, int ulp) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  tuning.LoopUnrolling = true;
  llvm::PassBuilder builder(&machine, tuning);
  // Registered first, so it is the TargetLibraryInfo every pass sees: it
  // lets the loop vectorizer widen math calls into SLEEF's vector functions.
  const SleefVectorMappings mappings(isa, ulp);
  llvm::TargetLibraryInfoImpl library(machine.getTargetTriple());
  library.addVectorizableFunctions(mappings.descriptors());
  functions.registerPass([&] { return llvm::TargetLibraryAnalysis(library); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  // Right before vectorization, masked block loops get an unmasked twin
  // (see mask_versioning.hpp), in the canonical loop form the vectorizer needs.
  builder.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager& passes, llvm::OptimizationLevel) {
        passes.addPass(llvm::LoopSimplifyPass());
        passes.addPass(llvm::LCSSAPass());
        passes.addPass(MaskVersioningPass());
      });
  llvm::ModulePassManager pipeline =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  pipeline.run(module, modules);
}

// Links the ahead-of-time code into the module and leaves only its exports visible.
Status linkAheadOfTimeCode(llvm::Module& module, const CompileRequest& request,
                           const std::vector<KernelInfo>& kernels) {
  Expected<LinkedCode> code = request.linkedCode(kernels);
  if (!code) return code.status();
  llvm::Expected<std::unique_ptr<llvm::Module>> linked = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(code->bitcode, "aot-launcher"), module.getContext());
  if (!linked)
    return Status(TCPU_ERROR_UNKNOWN, concat("the AOT launcher's bitcode does not parse (a tcpu "
                                             "bug): ",
                                             llvm::toString(linked.takeError())));
  (*linked)->setTargetTriple(module.getTargetTriple());
  (*linked)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*linked)))
    return Status(TCPU_ERROR_UNKNOWN,
                  "the AOT launcher does not link with the kernel (a tcpu bug)");
  const std::set<std::string> exports(code->exports.begin(), code->exports.end());
  for (llvm::GlobalValue& global : module.global_values()) {
    if (global.isDeclaration() || global.hasLocalLinkage()) continue;
    if (exports.contains(global.getName().str())) {
      global.setVisibility(llvm::GlobalValue::DefaultVisibility);
      continue;
    }
    global.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  for (const std::string& name : exports)
    if (const llvm::GlobalValue* global = module.getNamedValue(name);
        !global || global->isDeclaration())
      return Status(TCPU_ERROR_UNKNOWN,
                    concat("the AOT launcher does not define '", name, "' (a tcpu bug)"));
  return {};
}

Status compileInto(const CompileRequest& request, CompiledModule& result) {
  llvm::LLVMContext context;
  DiagnosticCollector diagnostics(context);
  Expected<std::unique_ptr<llvm::Module>> parsed =
      parseKernelModule(request.bytes, request.name, context);
  if (!parsed) return parsed.status();
  llvm::Module& module = **parsed;
  if (request.withTexts) result.inputIr = print(module);

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
  if (request.linkedCode)
    if (Status linked = linkAheadOfTimeCode(module, request, result.kernels); !linked.ok())
      return linked;
  // Again, for the functions made since (the kernels' entries, the AOT launcher): kernels are
  // inlined into their entries and vectorized there, under the entries' attributes.
  retarget(module, **machine, request.options);

  optimize(module, **machine, isa, request.options.mathUlp);
  // After optimization, so that the checks guard the vectorized accesses that run.
  if (request.options.checkBounds) instrumentBoundsChecks(module, result.kernels);
  lowerMathToSleef(module, isa, request.options.mathUlp);
  if (Status valid = verifyProducedIr(module); !valid.ok()) return valid;
  if (Status supported = checkTargetIntrinsics(module, constants); !supported.ok())
    return Status(supported.code(), concat(request.name, ": ", supported.message()));
  if (request.withTexts) {
    result.optimizedIr = print(module);
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(module);
    Expected<std::string> assembly =
        emitFile(*copy, **machine, llvm::CodeGenFileType::AssemblyFile);
    if (!assembly) return assembly.status();
    result.assembly = assembly.take();
  }
  Expected<std::string> object = emitFile(module, **machine, llvm::CodeGenFileType::ObjectFile);
  if (!object) return object.status();
  result.object = object.take();
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
