#include "target/target.hpp"

#include <mutex>

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

namespace tcpu::codegen {

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

namespace {

// Every target LLVM was built with, once: only ahead-of-time compiles for another system need
// more than the native one.
void initializeAllTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
  });
}

} // namespace

Expected<TargetDescription> describeTarget(const std::string& cpuName, const std::string& triple) {
  initializeNativeTarget();
  if (!triple.empty()) initializeAllTargets();
  if (cpuName.empty() && triple.empty()) {
    auto host = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!host)
      return Status(TCPU_ERROR_NOT_SUPPORTED,
                    concat("cannot describe the host CPU: ", llvm::toString(host.takeError())));
    return TargetDescription{host->getTargetTriple().str(), host->getCPU(),
                             host->getFeatures().getString()};
  }
  const std::string targetTriple =
      triple.empty() ? llvm::sys::getProcessTriple() : llvm::Triple::normalize(triple);
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(targetTriple, error);
  if (!target)
    return Status(TCPU_ERROR_NOT_SUPPORTED,
                  concat("no LLVM target for ", targetTriple, ": ", error));
  const std::string cpu = cpuName.empty() ? "generic" : cpuName;
  // Ask with a CPU that is always valid: an unknown one makes LLVM print a warning.
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(targetTriple, "generic", ""));
  if (!info || !info->isCPUStringValid(cpu))
    return Status(
        TCPU_ERROR_NOT_SUPPORTED,
        concat("target CPU '", cpu, "' is not a CPU LLVM knows for ", targetTriple,
               triple.empty() ? " (it came from TCPU_JIT_TARGET_CPU or TCPU_TARGET_CPU)" : ""));
  return TargetDescription{targetTriple, cpu, ""};
}

Status checkRunsOnHost(const TargetDescription& target) {
  if (target.cpu.empty() || !llvm::Triple(target.triple).isX86()) return {};
  auto host = llvm::orc::JITTargetMachineBuilder::detectHost();
  std::string error;
  const llvm::Target* llvmTarget = llvm::TargetRegistry::lookupTarget(target.triple, error);
  if (!host || !llvmTarget) return {}; // describeTarget reported what it could
  std::unique_ptr<llvm::MCSubtargetInfo> hostInfo(llvmTarget->createMCSubtargetInfo(
      target.triple, host->getCPU(), host->getFeatures().getString()));
  std::unique_ptr<llvm::MCSubtargetInfo> wanted(
      llvmTarget->createMCSubtargetInfo(target.triple, target.cpu, target.features));
  if (!hostInfo || !wanted) return {};
  // Instruction sets only (a CPU's tuning flags say nothing about what runs).
  static constexpr const char* kIsaFeatures[] = {
      "sse4.1",     "sse4.2",      "popcnt",     "avx",
      "avx2",       "fma",         "f16c",       "bmi",
      "bmi2",       "lzcnt",       "movbe",      "adx",
      "avx512f",    "avx512bw",    "avx512dq",   "avx512vl",
      "avx512cd",   "avx512vnni",  "avx512bf16", "avx512fp16",
      "avx512vbmi", "avx512vbmi2", "avx512ifma", "avx512bitalg",
      "avxvnni",    "gfni",        "vaes",       "vpclmulqdq",
      "amx-tile",   "amx-bf16",    "amx-int8",   "avx512vpopcntdq"};
  std::string missing;
  for (const char* feature : kIsaFeatures) {
    const std::string plus = concat("+", feature);
    if (wanted->checkFeatures(plus) && !hostInfo->checkFeatures(plus))
      missing += concat(missing.empty() ? "" : ", ", feature);
  }
  if (missing.empty()) return {};
  return Status(TCPU_ERROR_NOT_SUPPORTED,
                concat("target CPU '", target.cpu, "' needs ", missing, ", which this CPU ('",
                       host->getCPU(), "') lacks: its kernels would stop on an illegal ",
                       "instruction (choose a lesser CPU, e.g. x86-64-v3, or none)"));
}

Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const TargetDescription& target, const CompileOptions& options, bool forJit) {
  initializeNativeTarget();
  std::string error;
  const llvm::Target* llvmTarget = llvm::TargetRegistry::lookupTarget(target.triple, error);
  if (!llvmTarget)
    return Status(TCPU_ERROR_NOT_SUPPORTED,
                  concat("no LLVM target for ", target.triple, ": ", error));
  llvm::TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion =
      options.fpContract ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  if (options.fastMath) {
    targetOptions.UnsafeFPMath = true;
    targetOptions.NoInfsFPMath = true;
    targetOptions.NoNaNsFPMath = true;
    targetOptions.NoSignedZerosFPMath = true;
    targetOptions.ApproxFuncFPMath = true;
  }
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      target.triple, target.cpu, target.features, targetOptions, llvm::Reloc::PIC_,
      llvm::CodeModel::Small, llvm::CodeGenOptLevel::Aggressive, forJit));
  if (!machine)
    return Status(TCPU_ERROR_NOT_SUPPORTED, concat("LLVM cannot create a target machine for ",
                                                   target.triple, " / ", target.cpu));
  return machine;
}

SleefIsa sleefIsaFor(const llvm::TargetMachine& machine) {
  const llvm::MCSubtargetInfo& info = *machine.getMCSubtargetInfo();
  const auto has = [&](const char* feature) { return info.checkFeatures(feature); };
  SleefIsa isa;
  const llvm::Triple& triple = machine.getTargetTriple();
  if (triple.isX86()) {
    const bool fma = has("+fma");
    isa.scalar = fma ? "purecfma" : "purec";
    if (has("+avx512f")) isa.bits512 = "avx512f";
    if (has("+avx2") && fma) {
      isa.bits256 = "avx2";
      isa.bits128 = "avx2128";
    } else if (has("+sse4.1")) {
      isa.bits128 = "sse4";
    } else if (has("+sse2")) { // every x86-64: its baseline gets vector math too
      isa.bits128 = "sse2";
    }
  } else if (triple.isAArch64()) {
    isa.scalar = "purecfma";
    isa.bits128 = "advsimd";
  } else {
    isa.scalar = "purec";
  }
  return isa;
}

std::string kernelVectorWidth(const llvm::TargetMachine& machine) {
  const bool avx512 =
      machine.getTargetTriple().isX86() && machine.getMCSubtargetInfo()->checkFeatures("+avx512f");
  return avx512 ? "512" : "";
}

} // namespace tcpu::codegen
