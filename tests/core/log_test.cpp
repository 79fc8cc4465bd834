#include "core/log.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

// Issue 15: GLEANER_LOG_FORMAT=json writes one JSON object per line, with the request id on every
// line of a request.
TEST_F(LogTest, JsonFormatWritesOneObjectPerLineWithTheRequestId) {
  set_format(Format::Json);
  {
    RequestScope scope("3f2a-request");
    info("http") << "GET /scrape/web\n200";
    {
      RequestScope inner("other");
      warn("pool") << "nested";
    }
    error("browser") << std::string("bad \xff byte");
  }
  debug("pool") << "not written at info level";
  info("main") << "outside any request";
  set_format(Format::Text);
  ASSERT_EQ(lines_.size(), 4u);
  for (const std::string& line : lines_) {
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    ASSERT_TRUE(nlohmann::json::accept(line)) << line;
  }
  const auto first = nlohmann::json::parse(lines_[0]);
  EXPECT_EQ(first["level"], "info");
  EXPECT_EQ(first["component"], "http");
  EXPECT_EQ(first["requestId"], "3f2a-request");
  EXPECT_EQ(first["message"], "GET /scrape/web\n200");
  EXPECT_EQ(nlohmann::json::parse(lines_[1])["requestId"], "other");
  EXPECT_EQ(nlohmann::json::parse(lines_[2])["requestId"], "3f2a-request");
  EXPECT_EQ(nlohmann::json::parse(lines_[2])["level"], "error");
  EXPECT_FALSE(nlohmann::json::parse(lines_[3]).contains("requestId"));
  EXPECT_EQ(parse_format("json"), Format::Json);
  EXPECT_THROW(parse_format("xml"), std::invalid_argument);
}

TEST(LogEscape, LeavesPrintableTextAndUtf8AsTheyAre) {
  EXPECT_EQ(escape("Zürich, 北京 \\n 100%"), "Zürich, 北京 \\n 100%");
  EXPECT_EQ(escape(std::string_view("\n\0", 2)), "\\n\\x00");
}

}  // namespace
}  // namespace gleaner::log
