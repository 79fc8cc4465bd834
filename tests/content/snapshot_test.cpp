// The snapshot script's call: the arguments the caller passes.
#include "extract/content/snapshot.h"

#include "core/error.h"

#include <gtest/gtest.h>

namespace gleaner::content {
namespace {

TEST(Snapshot, ArgumentsNameExactlyThePartsAsked) {
  SnapshotParts parts;
  parts.text = true;
  parts.tree = true;
  parts.max_chars = 1000;
  EXPECT_EQ(snapshot_args(parts), (nlohmann::json{{"html", false},
                                                  {"text", true},
                                                  {"tree", true},
                                                  {"links", false},
                                                  {"meta", false},
                                                  {"maxChars", 1000},
                                                  {"asString", true}}));
}

TEST(Snapshot, DefaultsAskForNothingWithinTwentyMillionCharactersAsAString) {
  EXPECT_EQ(snapshot_args({}), (nlohmann::json{{"html", false},
                                               {"text", false},
                                               {"tree", false},
                                               {"links", false},
                                               {"meta", false},
                                               {"maxChars", 20000000},
                                               {"asString", true}}));
}

TEST(Snapshot, ParseTakesTheObjectOrItsJsonText) {
  nlohmann::json object = {{"url", "https://x.test/"}, {"tree", {"body", "hi"}}};
  EXPECT_EQ(parse_snapshot(object), object);
  EXPECT_EQ(parse_snapshot(object.dump()), object);
}

TEST(Snapshot, ParseTakesTheJsonTextWithHtmlAndTextBesideIt) {
  const nlohmann::json rest = {{"url", "https://x.test/"}, {"links", {"https://x.test/a"}}};
  nlohmann::json whole = rest;
  whole["html"] = "<html>\"quoted\"</html>";
  whole["text"] = "hi";
  EXPECT_EQ(parse_snapshot({rest.dump(), "<html>\"quoted\"</html>", "hi"}), whole);
  // Parts not asked for come as null and stay absent.
  EXPECT_EQ(parse_snapshot({rest.dump(), nullptr, nullptr}), rest);
  nlohmann::json only_text = rest;
  only_text["text"] = "hi";
  EXPECT_EQ(parse_snapshot({rest.dump(), nullptr, "hi"}), only_text);
}

TEST(Snapshot, ParseRejectsAnythingElseAsInternal) {
  for (const nlohmann::json& bad :
       {nlohmann::json(), nlohmann::json(42), nlohmann::json("{not json"), nlohmann::json("[1]"),
        nlohmann::json::array(), nlohmann::json::array({"{not json", nullptr, nullptr})}) {
    try {
      parse_snapshot(bad);
      ADD_FAILURE() << "accepted " << bad.dump();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Internal);
    }
  }
}

TEST(Snapshot, ScriptIsTheEmbeddedFunctionExpression) {
  std::string_view script = snapshot_script();
  // One function expression taking the options, as extract/endpoint.h expects of page scripts.
  EXPECT_NE(script.find("\n(opts) => {\n"), std::string_view::npos);
  for (const char* part : {"opts.html", "opts.text", "opts.tree", "opts.links", "opts.meta",
                           "opts.maxChars", "opts.asString"}) {
    EXPECT_NE(script.find(part), std::string_view::npos) << part;
  }
}

}  // namespace
}  // namespace gleaner::content
