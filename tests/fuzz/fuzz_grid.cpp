// Grid expressions (tools/src/run/grid_expression.cpp): parseGrid over a fixed argument list, and
// evaluateGrid with fixed values on what it accepts. Division by zero, overflow and names
// without a value must be errors, never traps; accepted text must parse again unchanged.
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "run/grid_expression.hpp"

namespace tcpu::fuzz {

int fuzzGrid(const uint8_t* data, size_t size) {
  static const std::vector<std::string> names = {"n", "n_elements", "M",    "N",
                                                 "K", "BLOCK",      "x_ptr"};
  // x_ptr has no value (a pointer): naming it passes parseGrid and fails evaluateGrid.
  static const std::map<std::string, int64_t> values = {
      {"n", 1000},
      {"n_elements", 98432},
      {"M", 0},
      {"N", -7},
      {"K", std::numeric_limits<int64_t>::max()},
      {"BLOCK", 1024},
  };
  const std::string_view text = asText(data, size);
  Expected<cli::GridExpressions> grid = cli::parseGrid(text, names);
  if (!grid) {
    TCPU_FUZZ_CHECK(grid.status().code() == TCPU_ERROR_INVALID_VALUE, grid.status().message());
    TCPU_FUZZ_CHECK(grid.status().message().starts_with("--grid column "), grid.status().message());
    return 0;
  }
  const std::string joined = grid->text[0] + "," + grid->text[1] + "," + grid->text[2];
  Expected<cli::GridExpressions> again = cli::parseGrid(joined, names);
  TCPU_FUZZ_CHECK(again.ok(), concat("'", joined, "': ", again.status().message()));
  TCPU_FUZZ_CHECK(again->text == grid->text, joined);
  for (int axis = 0; axis < 3; ++axis) {
    TCPU_FUZZ_CHECK(!grid->text[static_cast<size_t>(axis)].empty(), joined);
    Expected<uint32_t> value = cli::evaluateGrid(*grid, axis, values);
    if (!value)
      TCPU_FUZZ_CHECK(value.status().code() == TCPU_ERROR_INVALID_VALUE &&
                          value.status().message().starts_with("--grid "),
                      value.status().message());
  }
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzGrid)
