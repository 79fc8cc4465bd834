// The news endpoint without a browser: parameter rules, the feed URL each combination builds, and
// the shaping of news.js's recorded output on the real search feed
// (fixtures/pages/news/monument-watch_rss_search_bears-ears-monument_enUS.xml).
#include "core/error.h"
#include "extract/sites/google/news.h"
#include "tests/support/sites/fake_tab.h"
#include "tests/support/sites/site_checks.h"

#include <gtest/gtest.h>

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using testing::recorded;
using testing::refused;
using testing::rejection;

const Endpoint& news() { return news_endpoint(); }

json recorded_feed() { return recorded("google/data/news/bears-ears_script_output.json"); }

std::string url_for(const QueryParams& query) {
  return news().build_request(news().validate(query)).url;
}

// The 400 a query gets: code and the parameter it names.
TEST(NewsEndpoint, RouteAndCost) {
  EXPECT_EQ(news().path(), "/scrape/search/news");
  EXPECT_EQ(news().route(), "search/news");
}

TEST(NewsUrl, NoParameterReadsTopHeadlines) {
  EXPECT_EQ(url_for({}), "https://news.google.com/rss?hl=en-US&gl=US&ceid=US:en");
}

TEST(NewsUrl, SearchIsEncodedAsTheSiteDoes) {
  // Exactly the URL the fixture feed was saved from.
  EXPECT_EQ(url_for({{"q", "\"Bears Ears\" monument"}}),
            "https://news.google.com/rss/search?q=%22Bears+Ears%22+monument&hl=en-US&gl=US&"
            "ceid=US:en");
}

TEST(NewsUrl, EditionFromGlAndHl) {
  EXPECT_EQ(url_for({{"q", "élection"}, {"gl", "fr"}, {"hl", "FR"}}),
            "https://news.google.com/rss/search?q=%C3%A9lection&hl=fr-FR&gl=FR&ceid=FR:fr");
  EXPECT_EQ(url_for({{"gl", "GB"}}), "https://news.google.com/rss?hl=en-GB&gl=GB&ceid=GB:en");
  EXPECT_EQ(url_for({{"hl", "de"}, {"gl", "de"}}),
            "https://news.google.com/rss?hl=de-DE&gl=DE&ceid=DE:de");
}

// Issue 16: `hl=zh-TW` was refused as "not a two-letter code". A regional tag picks the edition
// the site has for it, with the ceid language the site's editions use.
TEST(NewsUrl, RegionalLanguageTagsPickTheSitesEdition) {
  EXPECT_EQ(url_for({{"hl", "zh-TW"}}), "https://news.google.com/rss?hl=zh-TW&gl=TW&ceid=TW:zh-Hant");
  EXPECT_EQ(url_for({{"hl", "pt-br"}}), "https://news.google.com/rss?hl=pt-BR&gl=BR&ceid=BR:pt-419");
  EXPECT_EQ(url_for({{"hl", "en-GB"}}), "https://news.google.com/rss?hl=en-GB&gl=GB&ceid=GB:en");
  EXPECT_EQ(url_for({{"hl", "zh"}, {"gl", "cn"}}),
            "https://news.google.com/rss?hl=zh-CN&gl=CN&ceid=CN:zh-Hans");
  EXPECT_EQ(rejection(news(), {{"hl", "zh-TWN"}}), refused(ErrorCode::InvalidParameter, "hl"));
}

TEST(NewsUrl, TopicSectionPublicationAndStoryFeeds) {
  const std::string topic = "CAAqJggKIiBDQkFTRWdvSUwyMHZNRGx6TVdZU0FtVnVHZ0pWVXlnQVAB";
  const std::string section = "CAQiS0NCQVNNZ29JTDIwdk1EbHpNV1lTQW1WdUdnSlZVeUlQQ0FRYUN3b0pMMjB2TURWZmFHcHlLZ3dTQ2dvSkwyMHZNRFZmYUdweUtBQSoqCAAqJggKIiBDQkFTRWdvSUwyMHZNRGx6TVdZU0FtVnVHZ0pWVXlnQVABUAE";
  EXPECT_EQ(url_for({{"topicToken", topic}}),
            "https://news.google.com/rss/topics/" + topic + "?hl=en-US&gl=US&ceid=US:en");
  EXPECT_EQ(url_for({{"topicToken", topic}, {"sectionToken", section}}),
            "https://news.google.com/rss/topics/" + topic + "/sections/" + section +
                "?hl=en-US&gl=US&ceid=US:en");
  EXPECT_EQ(url_for({{"publicationToken", "CAAqBwgKMKHL9QowkqbaAg"}}),
            "https://news.google.com/rss/publications/CAAqBwgKMKHL9QowkqbaAg?hl=en-US&gl=US&"
            "ceid=US:en");
  EXPECT_EQ(url_for({{"publicationToken", "CAAqBwgKMKHL9QowkqbaAg"}, {"sectionToken", "CAQq"}}),
            "https://news.google.com/rss/publications/CAAqBwgKMKHL9QowkqbaAg/sections/CAQq?"
            "hl=en-US&gl=US&ceid=US:en");
  EXPECT_EQ(url_for({{"storyToken", "CAAqNggKIjBDQklTSGpv"}}),
            "https://news.google.com/rss/stories/CAAqNggKIjBDQklTSGpv?hl=en-US&gl=US&ceid=US:en");
  EXPECT_EQ(url_for({{"storyToken", "CAAqNggKIjBDQklTSGpv"}, {"so", "1"}, {"hl", "es"},
                     {"gl", "mx"}}),
            "https://news.google.com/rss/stories/CAAqNggKIjBDQklTSGpv?hl=es-MX&gl=MX&ceid=MX:es-419&"
            "so=1");
}

