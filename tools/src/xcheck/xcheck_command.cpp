// tcpu xcheck: runs a file of kernel cases on one backend (`--cases`), writing a run that
// another backend's run can be compared with, and judges one run against another
// (`--compare`), output by output.
#include <filesystem>

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "xcheck/xcheck_cases.hpp"
#include "xcheck/xcheck_compare.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{
    "xcheck",
    "--cases FILE --modules DIR --out-dir RUN [options] | --compare <expected-run> <actual-run>",
    "run kernel cases on a backend, or compare two runs (CPU vs GPU) by their rules",
    "With --cases, runs every case of FILE (or those named by --case) on --backend, each as\n"
    "`tcpu run <module> <its arguments> --xcheck CASE --out-dir RUN/CASE` would. A case names\n"
    "its kernel, module, signature, grid, seeded input generators and outputs with their\n"
    "rules (kernels/xcheck_cases.txt holds the reference kernels'). On the CPU the module is\n"
    "DIR/<the case's module>; on a GPU it is DIR/<case>.ptx, as `tcpu ptx --cases` writes\n"
    "them, and the case's --signature is already in it. Every case runs even when one fails.\n"
    "\n"
    "With --compare, a run is a directory of cases (or one case): each case a directory\n"
    "holding xcheck.txt and one .npy file per pointer parameter. Every input must be\n"
    "bit-identical in both runs (the same seed and generators); every output is judged by\n"
    "the expected run's rule:\n"
    "  exact        bit-identical (integers, Philox, data movement)\n"
    "  ulp:N        each element within N units in the last place (elementwise math)\n"
    "  relnorm:X    ||actual - expected||2 / ||expected||2 <= X (reductions, dot products)\n"
    "  abs:X        each |actual - expected| <= X (outputs with a known absolute bound)\n"
    "Prints per output: elements, max abs and relative error, max ULP distance, the relative\n"
    "norm of the difference, elements that differ, the rule and the verdict.\n"
    "Exit status: 0 all pass, 1 a case failed to run, or an output breaks its rule or a case\n"
    "is missing or differs, 2 usage, 3 a cases file or a run that cannot be read.",
    {{"compare", "", "compare two runs given as the two positionals"},
     {"cases", "FILE", "run the cases of FILE"},
     {"modules", "DIR", "with --cases: where the cases' modules (CPU) or <case>.ptx (GPU) are"},
     {"out-dir", "RUN", "with --cases: the run's directory (one subdirectory per case)"},
     {"backend", "B", "with --cases: cpu (default), or cuda / cuda:N"},
     {"case", "NAME", "with --cases: run only this case (repeatable)", 0, false, true},
     {"repeat", "R", "with --cases: launch each case R times, report median and minimum time"}},
    0,
    2};

int compareRuns(const ParsedArguments& parsed, Console console) {
  if (parsed.positionals.size() != 2)
    return reportFailure(console, "xcheck",
                         concat("--compare takes two runs (expected, actual), but ",
                                parsed.positionals.size(), " were given"),
                         kExitUsage);
  Expected<bool> passed =
      compareRunDirectories(parsed.positionals[0], parsed.positionals[1], console.out);
  if (!passed) return reportFailure(console, "xcheck", passed.status(), kExitInputOutput);
  return *passed ? kExitSuccess : kExitKernelFailure;
}

// The `tcpu run` command line of one case on the backend.
std::vector<std::string> caseRunArguments(const XcheckCase& xcheckCase,
                                          const ParsedArguments& parsed) {
  const std::filesystem::path modules = *parsed.get("modules");
  const std::string backend = parsed.getOr("backend", "cpu");
  const bool onCpu = backend == "cpu";
  std::vector<std::string> arguments{onCpu ? (modules / xcheckCase.module).string()
                                           : (modules / (xcheckCase.name + ".ptx")).string()};
  // PTX carries the signature it was compiled with; a loader of precompiled code takes none.
  const std::vector<std::string> caseArguments =
      onCpu ? xcheckCase.runArguments : withoutOption(xcheckCase.runArguments, "signature");
  arguments.insert(arguments.end(), caseArguments.begin(), caseArguments.end());
  for (const std::string& argument :
       {std::string("--xcheck"), xcheckCase.name, std::string("--out-dir"),
        (std::filesystem::path(*parsed.get("out-dir")) / xcheckCase.name).string(),
        std::string("--backend"), backend})
    arguments.push_back(argument);
  if (const std::optional<std::string> repeat = parsed.get("repeat")) {
    arguments.push_back("--repeat");
    arguments.push_back(*repeat);
  }
  return arguments;
}

int runCases(const ParsedArguments& parsed, Console console) {
  if (!parsed.positionals.empty())
    return reportFailure(console, "xcheck", "--cases takes no positional arguments", kExitUsage);
  for (const char* required : {"modules", "out-dir"})
    if (!parsed.has(required))
      return reportFailure(console, "xcheck", concat("--cases needs --", required), kExitUsage);
  Expected<std::vector<XcheckCase>> selected =
      readSelectedXcheckCases(*parsed.get("cases"), parsed.all("case"));
  if (!selected)
    return reportFailure(console, "xcheck", selected.status(),
                         exitCodeForCasesFailure(selected.status()));
  std::size_t failed = 0;
  for (const XcheckCase& xcheckCase : *selected) {
    console.out << "case " << xcheckCase.name << "\n";
    if (runRun(caseRunArguments(xcheckCase, parsed), console) != kExitSuccess) {
      console.err << "tcpu xcheck: case " << xcheckCase.name << " (" << *parsed.get("cases") << ":"
                  << xcheckCase.line << ") failed\n";
      ++failed;
    }
  }
  console.out << selected->size() - failed << " of " << selected->size() << " cases ran on "
              << parsed.getOr("backend", "cpu") << "; outputs in " << *parsed.get("out-dir")
              << "\n";
  return failed ? kExitKernelFailure : kExitSuccess;
}

} // namespace

int runXcheck(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  const ParsedArguments& parsed = *start.arguments;
  if (parsed.has("compare") == parsed.has("cases"))
    return reportFailure(console, "xcheck", "give exactly one of --compare and --cases",
                         kExitUsage);
  return parsed.has("compare") ? compareRuns(parsed, console) : runCases(parsed, console);
}

} // namespace tcpu::cli
