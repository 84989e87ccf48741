#include "ptx/ptx_compiler.hpp"

#include <cstdlib>
#include <mutex>

#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>

#include "pipeline/code_generation.hpp"
#include "pipeline/kernel_module.hpp"
#include "ptx/gpu_services.hpp"
#include "ptx/libdevice.hpp"
#include "support/llvm_guard.hpp"
#include "target/math_library.hpp"
#include "target/target_constants.hpp"

namespace tcpu::codegen {
namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";

Expected<std::unique_ptr<llvm::TargetMachine>> nvptxMachine(const std::string& arch,
                                                            bool fpContract) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!target)
    return Status(TCPU_ERROR_NOT_SUPPORTED, concat("this LLVM has no NVPTX back end: ", error));
  const std::unique_ptr<llvm::MCSubtargetInfo> info(target->createMCSubtargetInfo(kTriple, "", ""));
  const bool known = info && info->isCPUStringValid(arch);
  if (!known || arch.rfind("sm_", 0) != 0 || std::atoi(arch.c_str() + 3) < 70)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("arch '", arch, "' is not a GPU architecture LLVM ", LLVM_VERSION_STRING,
                         " compiles for (sm_70 and later, e.g. sm_80, sm_90)"));
  llvm::TargetOptions options;
  options.AllowFPOpFusion = fpContract ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      kTriple, arch, "", options, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine) return Status(TCPU_ERROR_NOT_SUPPORTED, concat("no NVPTX target for ", arch));
  return machine;
}

// The NVPTX back end's pipeline (NVVMReflect among its passes, which resolves libdevice's
// __nvvm_reflect calls) at O3, without unrolling: a tl block is a loop with a constant trip
// count that NVPTX's thresholds unroll, for a block run by one thread (measured on attention:
// 11.4 s and 981 KB of PTX unrolled, 3.8 s and 485 KB not).
OptimizationPlan gpuOptimization() {
  OptimizationPlan plan;
  plan.tuning.LoopUnrolling = false;
  return plan;
}

// What a PTX module may leave to the CUDA driver: the device-side assert.
bool providedByCuda(const llvm::Function& function) {
  return function.isIntrinsic() || function.getName() == "__assertfail";
}

// The line before the PTX that tells the runtime's CUDA backend each kernel's parameter names and
// types (PTX itself has only sizes), so that launches are checked as on the CPU:
//   // tcpu.kernel add_kernel x_ptr:*fp32 y_ptr:*fp32 output_ptr:*fp32 n_elements:i32
std::string kernelLine(const KernelInfo& kernel) {
  std::string line = concat("// tcpu.kernel ", kernel.entrySymbol);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const tcpuParamDesc& param = kernel.params[i];
    const std::string& name = i < kernel.paramNames.size() ? kernel.paramNames[i] : std::string();
    const bool pointer = param.type == TCPU_TYPE_PTR;
    const auto type = static_cast<tcpuDataType>(pointer ? param.pointee : param.type);
    line += concat(" ", name.empty() ? "-" : name, ":", pointer ? "*" : "",
                   type == TCPU_TYPE_UNKNOWN ? "?" : tcpuDataTypeName(type));
  }
  return line + "\n";
}

Status compileInto(const PtxRequest& request, PtxModule& result) {
  llvm::LLVMContext context;
  DiagnosticCollector diagnostics(context);
  Expected<std::unique_ptr<llvm::Module>> parsed =
      parseKernelModule(request.bytes, request.name, context);
  if (!parsed) return parsed.status();
  llvm::Module& module = **parsed;
  Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      nvptxMachine(request.arch, request.options.fpContract);
  if (!machine) return machine.status();
  module.setTargetTriple(kTriple);
  module.setDataLayout((*machine)->createDataLayout());
  // Code written for the CPU: its CPU and features go, and its calls into the runtime become
  // CUDA's.
  for (llvm::Function& function : module)
    for (const char* attribute :
         {"target-cpu", "target-features", "tune-cpu", "min-legal-vector-width"})
      function.removeFnAttr(attribute);
  if (Status provided = provideGpuServices(module); !provided.ok())
    return Status(provided.code(), concat(request.name, ": ", provided.message()));
  defineTargetConstants(module, TargetConstants{}); // a GPU: no CPU vectors, no bf16 units
  canonicalizeMathCalls(module);
  Expected<std::vector<KernelInfo>> kernels =
      prepareKernels(module, request.options, EntryKind::CudaKernel);
  if (!kernels)
    return Status(kernels.status().code(), concat(request.name, ": ", kernels.status().message()));
  result.kernels = kernels.take();
  if (lowerMathToLibdevice(module)) {
    Expected<std::string> path =
        request.libdevice.empty() ? findLibdevice() : Expected<std::string>(request.libdevice);
    if (!path) return path.status();
    if (Status linked = linkLibdevice(module, *path); !linked.ok()) return linked;
  }
  CodeGeneration steps;
  steps.optimization = gpuOptimization();
  steps.lowering = [&](llvm::Module& optimized) -> Status {
    if (Status refused = refuseHostIntrinsics(optimized); !refused.ok())
      return Status(refused.code(), concat(request.name, ": ", refused.message()));
    std::string unresolved;
    for (const llvm::Function& function : optimized)
      if (function.isDeclaration() && !function.use_empty() && !providedByCuda(function))
        unresolved += concat(unresolved.empty() ? "" : ", ", function.getName().str());
    if (!unresolved.empty())
      return Status(
          TCPU_ERROR_NOT_FOUND,
          concat(request.name, ": the kernels call functions a GPU does not have: ", unresolved));
    return {};
  };
  steps.output = llvm::CodeGenFileType::AssemblyFile;
  Expected<std::string> ptx = generateCode(module, **machine, steps);
  if (!ptx) return ptx.status();
  for (const KernelInfo& kernel : result.kernels)
    result.ptx += kernelLine(kernel);
  result.ptx += ptx.take();
  if (diagnostics.hasErrors())
    return Status(TCPU_ERROR_INVALID_SOURCE, concat(request.name, ": ", diagnostics.joined()));
  return {};
}

} // namespace

Expected<PtxModule> compileToPtx(const PtxRequest& request) {
  PtxModule result;
  Status status =
      runGuarded("compiling the module for the GPU", [&] { return compileInto(request, result); });
  if (!status.ok()) return status;
  return result;
}

} // namespace tcpu::codegen
