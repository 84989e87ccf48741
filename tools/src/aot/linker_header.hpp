// Reading the headers `tcpu compile` writes, for `tcpu link`: each carries one
// `// tcpu-linker: {func}:{full_signature}:{algo_info}:{hints}` line saying
// which kernel it specializes, with which arguments, for which algorithm
// (constexprs and meta), and which arguments it assumes aligned or equal to 1.
#ifndef TCPU_TOOLS_LINKER_HEADER_HPP
#define TCPU_TOOLS_LINKER_HEADER_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::cli {

inline constexpr std::string_view kLinkerLinePrefix = "// tcpu-linker:";

struct KernelArgument {
  std::string type; // normalized C type: "int32_t", "float*", "const float*"
  std::string name;
  bool isPointer = false;
  bool isFloatingPoint = false; // float or double (not a pointer)
  bool isBool = false;

  std::string declaration() const { return type + " " + name; }
  bool operator==(const KernelArgument&) const = default;
};

// What a specialization assumes about one argument, and so what the dispatcher checks.
enum class ArgumentHint {
  kNone,          // 0
  kDivisibleBy16, // 16: pointer 16-byte aligned, or integer divisible by 16
  kEqualToOne,    // 1: the value is 1, and the specialized launcher does not take it
};

// One `// tcpu-linker:` line: one specialized launcher.
struct Specialization {
  std::string file; // the header it came from, as given
  std::size_t line = 0;
  std::string function;                  // add_kernel_2a9c1f3e_0d1d2d: the specialized launcher
  std::string kernelName;                // add_kernel: what the dispatchers are named after
  std::string hash;                      // 2a9c1f3e
  std::string suffix;                    // 0d1d2d, or empty
  std::vector<KernelArgument> arguments; // every runtime argument, those hinted 1 included
  std::string algorithm;                 // algo_info: 1024_threads0xtargethost
  std::vector<ArgumentHint> hints;       // one per argument

  // "a.h:12", for messages.
  std::string location() const;
  // How many arguments the dispatcher checks before choosing this specialization.
  std::size_t hintedArgumentCount() const;
  // "float* x_ptr, int32_t n": the full signature, as the dispatchers take it.
  std::string fullSignature() const;
};

// Parses one linker line (with its prefix). `file` and `line` say where it is, for the
// Specialization and for messages ("a.h:12: hash 'XY' of ... is not 8 lowercase hex digits").
Expected<Specialization> parseLinkerLine(std::string_view text, const std::string& file,
                                         std::size_t line);

// Every specialization a header's linker lines declare (at least one). A file that cannot be
// read gives TCPU_ERROR_FILE_NOT_FOUND; a header without a linker line or with a malformed
// one gives TCPU_ERROR_INVALID_VALUE.
Expected<std::vector<Specialization>> readLinkerHeader(const std::string& path);

// Whether `text` can name a function or argument in C and C++: an identifier, not a keyword.
bool isUsableIdentifier(std::string_view text);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_LINKER_HEADER_HPP
