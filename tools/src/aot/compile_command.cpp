// tcpu compile: one kernel specialization to a header and a relocatable object that needs only
// libtcpu_runtime (and SLEEF for math) to link; Triton's compile.py for the CPU.

#include "aot/aot_launcher.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "formats/input_files.hpp"
#include "formats/output_files.hpp"
#include "pipeline/compile_module.hpp"
#include "run/runtime_session.hpp"
#include "target/target.hpp"
#include "clang/source_compiler.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kCompileSpec{
    "compile",
    "<kernel.cpp|.ll|.bc> --kernel-name NAME --signature SIG --grid GX,GY,GZ [options]",
    "Compiles one specialization of a kernel ahead of time to <out-path>.<hash>_<suffix>.h and .o.",
    "The object holds the optimized kernel and a typed launcher\n"
    "  tcpuResult <out-name>_<hash>_<suffix>(tcpuStream stream, <arguments>)\n"
    "plus load_/unload_ functions; it links against libtcpu_runtime (and SLEEF when the kernel\n"
    "uses math) with any C or C++ compiler: no LLVM or clang at run time. The signature is\n"
    "Triton's: one entry per kernel argument, '*fp32:16' (pointer, 16-byte aligned), 'i32:16'\n"
    "(divisible by 16), 'i32:1' (equal to 1: specialized away), '*kfp16' (const), or a bare\n"
    "constexpr value. The grid entries are C integer expressions over the integer arguments,\n"
    "e.g. \"(n_elements+1023)/1024,1,1\". Names and the hash follow Triton's compile.py, with\n"
    "\"threads<T>xtarget<CPU>\" in place of \"warps<W>xstages<S>\"; with --num-warps or\n"
    "--num-stages (which change nothing else on the CPU) they are Triton's own.",
    {{"kernel-name", "NAME", "the kernel (ABI function) to compile", 0, true},
     {"signature", "SIG", "Triton signature, e.g. \"*fp32:16, *fp32:16, *fp32:16, i32\"", 0, true},
     {"grid", "GX,GY,GZ", "grid as three C expressions over the arguments", 0, true},
     {"out-name", "NAME", "launcher name prefix (default: the kernel name)"},
     {"out-path", "PATH", "output path prefix (default: the out name, in the current directory)"},
     {"target", "CPU", "LLVM CPU to compile for, e.g. x86-64-v3 (default: this host's CPU)"},
     {"triple", "TRIPLE",
      "another system to compile for, e.g. aarch64-linux-gnu (default: this one); --target then "
      "names its CPU (default: LLVM's generic one)"},
     {"sysroot", "DIR", "with --triple: the root of that system's C/C++ headers, for C++ source"},
     {"num-threads", "T", "worker threads per launch; 0 (default): the runtime's setting"},
     {"num-warps", "W", "Triton's option, for Triton's names only (default 1 when --num-stages)"},
     {"num-stages", "S", "Triton's option, for Triton's names only (default 3 when --num-warps)"},
     {"print-outputs", "", "print the header and object paths, one per line, and write nothing"}},
    1,
    1};

struct CompileJob {
  std::string input;
  std::string kernelName;
  codegen::Signature signature;
  std::string signatureText;
  std::string gridText;
  AotNames names;
  AotOptions options;
  std::string triple;  // empty: this system's
  std::string sysroot; // empty: the host's headers
};

Expected<codegen::CompiledModule> compileSpecialization(const CompileJob& job,
                                                        std::string& header) {
  Expected<std::string> bytes = readInputFile(job.input);
  if (!bytes) return bytes.status();
  codegen::CompileOptions options;
  options.kernelName = job.kernelName;
  options.signature = job.signatureText;
  options.targetCpu = job.options.targetCpu;
  options.targetTriple = job.triple;
  options.sysroot = job.sysroot;
  options.useCache = false;
  // The target first: a triple or CPU LLVM does not know is named before clang meets it.
  Expected<codegen::TargetDescription> target =
      codegen::describeTarget(options.targetCpu, options.targetTriple);
  if (!target)
    return Status(target.status().code(),
                  concat(job.triple.empty() ? "--target: " : "--triple/--target: ",
                         target.status().message()));
  std::string bitcode = bytes.take();
  if (codegen::isKernelSourcePath(job.input)) {
    Expected<std::string> compiled = codegen::compileSourceToBitcode(bitcode, job.input, options);
    if (!compiled) return compiled.status();
    bitcode = compiled.take();
  }
  codegen::CompileRequest request;
  request.bytes = std::as_bytes(std::span(bitcode));
  request.name = job.input;
  request.options = options;
  request.target = *target;
  request.linkedCode =
      [&](const std::vector<codegen::KernelInfo>& kernels) -> Expected<codegen::LinkedCode> {
    const codegen::KernelInfo* kernel = nullptr;
    for (const codegen::KernelInfo& candidate : kernels)
      if (candidate.name == job.kernelName) kernel = &candidate;
    if (!kernel)
      return Status(TCPU_ERROR_NOT_FOUND,
                    concat("--kernel-name '", job.kernelName, "' is not a kernel of ", job.input));
    AotSpecialization specialization;
    specialization.kernel = kernel;
    specialization.arguments = aotArguments(job.signature, *kernel);
    Expected<GridExpressions> grid = parseGrid(job.gridText, gridNames(specialization.arguments));
    if (!grid) return grid.status();
    specialization.grid = grid.take();
    specialization.names = job.names;
    specialization.options = job.options;
    specialization.origin =
        concat("kernel ", job.kernelName, " of ", job.input, ", signature \"", job.signatureText,
               "\", grid \"", job.gridText, "\", ", aotMeta(job.options));
    Expected<std::string> launcher = codegen::compileSourceToBitcode(
        launcherSource(specialization), job.names.function + "_launcher.cpp", options);
    if (!launcher)
      return Status(launcher.status().code(), concat("the generated launcher does not compile: ",
                                                     launcher.status().message()));
    header = headerText(specialization);
    return codegen::LinkedCode{launcher.take(), launcherExports(job.names)};
  };
  return codegen::compileModule(request);
}

} // namespace

