// Messages do not follow the host program's locale: a program that sets a global C++ locale
// with digit grouping and a decimal comma (as a German one has) still gets "1024" and "0x400"
// from tcpu, never "1.024" or "1,024" (concat and every string stream use the classic locale).
// Its own executable: it changes the process's global locale.
#include <gtest/gtest.h>

#include <locale>
#include <sstream>
#include <string>

#include "tcpu/status.hpp"
#include "tcpu/tcpu.h"

namespace {

// Grouping by thousands with '.', decimal comma: no system locale needs to be installed.
struct GermanStyle : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};

class GroupingLocale : public ::testing::Test {
protected:
  void SetUp() override {
    previous_ = std::locale::global(std::locale(std::locale::classic(), new GermanStyle));
  }
  void TearDown() override { std::locale::global(previous_); }
  std::locale previous_;
};

TEST_F(GroupingLocale, ConcatWritesNumbersTheClassicWay) {
  std::ostringstream plain; // what a stream left to the global locale writes
  plain << 1024 << ' ' << 1.5;
  ASSERT_EQ(plain.str(), "1.024 1,5") << "the test's locale must group and use a comma";
  EXPECT_EQ(tcpu::concat(1024), "1024");
  EXPECT_EQ(tcpu::concat("gridY=", 70000u, " > ", 65535), "gridY=70000 > 65535");
  EXPECT_EQ(tcpu::concat(1.5), "1.5");
  EXPECT_EQ(tcpu::concat("0x", std::hex, 1024), "0x400");
  tcpu::ClassicStream stream;
  stream << 1234567 << ' ' << 0.25;
  EXPECT_EQ(stream.str(), "1234567 0.25");
}

TEST_F(GroupingLocale, TheCApisMessagesNameValuesTheClassicWay) {
  ASSERT_EQ(tcpuInit(0), TCPU_SUCCESS);
  int value = 0;
  EXPECT_EQ(tcpuDeviceGetAttribute(&value, static_cast<tcpuDeviceAttribute>(123456), 0),
            TCPU_ERROR_INVALID_VALUE);
  const std::string detail = tcpuGetLastErrorDetail();
  EXPECT_NE(detail.find("123456"), std::string::npos) << detail;
  EXPECT_EQ(detail.find("123.456"), std::string::npos) << detail;
}

} // namespace
