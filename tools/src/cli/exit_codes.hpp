// What the tcpu command's exit status means, so that scripts can tell a bad
// command line from a kernel that failed.
#ifndef TCPU_TOOLS_EXIT_CODES_HPP
#define TCPU_TOOLS_EXIT_CODES_HPP

namespace tcpu::cli {

enum ExitCode : int {
  kExitSuccess = 0,
  // The work was done and failed: a kernel launch returned an error, a device_assert fired,
  // a comparison did not match.
  kExitKernelFailure = 1,
  // The command line is wrong: unknown subcommand or option, missing or malformed value
  // (a bad signature, a grid naming an unknown argument, an unknown kernel name).
  kExitUsage = 2,
  // An input could not be read or compiled, or an output could not be written.
  kExitInputOutput = 3,
  // Ctrl-C (SIGINT) stopped the launches: 128 + SIGINT, as a shell reports a process SIGINT
  // ended.
  kExitInterrupted = 130,
};

} // namespace tcpu::cli

#endif // TCPU_TOOLS_EXIT_CODES_HPP
