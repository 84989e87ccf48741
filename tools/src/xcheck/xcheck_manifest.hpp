// The manifest of one `tcpu xcheck` case: <run>/<case>/xcheck.txt, next to one .npy file per
// pointer parameter of the kernel (its inputs as generated, its outputs as the backend left
// them). Text, one item per line, the first line saying the format and its version:
//
//   tcpu-xcheck 1
//   case softmax
//   kernel softmax_1024
//   backend cuda
//   device NVIDIA H100 80GB HBM3
//   seed 1
//   input input_ptr
//   output output_ptr ulp:4
//   output grad relnorm:1e-3 bf16
//
// case, kernel and backend are required, device (the rest of the line) and seed (0 when absent)
// optional, each at most once; any number of input and output lines, in the kernel's parameter
// order, each naming <name>.npy in the same directory. An output line ends with the rule its
// array is judged by (xcheck_rule.hpp). An input or output line may end with "bf16": the array
// holds bf16, which .npy has no type for (its file holds the bits as <u2). Names (case, inputs,
// outputs) are [A-Za-z0-9_.-]+ and do not start with '.'; kernel and backend are one word each.
#ifndef TCPU_TOOLS_XCHECK_MANIFEST_HPP
#define TCPU_TOOLS_XCHECK_MANIFEST_HPP

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tcpu/status.hpp"
#include "xcheck/xcheck_rule.hpp"

namespace tcpu::cli {

// The manifest's file name inside a case directory.
inline constexpr std::string_view kXcheckManifestName = "xcheck.txt";

struct XcheckManifest {
  std::string caseName, kernel, backend, device;
  uint64_t seed = 0;
  std::vector<std::string> inputs;                             // <name>.npy files
  std::vector<std::pair<std::string, ComparisonRule>> outputs; // <name>.npy files, their rules
  std::vector<std::string> bf16Arrays; // sorted; arrays of bf16 (their .npy files say <u2)

  bool operator==(const XcheckManifest&) const = default;
};

// Whether `name` may be a case, input or output name: [A-Za-z0-9_.-]+, not starting with '.'.
bool isXcheckName(std::string_view name);

// The manifest's text, ending with a newline; parseManifest reads it back as it was. Line breaks
// in device become spaces; an empty device is left out. The names are written as they are:
// the writer checks them (isXcheckName) before.
std::string formatManifest(const XcheckManifest& manifest);

// Parses a manifest's text. TCPU_ERROR_INVALID_VALUE with "<origin>:<line>: <what>" for an
// unknown key, a repeated key or name, a bad name or rule, a missing case, kernel or backend.
Expected<XcheckManifest> parseManifest(std::string_view text, std::string_view origin);

// Reads and parses <caseDirectory>/xcheck.txt. TCPU_ERROR_FILE_NOT_FOUND when it does not exist,
// TCPU_ERROR_OPERATING_SYSTEM when it cannot be read; messages start with its path.
Expected<XcheckManifest> readManifest(const std::filesystem::path& caseDirectory);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_XCHECK_MANIFEST_HPP
