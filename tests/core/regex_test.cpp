// core/regex.h: RE2 behind gleaner's one interface for regular expressions.
#include "core/regex.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using namespace gleaner;

TEST(Regex, MatchesSearchesAndCaptures) {
  const Regex date(R"((\d{4})-(\d{2})(?:-(\d{2}))?)");
  EXPECT_TRUE(date.full_match("2026-11"));
  EXPECT_FALSE(date.full_match("on 2026-11"));
  EXPECT_TRUE(date.search("on 2026-11"));
  RegexMatch m;
  ASSERT_TRUE(date.search("from 2026-11 on", m));
  EXPECT_EQ(m.str(0), "2026-11");
  EXPECT_EQ(m[1].str(), "2026");
  EXPECT_EQ(std::string(m[2]), "11");
  EXPECT_FALSE(m[3].matched);
  EXPECT_EQ(m.position(0), 5u);
  ASSERT_TRUE(date.search("2025-01 2026-02", m, 1));
  EXPECT_EQ(m.str(), "2026-02");
  EXPECT_FALSE(Regex("^a").search("ba", m, 1));  // ^ is the start of the text, not of `from`
}

TEST(Regex, FindsEveryMatchAndReplaces) {
  const Regex pair(R"((\w+)=(\w*))");
  const auto all = pair.find_all("a=1&b=&c=3");
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[1][1].str(), "b");
  EXPECT_EQ(all[1][2].str(), "");
  EXPECT_EQ(Regex("x*").find_all("ab").size(), 3u);  // empty matches step on, as std::regex did
  EXPECT_EQ(Regex(R"((\d+)\.(\d))").replace_all("4.5 and 10.2", R"(\1,\2)"), "4,5 and 10,2");
  EXPECT_THROW(Regex("(a)").replace_all("a", R"(\2)"), std::logic_error);
}

TEST(Regex, OptionsIgnoreCaseAndBytes) {
  EXPECT_TRUE(Regex("hosted BY", {.ignore_case = true}).search("Hosted by Ann"));
  EXPECT_FALSE(Regex("hosted BY").search("Hosted by Ann"));
  // A page's bytes in windows-1252: UTF-8 mode matches no invalid sequence, bytes mode does.
  const std::string latin1 = "<meta name=\"\xE9t\xE9\" charset=\"windows-1252\">";
  EXPECT_FALSE(Regex(R"(<meta[^>]*charset)").search(latin1));
  EXPECT_TRUE(Regex(R"(<meta[^>]*charset)", {.bytes = true}).search(latin1));
}

TEST(Regex, RefusesWhatNeedsBacktrackingAndFixedPatternsThatDoNotCompile) {
  std::string error;
  EXPECT_FALSE(Regex::compile("(?=a)b", &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(Regex::compile("(a)\\1", &error));
  EXPECT_FALSE(Regex::compile("(unclosed", &error));
  EXPECT_FALSE(Regex::compile(R"(\pL{1000})", &error, {.max_mem = 1 << 20}));
  EXPECT_TRUE(Regex::compile(R"(\pL{10})", &error, {.max_mem = 1 << 20}));
  EXPECT_TRUE(Regex::compile("^/blog/", &error));
  EXPECT_THROW(Regex("(?!x)"), std::logic_error);
}

// Issue 34: linear time in the text, no recursion: what std::regex overflowed its stack on
// (a 100 KB text) or backtracked on for ever (`^(a+)+$`) returns.
TEST(Regex, LongTextsAndBacktrackingPatternsReturn) {
  std::string text;
  while (text.size() < 100'000) text += "ab";
  EXPECT_FALSE(Regex("(a|b)*c").search(text));
  EXPECT_TRUE(Regex("(a|b)*c").search(text + "c"));
  EXPECT_TRUE(Regex("^(?:a|b)*$").full_match(text));
  EXPECT_FALSE(Regex("^(a+)+$").search(std::string(5'000, 'a') + "!"));
}
