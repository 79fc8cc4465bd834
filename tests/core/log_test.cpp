#include "core/log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gleaner::log {
namespace {

class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    set_sink([this](std::string_view line) { lines_.emplace_back(line); });
  }
  void TearDown() override { set_sink({}); }
  std::vector<std::string> lines_;
};

// Issue 16, item 4: a decoded path with `%0a` wrote a well-formed fake log line.
TEST_F(LogTest, ANewlineInAClientValueCannotStartALineOfItsOwn) {
  std::string path = "/scrape/web\n2026-11-24T00:00:00.000Z INFO  auth  key accepted";
  info("http") << "GET " << path;
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_EQ(lines_[0].find('\n'), std::string::npos);
  EXPECT_NE(lines_[0].find("GET /scrape/web\\n2026-11-24T00:00:00.000Z INFO  auth"),
            std::string::npos)
      << lines_[0];
}

TEST_F(LogTest, NulAndOtherControlBytesAreWrittenAsEscapes) {
  std::string value("a\0b\rc\td\x1b[31me\x7f", 14);
  warn("http") << value;
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_NE(lines_[0].find("a\\x00b\\rc\\td\\x1b[31me\\x7f"), std::string::npos) << lines_[0];
  for (char ch : lines_[0]) {
    auto byte = static_cast<unsigned char>(ch);
    EXPECT_TRUE(byte >= 0x20 && byte != 0x7f) << "control byte " << int(byte);
  }
}

TEST(LogEscape, LeavesPrintableTextAndUtf8AsTheyAre) {
  EXPECT_EQ(escape("Zürich, 北京 \\n 100%"), "Zürich, 北京 \\n 100%");
  EXPECT_EQ(escape(std::string_view("\n\0", 2)), "\\n\\x00");
}

}  // namespace
}  // namespace gleaner::log
