#include "core/log.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <thread>
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

// Issue 23, item 5: U+0085 (NEL) and U+2028 in a path reached the log raw; some readers break
// lines there. In both formats they are written as escapes, other non-ASCII text as it is.
TEST_F(LogTest, UnicodeLineBreaksAreWrittenAsEscapes) {
  const std::string path = "/a\xc2\x85" "b\xe2\x80\xa8" "c\xe2\x80\xa9" "d\xc2\x9f" "é";
  info("http") << "GET " << path;
  set_format(Format::Json);
  info("http") << "GET " << path;
  set_format(Format::Text);
  ASSERT_EQ(lines_.size(), 2u);
  EXPECT_NE(lines_[0].find("GET /a\\u0085b\\u2028c\\u2029d\\u009fé"), std::string::npos)
      << lines_[0];
  for (const std::string& line : lines_) {
    for (const char* raw : {"\xc2\x85", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xc2\x9f"}) {
      EXPECT_EQ(line.find(raw), std::string::npos) << line;
    }
  }
  ASSERT_TRUE(nlohmann::json::accept(lines_[1])) << lines_[1];
  // A JSON reader gets the path back as it was.
  EXPECT_EQ(nlohmann::json::parse(lines_[1])["message"], "GET " + path);
}

// Issue 23, item 3: an accept loop out of descriptors logged the same line 250,000 times a
// second. The same line is written kRepeatsPerSecond times a second; the rest are counted in one
// line written with the next line after that second.
TEST_F(LogTest, RepeatedLinesAreLimitedAndCounted) {
  const auto began = std::chrono::steady_clock::now();
  for (int i = 0; i < 100000; ++i) warn("gateway") << "accept failed: Too many open files";
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::steady_clock::now() - began).count() + 1;
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  warn("gateway") << "accept failed: Too many open files";  // writes the last second's count
  long long written = 0, counted = 0;
  for (const std::string& line : lines_) {
    const auto at = line.find("repeated ");
    if (at != std::string::npos) {
      counted += std::stoll(line.substr(at + 9));
    } else if (line.find("accept failed") != std::string::npos) {
      ++written;
    }
  }
  // However long the loop took on a loaded machine: a few lines a second, and every repeat
  // accounted for.
  EXPECT_LE(written, kRepeatsPerSecond * (seconds + 1));
  EXPECT_EQ(written + counted, 100001);

  // Lines of one kind that differ (each names its request) are limited through allow().
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  lines_.clear();
  int allowed = 0;
  for (int i = 0; i < 1000; ++i) {
    if (allow("refused")) {
      ++allowed;
      info("http") << "request " << i << " refused";
    }
  }
  EXPECT_EQ(allowed, kRepeatsPerSecond);
}

TEST(LogEscape, LeavesPrintableTextAndUtf8AsTheyAre) {
  EXPECT_EQ(escape("Zürich, 北京 \\n 100%"), "Zürich, 北京 \\n 100%");
  EXPECT_EQ(escape(std::string_view("\n\0", 2)), "\\n\\x00");
}

}  // namespace
}  // namespace gleaner::log