TEST(NewsParameters, SourcesOfArticlesAreMutuallyExclusive) {
  EXPECT_EQ(rejection(news(), {{"q", "x"}, {"topicToken", "T"}}),
            refused(ErrorCode::ConflictingParameters, "topicToken"));
  EXPECT_EQ(rejection(news(), {{"q", "x"}, {"publicationToken", "P"}}),
            refused(ErrorCode::ConflictingParameters, "publicationToken"));
  EXPECT_EQ(rejection(news(), {{"q", "x"}, {"storyToken", "S"}}),
            refused(ErrorCode::ConflictingParameters, "storyToken"));
  EXPECT_EQ(rejection(news(), {{"topicToken", "T"}, {"publicationToken", "P"}}),
            refused(ErrorCode::ConflictingParameters, "publicationToken"));
  EXPECT_EQ(rejection(news(), {{"topicToken", "T"}, {"storyToken", "S"}}),
            refused(ErrorCode::ConflictingParameters, "storyToken"));
  EXPECT_EQ(rejection(news(), {{"publicationToken", "P"}, {"storyToken", "S"}}),
            refused(ErrorCode::ConflictingParameters, "storyToken"));
}

TEST(NewsParameters, SectionOnlyUnderTopicOrPublicationAndSortOnlyInStory) {
  EXPECT_EQ(rejection(news(), {{"sectionToken", "S"}}),
            refused(ErrorCode::InvalidParameter, "sectionToken"));
  EXPECT_EQ(rejection(news(), {{"q", "x"}, {"sectionToken", "S"}}),
            refused(ErrorCode::InvalidParameter, "sectionToken"));
  EXPECT_EQ(rejection(news(), {{"storyToken", "X"}, {"sectionToken", "S"}}),
            refused(ErrorCode::InvalidParameter, "sectionToken"));
  EXPECT_EQ(rejection(news(), {{"so", "1"}}),
            refused(ErrorCode::InvalidParameter, "so"));
  EXPECT_EQ(rejection(news(), {{"topicToken", "T"}, {"so", "0"}}),
            refused(ErrorCode::InvalidParameter, "so"));
  EXPECT_EQ(rejection(news(), {{"storyToken", "X"}, {"so", "2"}}),
            refused(ErrorCode::InvalidParameter, "so"));
}

TEST(NewsParameters, CodesAndTokensAreChecked) {
  EXPECT_EQ(rejection(news(), {{"gl", "USA"}}),
            refused(ErrorCode::InvalidParameter, "gl"));
  EXPECT_EQ(rejection(news(), {{"hl", "e1"}}),
            refused(ErrorCode::InvalidParameter, "hl"));
  EXPECT_EQ(rejection(news(), {{"topicToken", "../../search"}}),
            refused(ErrorCode::InvalidParameter, "topicToken"));
  EXPECT_EQ(rejection(news(), {{"storyToken", "a b"}}),
            refused(ErrorCode::InvalidParameter, "storyToken"));
  EXPECT_EQ(rejection(news(), {{"when", "1d"}}),
            refused(ErrorCode::InvalidParameter, "when"));
  EXPECT_NO_THROW(news().validate({{"q", "x"}, {"gl", "us"}, {"hl", "en"}}));
}

