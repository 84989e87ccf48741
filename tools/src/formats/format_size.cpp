#include "formats/format_size.hpp"

#include <array>

#include "tcpu/status.hpp"

namespace tcpu::cli {

std::string formatSize(uint64_t bytes) {
  ClassicStream text;
  text.precision(3);
  constexpr std::array<std::pair<double, const char*>, 3> kUnits = {
      {{1e9, " GB"}, {1e6, " MB"}, {1e3, " KB"}}};
  const auto value = static_cast<double>(bytes);
  for (const auto& [scale, unit] : kUnits)
    if (value >= scale) {
      text << value / scale << unit;
      return text.str();
    }
  text << bytes << " B";
  return text.str();
}

} // namespace tcpu::cli
