// tcpu ptx: a kernel module compiled for an NVIDIA GPU, as PTX: the same source or bitcode the
// CPU runs, each kernel a CUDA kernel of its own name (one program per block).
#include "command_support.hpp"
#include "exit_codes.hpp"
#include "output_files.hpp"
#include "ptx_compiler.hpp"
#include "source_compiler.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{
    "ptx",
    "<kernel.cpp|.ll|.bc> [options]",
    "compile a kernel module to PTX for an NVIDIA GPU",
    "Compiles every kernel of the module for an NVIDIA GPU through LLVM's NVPTX back end: each\n"
    "becomes a CUDA kernel of its own name taking the launch's parameters (those --signature\n"
    "does not bind), to be launched with one thread per block and one block per program. Math\n"
    "links CUDA's libdevice.10.bc (TCPU_LIBDEVICE, CUDA_PATH or /usr/local/cuda); no GPU and no\n"
    "CUDA driver are needed to compile. Prints the kernels and their parameters.",
    {{"arch", "SM", "GPU architecture, sm_70 or later (default sm_90)"},
     {"kernel-name", "NAME", "the kernel --signature applies to (default: the only one)"},
     {"signature", "SIG", "Triton signature to specialize with, e.g. \"*fp32:16, i32\""},
     {"output", "FILE", "where to write the PTX (default: standard output)", 'o'}},
    1,
    1};

} // namespace

int runPtx(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  const ParsedArguments& parsed = *start.arguments;
  const std::string& input = parsed.positionals.front();
  Expected<std::string> bytes = readInputFile(input);
  if (!bytes) return reportFailure(console, "ptx", bytes.status(), kExitInputOutput);
  codegen::PtxRequest request;
  request.name = input;
  request.arch = parsed.getOr("arch", "sm_90");
  request.options.kernelName = parsed.getOr("kernel-name", "");
  request.options.signature = parsed.getOr("signature", "");
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
  if (const std::optional<std::string> output = parsed.get("output")) {
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
  } else {
    console.out << module->ptx;
  }
  return kExitSuccess;
}

} // namespace tcpu::cli