int runCompile(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kCompileSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  const ParsedArguments& parsed = *start.arguments;
  CompileJob job;
  job.input = parsed.positionals.front();
  job.kernelName = *parsed.get("kernel-name");
  job.signatureText = *parsed.get("signature");
  job.gridText = *parsed.get("grid");
  const std::string outName = parsed.getOr("out-name", job.kernelName);
  if (!isCIdentifier(outName))
    return reportFailure(console, "compile",
                         concat("--out-name '", outName,
                                "' is not a C identifier (letters, digits, '_'; no leading digit)"),
                         kExitUsage);
  job.options.targetCpu = parsed.getOr("target", "");
  job.triple = parsed.getOr("triple", "");
  job.sysroot = parsed.getOr("sysroot", "");
  if (!job.sysroot.empty() && job.triple.empty())
    return reportFailure(console, "compile", "--sysroot is for --triple: give both", kExitUsage);
  // The launcher is C++ that includes <stdint.h>: compiled for another system, it needs that
  // system's headers, which this one's are not.
  if (!job.triple.empty() && job.sysroot.empty())
    return reportFailure(console, "compile",
                         concat("--triple ", job.triple,
                                " needs --sysroot: the root of that system's C headers (for "
                                "aarch64-linux-gnu: scripts/platforms/arm64-sysroot.sh makes one)"),
                         kExitUsage);
  if (auto threads = parsed.get("num-threads")) {
    Expected<long long> value = parseInteger("--num-threads", *threads, 0, 1 << 16);
    if (!value) return reportFailure(console, "compile", value.status(), kExitUsage);
    job.options.numThreads = static_cast<int>(*value);
  }
  for (auto [option, field] :
       {std::pair{"num-warps", &job.options.numWarps}, {"num-stages", &job.options.numStages}}) {
    if (auto text = parsed.get(option)) {
      Expected<long long> value = parseInteger(concat("--", option), *text, 1, 1 << 10);
      if (!value) return reportFailure(console, "compile", value.status(), kExitUsage);
      *field = static_cast<int>(*value);
    }
  }
  Expected<codegen::Signature> signature = codegen::parseSignature(job.signatureText);
  if (!signature)
    return reportFailure(
        console, "compile",
        concat("--signature \"", job.signatureText, "\": ", signature.status().message()),
        kExitUsage);
  job.signature = signature.take();
  job.names = aotNames(job.signature, outName, parsed.getOr("out-path", outName), job.options);
  if (parsed.has("print-outputs")) {
    console.out << job.names.headerPath << "\n" << job.names.objectPath << "\n";
    return kExitSuccess;
  }
  std::string header;
  Expected<codegen::CompiledModule> compiled = compileSpecialization(job, header);
  if (!compiled) {
    const Status& status = compiled.status();
    const bool aboutKernelName = status.code() == TCPU_ERROR_NOT_FOUND;
    return reportFailure(
        console, "compile",
        aboutKernelName ? concat("--kernel-name: ", status.message()) : status.message(),
        exitCodeForLoadFailure(
            status,
            {job.kernelName, job.signatureText,
             job.options.targetCpu.empty() ? std::nullopt : std::optional(job.options.targetCpu)}));
  }
  if (Status written = writeOutputFiles(
          {{job.names.headerPath, header}, {job.names.objectPath, compiled->object}});
      !written.ok())
    return reportFailure(console, "compile", written, kExitInputOutput);
  console.out << job.names.headerPath << "\n" << job.names.objectPath << "\n";
  return kExitSuccess;
}

} // namespace tcpu::cli
