#include "core/json_depth.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace gleaner {
namespace {

using nlohmann::json;

std::string nested(int depth, const std::string& inner = "1") {
  return std::string(static_cast<std::size_t>(depth), '[') + inner +
         std::string(static_cast<std::size_t>(depth), ']');
}

TEST(JsonDepth, TextIsMeasuredByItsArraysAndObjects) {
  EXPECT_FALSE(json_text_deeper_than("1", 0));
  EXPECT_TRUE(json_text_deeper_than("[]", 0));
  EXPECT_FALSE(json_text_deeper_than("[]", 1));
  // object, array, object, array: four levels.
  EXPECT_FALSE(json_text_deeper_than(R"({"a": [1, {"b": []}], "c": {}})", 4));
  EXPECT_TRUE(json_text_deeper_than(R"({"a": [1, {"b": []}], "c": {}})", 3));
  EXPECT_FALSE(json_text_deeper_than(nested(64), 64));
  EXPECT_TRUE(json_text_deeper_than(nested(65), 64));
  // Siblings do not add up: only the nesting counts.
  std::string wide = "[";
  for (int i = 0; i < 1000; ++i) wide += std::string(i ? "," : "") + "[[]]";
  EXPECT_FALSE(json_text_deeper_than(wide + "]", 3));
}

TEST(JsonDepth, BracketsInsideStringsDoNotCount) {
  EXPECT_FALSE(json_text_deeper_than(R"(["[[[[{{{{"])", 1));
  // An escaped quote does not end the string; an escaped backslash before a quote does.
  EXPECT_FALSE(json_text_deeper_than(R"(["\"[[[[", "x"])", 1));
  EXPECT_TRUE(json_text_deeper_than(R"(["\\", [[]]])", 2));
}

TEST(JsonDepth, ValuesAreWalkedWithoutRecursion) {
  json deep = json::array();
  json* at = &deep;
  for (int i = 1; i < 100'000; ++i) at = &at->emplace_back(json::array());
  EXPECT_TRUE(json_deeper_than(deep, 64));
  EXPECT_FALSE(json_deeper_than(deep, 100'000));
  EXPECT_FALSE(json_deeper_than(json::parse(R"({"a": {"b": [1, 2]}})"), 3));
  EXPECT_TRUE(json_deeper_than(json::parse(R"({"a": {"b": [1, 2]}})"), 2));
  EXPECT_FALSE(json_deeper_than(json("scalar"), 0));
}

TEST(JsonDepth, ABodyDeeperThanTheLimitIsInvalidJsonBeforeItIsParsed) {
  const std::string body =
      R"({"urls": ["https://example.com/"], "extractRules": )" + nested(50'000) + "}";
  try {
    parse_json_body(body);
    FAIL() << "a 50,000-deep body was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidJson);
    EXPECT_NE(std::string(e.what()).find("deeper than 64 levels"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse_json_body(nested(64)).size(), 1u);
  try {
    parse_json_body("{\"a\": ");
    FAIL() << "a broken body was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidJson);
  }
}

TEST(JsonDepth, TextFromPagesTooDeepIsDiscarded) {
  EXPECT_TRUE(parse_json_within_depth(nested(65)).is_discarded());
  EXPECT_TRUE(parse_json_within_depth("{not json").is_discarded());
  EXPECT_EQ(parse_json_within_depth(R"({"a": 1})"), json({{"a", 1}}));
}

TEST(JsonDepth, TheLimitIsConfigurable) {
  set_max_json_depth(3);
  EXPECT_THROW(parse_json_body(nested(4)), Error);
  EXPECT_NO_THROW(parse_json_body(nested(3)));
  EXPECT_NE(too_deep_message("x").find("deeper than 3 levels"), std::string::npos);
  set_max_json_depth(kDefaultMaxJsonDepth);
  EXPECT_THROW(set_max_json_depth(0), std::invalid_argument);
  EXPECT_THROW(set_max_json_depth(kLargestMaxJsonDepth + 1), std::invalid_argument);
  EXPECT_EQ(max_json_depth(), kDefaultMaxJsonDepth);
}

}  // namespace
}  // namespace gleaner
