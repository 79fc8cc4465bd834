// page_metadata(): the `json` output format from the snapshot's `meta`.
#include "extract/content/metadata.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>

namespace gleaner::content {
namespace {

using json = nlohmann::json;

/// The snapshot's `metas`: [[key, content]...] in page order.
json tags(std::initializer_list<std::pair<const char*, const char*>> pairs) {
  json out = json::array();
  for (const auto& [key, value] : pairs) out.push_back(json::array({key, value}));
  return out;
}

json meta_with(json tags, json extra = json::object()) {
  json meta = {{"title", ""},
               {"lang", ""},
               {"canonical", ""},
               {"metas", std::move(tags)},
               {"jsonLd", json::array()}};
  meta.update(extra);
  return meta;
}

TEST(PageMetadata, ScalarsComeFromThePageFirst) {
  json out = page_metadata(meta_with(
      tags({{"description", " The page. "}, {"og:description", "OG"}, {"og:title", "OG title"}}),
      {{"title", " Page title "}, {"lang", "fr-CA"}, {"canonical", "https://x.test/c"}}));
  EXPECT_EQ(out["title"], "Page title");
  EXPECT_EQ(out["description"], "The page.");
  EXPECT_EQ(out["language"], "fr-CA");
  EXPECT_EQ(out["canonicalUrl"], "https://x.test/c");
}

TEST(PageMetadata, ScalarsFallBackToOpenGraphThenTwitter) {
  json out = page_metadata(meta_with(tags({{"twitter:title", "TW title"},
                                           {"twitter:description", "TW description"},
                                           {"og:description", "OG description"},
                                           {"Content-Language", "de"}})));
  EXPECT_EQ(out["title"], "TW title");
  EXPECT_EQ(out["description"], "OG description");
  EXPECT_EQ(out["language"], "de");
}

TEST(PageMetadata, AbsentScalarsAreAbsentKeysAndGroupsAlwaysThere) {
  json out = page_metadata(meta_with(json::array()));
  EXPECT_FALSE(out.contains("title"));
  EXPECT_FALSE(out.contains("description"));
  EXPECT_FALSE(out.contains("language"));
  EXPECT_FALSE(out.contains("canonicalUrl"));
  EXPECT_EQ(out["meta"], json::object());
  EXPECT_EQ(out["openGraph"], json::object());
  EXPECT_EQ(out["twitter"], json::object());
  EXPECT_EQ(out["jsonLd"], json::array());
}

TEST(PageMetadata, TagsAreGroupedWithLowerCaseKeys) {
  json out = page_metadata(meta_with(tags({{"Description", "d"},
                                           {"og:Title", "t"},
                                           {"article:published_time", "2024-01-01"},
                                           {"product:price:amount", "9.99"},
                                           {"twitter:card", "summary"},
                                           {"fb:app_id", "1"},
                                           {"viewport", "width=device-width"}})));
  EXPECT_EQ(out["meta"],
            (json{{"description", "d"}, {"fb:app_id", "1"}, {"viewport", "width=device-width"}}));
  EXPECT_EQ(out["openGraph"], (json{{"og:title", "t"},
                                    {"article:published_time", "2024-01-01"},
                                    {"product:price:amount", "9.99"}}));
  EXPECT_EQ(out["twitter"], (json{{"twitter:card", "summary"}}));
}

TEST(PageMetadata, RepeatedKeysWithDifferentValuesBecomeArrays) {
  json out = page_metadata(meta_with(tags({{"og:image", "a.png"},
                                           {"og:image", "b.png"},
                                           {"og:image", "a.png"},
                                           {"og:image", "c.png"},
                                           {"robots", "index"},
                                           {"robots", "index"}})));
  EXPECT_EQ(out["openGraph"]["og:image"], (json{"a.png", "b.png", "c.png"}));
  EXPECT_EQ(out["meta"]["robots"], "index");
}

TEST(PageMetadata, EmptyAndMalformedTagsAreSkipped) {
  json malformed =
      json::array({json::array({"empty", "  "}), json::array({"", "no key"}), json::array({"one"}),
                   json::array({1, "x"}), json("flat"), json::array({"ok", "yes"})});
  json out = page_metadata(meta_with(malformed));
  EXPECT_EQ(out["meta"], (json{{"ok", "yes"}}));
}

TEST(PageMetadata, EveryJsonLdBlockIsParsed) {
  json out = page_metadata(
      meta_with(json::array(), {{"jsonLd", json{R"({"@type": "Article", "headline": "H"})",
                                                R"([{"@type": "Person"}, {"@type": "Place"}])",
                                                R"({"@graph": [{"@type": "WebSite"}]})"}}}));
  ASSERT_EQ(out["jsonLd"].size(), 3U);
  EXPECT_EQ(out["jsonLd"][0]["headline"], "H");
  EXPECT_EQ(out["jsonLd"][1][1]["@type"], "Place");
  EXPECT_EQ(out["jsonLd"][2]["@graph"][0]["@type"], "WebSite");
}

TEST(PageMetadata, JsonLdWrappersAreToleratedAndBrokenBlocksSkipped) {
  json out = page_metadata(
      meta_with(json::array(), {{"jsonLd", json{"\n<!--\n{\"@type\": \"A\"}\n-->\n",
                                                "//<![CDATA[\n{\"@type\": \"B\"};\n//]]>",
                                                "{\"broken\": ", "", 42, "{\"@type\": \"C\"};"}}}));
  EXPECT_EQ(out["jsonLd"], (json{{{"@type", "A"}}, {{"@type", "B"}}, {{"@type", "C"}}}));
}

TEST(PageMetadata, AnythingButAnObjectGivesTheEmptyShape) {
  for (const json& input : {json(), json("x"), json::array(), json{{"metas", "nope"}}}) {
    json out = page_metadata(input);
    EXPECT_EQ(out, (json{{"meta", json::object()},
                         {"openGraph", json::object()},
                         {"twitter", json::object()},
                         {"jsonLd", json::array()}}))
        << input.dump();
  }
}

}  // namespace
}  // namespace gleaner::content
