// tcpu xcheck --compare: judges one run of kernels against another, e.g. the CPU backend's
// outputs against a GPU's (tcpu run --xcheck CASE --output PARAM=RULE writes such runs).
#include "command_support.hpp"
#include "exit_codes.hpp"
#include "xcheck_compare.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{
    "xcheck",
    "--compare <expected-run> <actual-run>",
    "compare the outputs of two runs of the same kernels (CPU vs GPU), each by its rule",
    "A run is a directory of cases (or one case): each case a directory holding xcheck.txt\n"
    "and one .npy file per pointer parameter, as `tcpu run --xcheck CASE --output PARAM=RULE\n"
    "--out-dir RUN/CASE` writes them (on any backend: --backend cpu or cuda). Every input must\n"
    "be bit-identical in both runs (the same seed and generators); every output is judged by\n"
    "the expected run's rule:\n"
    "  exact        bit-identical (integers, Philox, data movement)\n"
    "  ulp:N        each element within N units in the last place (elementwise math)\n"
    "  relnorm:X    ||actual - expected||2 / ||expected||2 <= X (reductions, dot products)\n"
    "Prints per output: elements, max abs and relative error, max ULP distance, elements that\n"
    "differ, the rule and the verdict.\n"
    "Exit status: 0 all pass, 1 an output breaks its rule or a case is missing or differs,\n"
    "2 usage, 3 a run that cannot be read.",
    {{"compare", "", "compare two runs (the only mode so far)", 0, true}},
    2,
    2};

} // namespace

int runXcheck(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  const std::vector<std::string>& runs = start.arguments->positionals;
  Expected<bool> passed = compareRunDirectories(runs[0], runs[1], console.out);
  if (!passed) return reportFailure(console, "xcheck", passed.status(), kExitInputOutput);
  return *passed ? kExitSuccess : kExitKernelFailure;
}

} // namespace tcpu::cli
