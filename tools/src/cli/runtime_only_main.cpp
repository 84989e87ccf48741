// tcpu-rt: the tcpu tool's commands that need only the runtime (run, xcheck), for machines
// without LLVM, such as a GPU host running the CUDA half of a cross-check. Modules it loads
// are precompiled: shared objects of kernels on the CPU, PTX or cubin on a GPU.
#include <array>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli_dispatch.hpp"
#include "cli/commands.hpp"

namespace {

constexpr std::array<tcpu::cli::Subcommand, 2> kSubcommands = {{
    {"run", "load a kernel, launch it on generated or .npy inputs, write .npy outputs",
     tcpu::cli::runRun},
    {"xcheck", "run kernel cases on a backend, or compare two runs (CPU vs GPU) by their rules",
     tcpu::cli::runXcheck},
}};

} // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  return tcpu::cli::dispatchCli({"tcpu-rt",
                                 "tcpu-rt runs precompiled Triton-style grid kernels (no LLVM: "
                                 "shared objects on the CPU, PTX on a GPU).",
                                 kSubcommands},
                                arguments, {std::cout, std::cerr});
}
