// GET /scrape/search/news end to end in real Chromium: the endpoint builds the feed URL, the feed
// is answered from a replay archive of the fixture (tests/sites/google/pages/news), news.js reads
// the RSS document as Chromium shows it and the C++ shapes it.
#include <gtest/gtest.h>

#include "extract/sites/google/news.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

const std::string kFeed = gleaner::testing::site_page(
    "google", "news/monument-watch_rss_search_bears-ears-monument_enUS.xml");
const std::string kFeedUrl =
    "https://news.google.com/rss/search?q=%22Bears+Ears%22+monument&hl=en-US&gl=US&ceid=US:en";

TEST(NewsInChromium, SearchFeed) {
  TempReplayArchive archive;
  archive.file(kFeedUrl, kFeed);
  auto replay = archive.load();
  auto result = run_in_chromium(news_endpoint(), replay, {{"q", "\"Bears Ears\" monument"}});

  EXPECT_EQ(requested(*replay).front(), kFeedUrl);
  EXPECT_EQ(result.url, kFeedUrl);
  const auto& news = result.body["newsResults"];
  ASSERT_EQ(news.size(), 92u);
  EXPECT_EQ(news[0]["title"], "Trump again shrinks two national monuments in Utah");
  EXPECT_EQ(news[0]["source"]["name"], "The Washington Post");
  EXPECT_EQ(news[0]["date"], "2026-07-14T03:33:16Z");
  ASSERT_EQ(news[0]["stories"].size(), 8u);
  EXPECT_EQ(news[0]["stories"][1]["source"], "The New York Times");
  EXPECT_EQ(news[0]["stories"][2]["title"],
            "Trump slashes Utah’s Bears Ears and Grand Staircase-Escalante by 90%");
  EXPECT_EQ(news[1]["title"],
            "President Trump signs proclamation reducing Bears Ears Monument to 121,100 acres");
  EXPECT_EQ(news[91]["title"],
            "Appeals court revives Utah challenge to Bears Ears, Grand Staircase boundaries");
  EXPECT_EQ(news[91]["source"]["url"], "https://navajotimes.com");
  // The recorded script output the unit tests shape is what Chromium reads today.
  EXPECT_EQ(result.body,
            news_endpoint().shape(testing::recorded("google/data/news/bears-ears_script_output.json"), {}));
}

// The Japanese edition's top headlines (souta-pqr/Summary, 2024-02), re-indented by
// BeautifulSoup: every text sits between line breaks, which the titles and sources do not keep.
TEST(NewsInChromium, JapaneseTopHeadlines) {
  TempReplayArchive archive;
  archive.file("https://news.google.com/rss?hl=ja-JP&gl=JP&ceid=JP:ja",
               gleaner::testing::site_page(
                   "google", "news/souta-summary_rss_top-headlines_jaJP_prettified_2024-02.xml"));
  const auto body =
      run_in_chromium(news_endpoint(), archive.load(), {{"gl", "JP"}, {"hl", "ja"}}).body;
  const auto& news = body["newsResults"];
  ASSERT_EQ(news.size(), 30u);
  EXPECT_EQ(news[0]["title"],
            "盛山文科相、旧統一教会系から選挙支援 21年衆院選 関係者が証言：朝日新聞デジタル");
  EXPECT_EQ(news[0]["source"]["name"], "朝日新聞デジタル");
  EXPECT_EQ(news[0]["source"]["url"], "https://www.asahi.com");
  EXPECT_EQ(news[0]["date"], "2024-02-05T19:00:00Z");
  ASSERT_EQ(news[0]["stories"].size(), 4u);
  EXPECT_EQ(news[0]["stories"][0]["title"], "盛山文科相 旧統一から選挙支援か - Yahoo!ニュース");
  EXPECT_EQ(news[0]["stories"][0]["source"], "Yahoo!ニュース");
  EXPECT_EQ(news[1]["title"], "雪の交通影響 首都高・東名など通行止め JR運転見合わせも | NHK");
  EXPECT_EQ(news[1]["source"]["name"], "nhk.or.jp");
  EXPECT_EQ(news[29]["source"]["name"], "サンスポ");
}

TEST(NewsInChromium, TheFeedEachParameterCombinationAsksFor) {
  // Every feed URL answers with the fixture, so the archive's log shows what was asked for.
  TempReplayArchive archive;
  archive.add(prefix_entry("https://news.google.com/rss", kFeed));
  auto replay = archive.load();
  run_in_chromium(news_endpoint(), replay, {});
  run_in_chromium(news_endpoint(), replay,
                  {{"topicToken", "CAAqJggKIiBDQkFTRWdvSUwyMHZNRGx6TVdZU0FtVnVHZ0pWVXlnQVAB"},
                   {"sectionToken", "CAQiS0NCQVNNZ29J"},
                   {"gl", "gb"},
                   {"hl", "en"}});
  run_in_chromium(news_endpoint(), replay,
                  {{"publicationToken", "CAAqBwgKMKHL9QowkqbaAg"}, {"hl", "de"}, {"gl", "DE"}});
  run_in_chromium(news_endpoint(), replay, {{"storyToken", "CAAqNggKIjBDQklTSGpv"}, {"so", "1"}});
  // The feeds only: Chromium may also ask for the site's favicon, depending on timing.
  EXPECT_EQ(requested(*replay, "https://news.google.com/rss"),
            (std::vector<std::string>{
                "https://news.google.com/rss?hl=en-US&gl=US&ceid=US:en",
                "https://news.google.com/rss/topics/"
                "CAAqJggKIiBDQkFTRWdvSUwyMHZNRGx6TVdZU0FtVnVHZ0pWVXlnQVAB/sections/"
                "CAQiS0NCQVNNZ29J?hl=en-GB&gl=GB&ceid=GB:en",
                "https://news.google.com/rss/publications/CAAqBwgKMKHL9QowkqbaAg?hl=de-DE&gl=DE&"
                "ceid=DE:de",
                "https://news.google.com/rss/stories/CAAqNggKIjBDQklTSGpv?hl=en-US&gl=US&"
                "ceid=US:en&so=1"}));
}

// Block pages are test pages written here: what matters is how the service reacts to them.
TEST(NewsInChromium, ConsentWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page(kFeedUrl,
               "<html><head><title>Before you continue to Google News</title></head><body>"
               "<h1>Before you continue to Google</h1><p>We use cookies and data to deliver and "
               "maintain Google services.</p><form action='https://consent.google.com/save'>"
               "<button>Reject all</button><button>Accept all</button></form></body></html>");
  EXPECT_EQ(error_in_chromium(news_endpoint(), archive.load(), {{"q", "\"Bears Ears\" monument"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

TEST(NewsInChromium, PageInsteadOfTheFeedIsExtractionFailed) {
  TempReplayArchive archive;
  archive.page(kFeedUrl,
               "<html><head><title>Google News</title></head><body><main><h1>Google News</h1>"
               "<p>Top stories, world, business, technology, entertainment, sports and health, "
               "in one place for you to read.</p></main></body></html>");
  EXPECT_EQ(
      error_in_chromium(news_endpoint(), archive.load(), {{"q", "\"Bears Ears\" monument"}}).code(),
      ErrorCode::ExtractionFailed);
}

TEST(NewsInChromium, MissingFeedIsNotFound) {
  TempReplayArchive archive;  // nothing matches: the archive answers 404
  EXPECT_EQ(error_in_chromium(news_endpoint(), archive.load(), {{"storyToken", "CAAqNggK"}}).code(),
            ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::google