TEST(NewsShape, ReadsEveryItemOfTheFeed) {
  json body = news().shape(recorded_feed(), {});
  const json& results = body.at("newsResults");
  ASSERT_EQ(results.size(), 92u);

  const json& top = results[0];
  EXPECT_EQ(top["position"], 1);
  EXPECT_EQ(top["title"], "Trump again shrinks two national monuments in Utah");
  EXPECT_EQ(top["source"]["name"], "The Washington Post");
  EXPECT_EQ(top["source"]["url"], "https://www.washingtonpost.com");
  EXPECT_EQ(top["date"], "2026-07-14T03:33:16Z");
  EXPECT_TRUE(top["link"].get<std::string>().starts_with(
      "https://news.google.com/rss/articles/CBMiwwFBVV95cUxQa2dqd043R002YmtMMzRm"));

  // The publisher's own "|" stays in its name and comes off the headline.
  const json& second = results[1];
  EXPECT_EQ(second["title"],
            "President Trump signs proclamation reducing Bears Ears Monument to 121,100 acres");
  EXPECT_EQ(second["source"]["name"], "San Juan Record |");
  EXPECT_EQ(second["date"], "2026-07-14T00:03:41Z");
  EXPECT_FALSE(second.contains("stories"));

  const json& third = results[2];
  EXPECT_EQ(third["title"],
            "President Trump Signs Order to Slash Bears Ears and Grand Staircase-Escalante "
            "National Monuments in Utah");
  EXPECT_EQ(third["source"]["name"], "National Parks Conservation Association");
  EXPECT_EQ(third["date"], "2026-07-13T22:34:54Z");

  const json& last = results[91];
  EXPECT_EQ(last["position"], 92);
  EXPECT_EQ(last["title"],
            "Appeals court revives Utah challenge to Bears Ears, Grand Staircase boundaries");
  EXPECT_EQ(last["source"]["name"], "Navajo Times");
  EXPECT_EQ(last["source"]["url"], "https://navajotimes.com");
  EXPECT_EQ(last["date"], "2026-06-25T07:00:00Z");
}

TEST(NewsShape, StoryClusterKeepsTheOtherCoverage) {
  json body = news().shape(recorded_feed(), {});
  const json& stories = body["newsResults"][0].at("stories");
  // Nine articles in the cluster; the first is the item itself.
  ASSERT_EQ(stories.size(), 8u);
  EXPECT_EQ(stories[0]["title"],
            "President Trump drastically shrinks 2 Utah national monuments — again");
  EXPECT_EQ(stories[0]["source"], "The Salt Lake Tribune");
  EXPECT_EQ(stories[1]["title"], "Trump Sharply Cuts the Size of Two National Monuments in Utah");
  EXPECT_EQ(stories[1]["source"], "The New York Times");
  EXPECT_EQ(stories[2]["source"], "NPR Utah | KUER");
  EXPECT_EQ(stories[7]["title"],
            "President Trump signs executive order shrinking Grand Staircase, Bears Ears "
            "National Monuments by 3 million acres");
  EXPECT_EQ(stories[7]["source"], "ABC4 Utah");
  for (const json& s : stories) {
    EXPECT_TRUE(s["link"].get<std::string>().starts_with("https://news.google.com/rss/articles/"));
  }
}

TEST(NewsShape, EmptyFeedIsAnAnswerAndAPageIsNoFeed) {
  json empty = {{"isFeed", true}, {"title", "\"zzqx\" - Google News"}, {"items", json::array()}};
  json body = news().shape(empty, {});
  EXPECT_EQ(body, json({{"newsResults", json::array()}}));
  EXPECT_TRUE(news().has_content(body));

  try {
    news().shape({{"isFeed", false}}, {});
    FAIL() << "an HTML page was taken for a feed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::ExtractionFailed);
  }
}

TEST(NewsShape, Rfc822Dates) {
  EXPECT_EQ(rfc822_to_iso8601("Tue, 14 Jul 2026 03:33:16 GMT"), "2026-07-14T03:33:16Z");
  EXPECT_EQ(rfc822_to_iso8601("Mon, 3 Feb 2025 09:05:00 +0200"), "2025-02-03T09:05:00+02:00");
  EXPECT_EQ(rfc822_to_iso8601("3 Feb 2025 21:15 -0500"), "2025-02-03T21:15:00-05:00");
  EXPECT_EQ(rfc822_to_iso8601("yesterday"), std::nullopt);
  EXPECT_EQ(rfc822_to_iso8601("Tue, 14 Foo 2026 03:33:16 GMT"), std::nullopt);
  EXPECT_EQ(rfc822_to_iso8601("Tue, 14 Jul 2026 03:33:16 PST8"), std::nullopt);
}

TEST(NewsFlow, LoadsTheBuiltUrlAndShapesWhatTheScriptRead) {
  testing::FakeTabs tabs;
  const std::string url = "https://news.google.com/rss/search?q=%22Bears+Ears%22+monument&"
                          "hl=en-US&gl=US&ceid=US:en";
  tabs.serve(url, recorded_feed());
  EndpointResult result = news().fetch(news().validate({{"q", "\"Bears Ears\" monument"}}), tabs,
                                       deadline_in(Millis(5000)));
  EXPECT_EQ(tabs.loaded, std::vector<std::string>{url});
  EXPECT_EQ(result.url, url);
  EXPECT_EQ(result.body["newsResults"].size(), 92u);
}

}  // namespace
}  // namespace gleaner::extract::google
