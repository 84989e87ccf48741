// Grid expressions: `--grid "gX,gY,gZ"`, each entry a C integer expression over
// the kernel's scalar arguments ("(n+1023)/1024,1,1"). The accepted language is
// a deliberately small subset of C (decimal literals, argument names, + - * / %,
// unary -, parentheses) so that a validated entry can be pasted verbatim into a
// generated C launcher and mean the same there: no octal literals, no "--"
// (C's decrement), no comments, no casts, no calls.
#ifndef TCPU_TOOLS_GRID_EXPRESSION_HPP
#define TCPU_TOOLS_GRID_EXPRESSION_HPP

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::cli {

struct GridExpressions {
  std::array<std::string, 3> text; // each entry trimmed, as the user wrote it
};

// Parses "gX,gY,gZ": exactly three comma-separated expressions over argumentNames. Errors
// (TCPU_ERROR_INVALID_VALUE) name the 1-based column in the whole text and the entry, e.g.
// "--grid column 7: unknown argument 'm' in '(m+1023)/1024' (arguments: x_ptr, n)".
Expected<GridExpressions> parseGrid(std::string_view text,
                                    const std::vector<std::string>& argumentNames);

// Evaluates entry `axis` (0..2) with C semantics on int64 (division truncates toward zero).
// Division by zero, overflow, a name without a value, and a result outside [0, 2^32-1] are
// errors (TCPU_ERROR_INVALID_VALUE) naming the axis and the value.
Expected<uint32_t> evaluateGrid(const GridExpressions& grid, int axis,
                                const std::map<std::string, int64_t>& values);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_GRID_EXPRESSION_HPP
