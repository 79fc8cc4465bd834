// GET /scrape/google-trends/search end to end in real Chromium: the endpoint loads the explore
// call, then asks for the widget's data from the same origin as the explore page does, both
// answered from a replay archive of the site's real answers (tests/sites/google/pages/
// google-trends, recorded by pytrends' test cassettes), and the C++ shapes them.
#include <gtest/gtest.h>

#include "extract/sites/google/trends.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

const std::string kApi = "https://trends.google.com/trends/api/";

std::string page(const std::string& file) {
  return gleaner::testing::site_page("google", "google-trends/" + file);
}

TEST(TrendsInChromium, InterestOverTimeOfTwoTerms) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry(kApi + "explore?",
                   page("pytrends_api-explore_pizza-bagel_2021-01-01_2021-01-05_2023-03.json")));
  archive.add(prefix_entry(
      kApi + "widgetdata/multiline?",
      page("pytrends_widgetdata-multiline_pizza-bagel_2021-01-01_2021-01-05_2023-03.json")));
  auto replay = archive.load();
  auto result =
      run_in_chromium(trends_endpoint(), replay,
                      {{"q", "pizza,bagel"}, {"date", "2021-01-01 2021-01-05"}, {"tz", "360"}});
  // The explore call, then the TIMESERIES widget's data with its token, as the page asks, both
  // without a renderer.
  EXPECT_EQ(result.road, Road::Plain);
  const auto urls = requested(*replay, kApi);
  ASSERT_EQ(urls.size(), 2u);
  EXPECT_EQ(urls[0].rfind(kApi + "explore?hl=en-US&tz=360&req=", 0), 0u) << urls[0];
  EXPECT_NE(urls[0].find("pizza"), std::string::npos);
  EXPECT_EQ(urls[1].rfind(kApi + "widgetdata/multiline?hl=en-US&tz=360&req=", 0), 0u) << urls[1];
  EXPECT_NE(urls[1].find("token=APP6_UEAAAAAZCFPLHz6xkRipufcZZNE92hnrJrQM4XT"), std::string::npos);

  const auto& timeline = result.body["interestOverTime"]["timelineData"];
  ASSERT_EQ(timeline.size(), 5u);
  EXPECT_EQ(timeline[0]["date"], "Jan 1, 2021");
  EXPECT_EQ(timeline[0]["timestamp"], "1609459200");
  EXPECT_EQ(timeline[0]["values"][0],
            (nlohmann::json{
                {"query", "pizza"}, {"value", "100"}, {"extractedValue", 100}, {"hasData", true}}));
  EXPECT_EQ(timeline[0]["values"][1]["query"], "bagel");
  EXPECT_EQ(timeline[0]["values"][1]["extractedValue"], 2);
  EXPECT_EQ(timeline[3]["values"][0]["extractedValue"], 49);
  EXPECT_EQ(
      result.body["interestOverTime"]["averages"],
      (nlohmann::json{{{"query", "pizza"}, {"value", 72}}, {{"query", "bagel"}, {"value", 2}}}));
}

TEST(TrendsInChromium, InterestByRegion) {
  TempReplayArchive archive;
  archive.add(prefix_entry(kApi + "explore?",
                           page("pytrends_api-explore_pizza-bagel_2021_for-geomap_2023-03.json")));
  archive.add(prefix_entry(kApi + "widgetdata/comparedgeo?",
                           page("pytrends_widgetdata-comparedgeo_pizza-bagel_2021_2023-03.json")));
  auto replay = archive.load();
  auto result = run_in_chromium(trends_endpoint(), replay,
                                {{"q", "pizza,bagel"},
                                 {"date", "2021-01-01 2021-12-31"},
                                 {"tz", "360"},
                                 {"dataType", "geoMap"},
                                 {"region", "country"}});
  const auto urls = requested(*replay, kApi + "widgetdata/");
  ASSERT_EQ(urls.size(), 1u);
  EXPECT_NE(urls[0].find("COUNTRY"), std::string::npos) << urls[0];
  const auto& regions = result.body["interestByRegion"];
  ASSERT_GT(regions.size(), 100u);
  EXPECT_EQ(regions[0]["location"], "Puerto Rico");
  EXPECT_EQ(regions[0]["hasData"], false);
  EXPECT_EQ(regions[1]["location"], "Canada");
  EXPECT_EQ(regions[1]["geo"], "CA");
  EXPECT_EQ(regions[1]["value"], "98%");
  EXPECT_EQ(regions[1]["extractedValue"], 98);
  EXPECT_EQ(regions[1]["values"][1],
            (nlohmann::json{
                {"query", "bagel"}, {"value", "2%"}, {"extractedValue", 2}, {"hasData", true}}));
  EXPECT_EQ(regions[4]["location"], "St. Barth\u00e9lemy");
}

