// The tool's output does not follow the host program's locale (tcpu's CLI code runs inside
// other programs too, through tcpu_cli): sizes and numbers are written the classic way under a
// global locale that groups digits and uses a decimal comma.
#include <gtest/gtest.h>

#include <locale>
#include <sstream>
#include <string>

#include "formats/format_size.hpp"

namespace {

struct GermanStyle : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};

TEST(Locale, SizesAreWrittenTheClassicWay) {
  const std::locale previous =
      std::locale::global(std::locale(std::locale::classic(), new GermanStyle));
  std::ostringstream plain;
  plain << 1.5;
  EXPECT_EQ(plain.str(), "1,5") << "the test's locale must use a decimal comma";
  EXPECT_EQ(tcpu::cli::formatSize(1500), "1.5 KB");
  EXPECT_EQ(tcpu::cli::formatSize(999), "999 B");
  std::locale::global(previous);
}

} // namespace
