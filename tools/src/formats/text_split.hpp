// Splitting a text at a separator, for the command parsers.
#ifndef TCPU_TOOLS_TEXT_SPLIT_HPP
#define TCPU_TOOLS_TEXT_SPLIT_HPP

#include <string_view>
#include <vector>

namespace tcpu::cli {

// The pieces of `text` between separators, empty ones included: "a,,b" is three pieces and ""
// is one empty piece.
std::vector<std::string_view> split(std::string_view text, char separator);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_TEXT_SPLIT_HPP