TEST(TrendsInChromium, RelatedTopicsTopAndRising) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry(kApi + "explore?", page("pytrends_api-explore_pizza_2021_2023-03.json")));
  archive.add(
      prefix_entry(kApi + "widgetdata/relatedsearches?",
                   page("pytrends_widgetdata-relatedsearches-entity_pizza_2021_2023-03.json")));
  auto replay = archive.load();
  auto result = run_in_chromium(trends_endpoint(), replay,
                                {{"q", "pizza"},
                                 {"date", "2021-01-01 2021-12-31"},
                                 {"tz", "360"},
                                 {"dataType", "relatedTopics"}});
  const auto& related = result.body["relatedTopics"];
  ASSERT_EQ(related["top"].size(), 21u);
  EXPECT_EQ(related["top"][0]["topic"],
            (nlohmann::json{{"value", "/m/0663v"}, {"title", "Pizza"}, {"type", "Dish"}}));
  EXPECT_EQ(related["top"][0]["extractedValue"], 100);
  EXPECT_EQ(related["top"][0]["link"],
            "https://trends.google.com/trends/explore?q=/m/0663v&date=2021-01-01+2021-12-31");
  EXPECT_EQ(related["top"][1]["topic"]["title"], "Pizza Hut");
  ASSERT_EQ(related["rising"].size(), 4u);
  EXPECT_EQ(related["rising"][0]["topic"]["title"], "Sam Goody");
  EXPECT_EQ(related["rising"][0]["value"], "Breakout");
  EXPECT_EQ(related["rising"][0]["extractedValue"], 12600);
}

TEST(TrendsInChromium, AWalledWidgetCallOnThePlainRoadIsAskedAgainInTheBrowser) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry(kApi + "explore?",
                   page("pytrends_api-explore_pizza-bagel_2021-01-01_2021-01-05_2023-03.json")));
  archive.add(prefix_entry(
      kApi + "widgetdata/multiline?",
      page("pytrends_widgetdata-multiline_pizza-bagel_2021-01-01_2021-01-05_2023-03.json")));
  auto replay = archive.load();
  // Google's "unusual traffic" page (429) for the plain client's widget call.
  auto wall = std::make_shared<testing::WallOnce>(
      kApi + "widgetdata/",
      gleaner::testing::site_page("google", "blocks/google-search-sorry-captcha-fr-2025-11.html"),
      429);
  auto result =
      testing::run_with(trends_endpoint(), {wall, replay},
                        {{"q", "pizza,bagel"}, {"date", "2021-01-01 2021-01-05"}, {"tz", "360"}});
  EXPECT_TRUE(wall->walled());
  EXPECT_EQ(result.road, Road::Browser);
  // The plain road's explore call, then the browser's explore call and widget call.
  const auto urls = requested(*replay, kApi);
  ASSERT_EQ(urls.size(), 3u);
  EXPECT_EQ(urls[2].rfind(kApi + "widgetdata/multiline?", 0), 0u) << urls[2];
  EXPECT_EQ(result.body["interestOverTime"]["timelineData"].size(), 5u);
}

TEST(TrendsInChromium, ARefusedWidgetCallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry(kApi + "explore?",
                   page("pytrends_api-explore_pizza-bagel_2021-01-01_2021-01-05_2023-03.json")));
  TempReplayArchive::Entry refused = prefix_entry(kApi + "widgetdata/", "");
  refused.source.clear();
  refused.body = "<html><body>Too Many Requests</body></html>";
  refused.status = 429;
  archive.add(refused);
  EXPECT_EQ(error_in_chromium(trends_endpoint(), archive.load(),
                              {{"q", "pizza,bagel"}, {"date", "2021-01-01 2021-01-05"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::google
