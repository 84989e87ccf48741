// Cross-check cases: a kernel, its module and the `tcpu run` arguments that launch it on
// generated inputs (signature, grid, generators, outputs with their rules), one case per entry
// of a text file. The same file drives `tcpu ptx --cases` (the PTX of every case) and
// `tcpu xcheck --cases` (every case run on a backend), so the CPU and the GPU run the same
// launches on the same inputs.
//
// Format: '#' starts a comment line; a case starts at a line's first column with its name and
// its module (a path relative to the modules directory), then `tcpu run` arguments; indented
// lines continue the case above. Arguments are split at blanks; "..." or '...' quote.
#ifndef TCPU_TOOLS_XCHECK_CASES_HPP
#define TCPU_TOOLS_XCHECK_CASES_HPP

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::cli {

struct XcheckCase {
  std::string name;   // also the case's directory in a run, and its PTX file's stem
  std::string module; // relative to the modules directory (CPU runs)
  std::vector<std::string> runArguments;
  std::size_t line = 0; // where the case starts, for messages
};

// The cases of a file's text; `path` names it in messages ("<path>:<line>: ...").
Expected<std::vector<XcheckCase>> parseXcheckCases(std::string_view text, const std::string& path);

// Reads and parses a cases file; TCPU_ERROR_FILE_NOT_FOUND when it cannot be read.
Expected<std::vector<XcheckCase>> readXcheckCases(const std::string& path);

// The cases named in `only` (all when empty), in file order; an unknown name is
// TCPU_ERROR_NOT_FOUND listing the known ones.
Expected<std::vector<XcheckCase>> selectXcheckCases(std::vector<XcheckCase> cases,
                                                    const std::vector<std::string>& only);

// readXcheckCases, then selectXcheckCases: what `--cases FILE [--case NAME]...` means.
Expected<std::vector<XcheckCase>> readSelectedXcheckCases(const std::string& path,
                                                          const std::vector<std::string>& only);

// The tool's exit code for a failed readSelectedXcheckCases: an unreadable file is an input
// error (3), a malformed file or an unknown --case a usage error (2).
int exitCodeForCasesFailure(const Status& status);

// The value of a `tcpu run` option in the case (`--name V`, `--name=V`, or `-s V` for a short
// name), or nullopt.
std::optional<std::string> caseOption(const XcheckCase& xcheckCase, std::string_view name,
                                      char shortName = 0);

// The run arguments without `--name V` / `--name=V`.
std::vector<std::string> withoutOption(const std::vector<std::string>& arguments,
                                       std::string_view name);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_XCHECK_CASES_HPP
