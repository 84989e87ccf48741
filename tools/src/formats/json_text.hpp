// JSON string literals for the commands' --json output.
#ifndef TCPU_TOOLS_JSON_TEXT_HPP
#define TCPU_TOOLS_JSON_TEXT_HPP

#include <string>
#include <string_view>

namespace tcpu::cli {

// `text` as a quoted JSON string: quotes, backslashes and control characters escaped; other
// bytes passed through (the texts shown are UTF-8 or ASCII).
std::string jsonString(std::string_view text);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_JSON_TEXT_HPP
