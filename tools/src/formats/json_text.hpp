// JSON string literals for the commands' --json output.
#ifndef TCPU_TOOLS_JSON_TEXT_HPP
#define TCPU_TOOLS_JSON_TEXT_HPP

#include <string>
#include <string_view>

namespace tcpu::cli {

// `text` as a quoted JSON string: quotes, backslashes and control characters escaped, UTF-8
// passed through, and each byte that is not part of well-formed UTF-8 (a path may hold any
// bytes) written as U+FFFD, so that the output is always valid JSON. (tcpu and tcpu-rt share
// this one writer; LLVM's would do the same but tcpu-rt links no LLVM.)
std::string jsonString(std::string_view text);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_JSON_TEXT_HPP
