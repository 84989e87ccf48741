// tcpu link: Triton's link.py for tcpu. Reads the headers tcpu compile wrote and
// writes NAME.h and NAME.c with dispatchers over their specializations.
#include <cstdint>
#include <filesystem>

#include "aot/dispatcher_writer.hpp"
#include "aot/linker_header.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "formats/output_files.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kLinkSpec{
    "link",
    "<header.h>... -o NAME",
    "generate a dispatcher over compiled specializations (Triton's link.py)",
    "Reads the headers 'tcpu compile' wrote (their '// tcpu-linker:' lines) and writes NAME.h\n"
    "and NAME.c. Per kernel and algorithm (equal constexprs and meta), NAME.c defines\n"
    "KERNEL_ALGO(stream, args...), which calls the most specialized launcher whose assumptions\n"
    "hold (pointers 16-byte aligned, integers divisible by 16 or equal to 1) and returns\n"
    "TCPU_ERROR_INVALID_VALUE when none does. Per kernel it defines KERNEL(stream, args...,\n"
    "algo_id), KERNEL_default (algorithm 0, the first algorithm given), KERNEL_get_num_algos,\n"
    "load_KERNEL and unload_KERNEL. Specializations of one kernel must share its full\n"
    "signature. Build NAME.c with the objects 'tcpu compile' wrote; it does not include their\n"
    "headers. On any error nothing is written.\n"
    "\n"
    "example:\n"
    "  tcpu link build/add_kernel.*.h -o build/add_kernel",
    {{"out", "NAME", "write NAME.h and NAME.c (NAME may hold a directory)", 'o', true}},
    1,
    SIZE_MAX};

// NAME's file name goes into NAME.c's #include "..." and NAME.h's include guard.
Status checkOutputName(const std::string& name) {
  const std::string base = std::filesystem::path(name).filename().string();
  if (base.empty() || base == "." || base == "..")
    return Status(
        TCPU_ERROR_INVALID_VALUE,
        concat("-o '", name, "' has no file name (expected NAME, writing NAME.h and NAME.c)"));
  for (char c : base)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("-o '", name, "': the file name cannot hold quotes, backslashes or ",
                           "control characters (NAME.c includes \"NAME.h\")"));
  return {};
}

int fail(Console console, const Status& status) {
  // A header that cannot be read is an I/O failure; what the inputs say is the caller's to fix.
  const bool inputOutput =
      status.code() == TCPU_ERROR_FILE_NOT_FOUND || status.code() == TCPU_ERROR_OPERATING_SYSTEM;
  return reportFailure(console, "link", status, inputOutput ? kExitInputOutput : kExitUsage);
}

} // namespace

int runLink(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kLinkSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  const std::string name = *start.arguments->get("out");
  if (Status status = checkOutputName(name); !status.ok()) return fail(console, status);

  const std::vector<std::string>& headers = start.arguments->positionals;
  std::vector<Specialization> specializations;
  for (const std::string& header : headers) {
    Expected<std::vector<Specialization>> read = readLinkerHeader(header);
    if (!read) return fail(console, read.status());
    for (Specialization& specialization : read.take())
      specializations.push_back(std::move(specialization));
  }
  Expected<std::vector<LinkedKernel>> kernels = planDispatchers(specializations);
  if (!kernels) return fail(console, kernels.status());

  const std::string headerName = std::filesystem::path(name).filename().string() + ".h";
  if (Status status =
          writeOutputFiles({{name + ".h", writeDispatcherHeader(*kernels, headerName, headers)},
                            {name + ".c", writeDispatcherSource(*kernels, headerName)}});
      !status.ok())
    return fail(console, status);
  return kExitSuccess;
}

} // namespace tcpu::cli
