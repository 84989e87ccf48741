// JSON string literals for the commands' --json output.
#ifndef TCPU_TOOLS_JSON_TEXT_HPP
#define TCPU_TOOLS_JSON_TEXT_HPP

#include <string>
#include <string_view>

namespace tcpu::cli {

// `text` as a quoted JSON string: quotes, backslashes and control characters escaped, UTF-8
// passed through, and each byte that is not part of well-formed UTF-8 (a path may hold any
// bytes) written as U+FFFD, so that the output is always valid JSON. (tcpu and tcpu-rt share
// this one writer, as tcpu-rt links no LLVM; LLVM's writer replaces each maximal ill-formed
// subsequence instead of each byte: both are valid JSON.)
std::string jsonString(std::string_view text);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_JSON_TEXT_HPP
