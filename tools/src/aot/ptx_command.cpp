// tcpu ptx: a kernel module compiled for an NVIDIA GPU, as PTX: the same source or bitcode the
// CPU runs, each kernel a CUDA kernel of its own name (one program per block).
#include <filesystem>

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "formats/input_files.hpp"
#include "formats/output_files.hpp"
#include "ptx/ptx_compiler.hpp"
#include "xcheck/xcheck_cases.hpp"
#include "clang/source_compiler.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{
    "ptx",
    "<kernel.cpp|.ll|.bc> [options] | --cases FILE --modules DIR --out-dir DIR",
    "compile a kernel module to PTX for an NVIDIA GPU",
    "Compiles every kernel of the module for an NVIDIA GPU through LLVM's NVPTX back end: each\n"
    "becomes a CUDA kernel of its own name taking the launch's parameters (those --signature\n"
    "does not bind), to be launched with one thread per block and one block per program. Math\n"
    "links CUDA's libdevice.10.bc (TCPU_LIBDEVICE, CUDA_PATH or /usr/local/cuda); no GPU and no\n"
    "CUDA driver are needed to compile. Prints the kernels and their parameters.",
    {{"arch", "SM", "GPU architecture, sm_70 or later (default sm_90)"},
     {"kernel-name", "NAME", "the kernel --signature applies to (default: the only one)"},
     {"signature", "SIG", "Triton signature to specialize with, e.g. \"*fp32:16, i32\""},
     {"output", "FILE", "where to write the PTX (default: standard output)", 'o'},
     {"cases", "FILE", "instead of a module: every case of an xcheck cases file (see xcheck)"},
     {"modules", "DIR", "with --cases: where the cases' modules are"},
     {"out-dir", "DIR", "with --cases: where <case>.ptx go, each compiled with its signature"},
     {"case", "NAME", "with --cases: only this case (repeatable)", 0, false, true}},
    0,
    1};

// Compiles one module to PTX: written to `output` (with the kernels listed) or printed.
int compileModule(const std::string& input, const codegen::CompileOptions& options,
                  const std::string& arch, const std::optional<std::string>& output,
                  Console console) {
  Expected<std::string> bytes = readInputFile(input);
  if (!bytes) return reportFailure(console, "ptx", bytes.status(), kExitInputOutput);
  codegen::PtxRequest request;
  request.name = input;
  request.arch = arch;
  request.options = options;
  std::string bitcode = bytes.take();
  if (codegen::isKernelSourcePath(input)) {
    Expected<std::string> compiled =
        codegen::compileSourceToBitcode(bitcode, input, request.options);
    if (!compiled) return reportFailure(console, "ptx", compiled.status(), kExitInputOutput);
    bitcode = compiled.take();
  }
  request.bytes = std::as_bytes(std::span(bitcode));
  Expected<codegen::PtxModule> module = codegen::compileToPtx(request);
  if (!module) {
    // The command line named something wrong, or the input cannot become PTX.
    const tcpuResult code = module.status().code();
    const bool usage = code == TCPU_ERROR_INVALID_VALUE ||
                       (code == TCPU_ERROR_NOT_FOUND && !request.options.kernelName.empty());
    return reportFailure(console, "ptx", module.status(), usage ? kExitUsage : kExitInputOutput);
  }
  if (!output) {
    console.out << module->ptx;
    return kExitSuccess;
  }
  if (Status written = writeOutputFiles({{*output, module->ptx}}); !written.ok())
    return reportFailure(console, "ptx", written, kExitInputOutput);
  for (const codegen::KernelInfo& kernel : module->kernels) {
    console.out << kernel.name << "(";
    for (size_t i = 0; i < kernel.params.size(); ++i)
      console.out << (i ? ", " : "")
                  << tcpuDataTypeName(static_cast<tcpuDataType>(kernel.params[i].type)) << " "
                  << kernel.paramNames[i];
    console.out << ")\n";
  }
  return kExitSuccess;
}

// --cases: DIR/<case>.ptx for every case, its kernel specialized with the case's signature.
int compileCases(const ParsedArguments& parsed, Console console) {
  if (!parsed.positionals.empty() || !parsed.has("modules") || !parsed.has("out-dir"))
    return reportFailure(console, "ptx",
                         "--cases FILE takes --modules DIR and --out-dir DIR and no module",
                         kExitUsage);
  Expected<std::vector<XcheckCase>> selected =
      readSelectedXcheckCases(*parsed.get("cases"), parsed.all("case"));
  if (!selected)
    return reportFailure(console, "ptx", selected.status(),
                         exitCodeForCasesFailure(selected.status()));
  const std::filesystem::path modules = *parsed.get("modules");
  const std::filesystem::path outDir = *parsed.get("out-dir");
  std::error_code error;
  std::filesystem::create_directories(outDir, error);
  if (error)
    return reportFailure(console, "ptx",
                         concat("--out-dir ", outDir.string(), ": ", error.message()),
                         kExitInputOutput);
  for (const XcheckCase& xcheckCase : *selected) {
    codegen::CompileOptions options;
    options.kernelName = caseOption(xcheckCase, "kernel", 'k').value_or("");
    options.signature = caseOption(xcheckCase, "signature").value_or("");
    console.out << xcheckCase.name << ": ";
    if (const int code = compileModule((modules / xcheckCase.module).string(), options,
                                       parsed.getOr("arch", "sm_90"),
                                       (outDir / (xcheckCase.name + ".ptx")).string(), console);
        code != kExitSuccess)
      return code;
  }
  return kExitSuccess;
}

} // namespace

int runPtx(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  const ParsedArguments& parsed = *start.arguments;
  if (parsed.has("cases")) return compileCases(parsed, console);
  if (parsed.positionals.size() != 1)
    return reportFailure(console, "ptx", "give one module (or --cases FILE)", kExitUsage);
  codegen::CompileOptions options;
  options.kernelName = parsed.getOr("kernel-name", "");
  options.signature = parsed.getOr("signature", "");
  return compileModule(parsed.positionals.front(), options, parsed.getOr("arch", "sm_90"),
                       parsed.get("output"), console);
}

} // namespace tcpu::cli
