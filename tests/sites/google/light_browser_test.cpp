// GET /scrape/google-light/serp end to end in real Chromium: the endpoint builds the basic page's
// URL, the page is answered from a replay archive of the real no-JS pages
// (tests/sites/google/pages/google-light-serp), light.js reads it with the page's scripts off, and
// the C++ shapes it. Asserts what a person reads on those pages.
#include <gtest/gtest.h>

#include "extract/sites/google/light.h"
#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

std::string page(const std::string& file) {
  return gleaner::testing::site_page("google", "google-light-serp/" + file);
}

TEST(LightSerpInChromium, CoffeeResultsSitelinksRelatedSearchesAndTheNextPage) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=coffee&gbv=1",
               page("serp-parser_nojs_coffee_en_2023-06.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(light_endpoint(), replay, {{"q", "coffee"}});
  EXPECT_EQ(requested(*replay).front(), "https://www.google.com/search?q=coffee&gbv=1");

  const auto& organic = result.body["organicResults"];
  ASSERT_EQ(organic.size(), 10u) << organic.dump();
  EXPECT_EQ(organic[0]["position"], 1);
  EXPECT_EQ(organic[0]["title"], "Coffee - Wikipedia");
  EXPECT_EQ(organic[0]["link"], "https://en.wikipedia.org/wiki/Coffee");
  EXPECT_EQ(organic[0]["displayedLink"], "en.wikipedia.org \u203a wiki \u203a Coffee");
  EXPECT_EQ(organic[0]["source"], "en.wikipedia.org");
  EXPECT_EQ(organic[0]["snippet"].get<std::string>().rfind(
                "Coffee is a beverage prepared from roasted coffee beans.", 0),
            0u);
  EXPECT_EQ(organic[0]["sitelinks"][0],
            (nlohmann::json{{"title", "Coffee bean"},
                            {"link", "https://en.wikipedia.org/wiki/Coffee_bean"}}));
  // The date the page prints before a snippet is the result's date; text outside ASCII as written.
  EXPECT_EQ(organic[5]["title"], "31 Coffee Brands, Ranked From Worst To Best - Tasting Table");
  EXPECT_EQ(organic[5]["date"], "Mar 2, 2023");
  EXPECT_EQ(
      organic[5]["snippet"].get<std::string>().rfind("From caf\u00e9 chains to retail roasters", 0),
      0u);
  EXPECT_EQ(organic[1]["snippet"].get<std::string>().rfind("cof\u00b7fee /\u02c8k\u00f4f\u0113", 0),
            0u)
      << organic[1]["snippet"];
  EXPECT_EQ(
      organic[3]["snippet"].get<std::string>().find("Starbucks\u00ae Rewards") != std::string::npos,
      true);

  const auto& related = result.body["relatedSearches"];
  ASSERT_EQ(related.size(), 8u);
  EXPECT_EQ(related[0]["query"], "Coffee near me");
  EXPECT_EQ(related[7]["query"], "Coffee tree");
  EXPECT_EQ(result.body["pagination"]["current"], 1);
  EXPECT_NE(result.body["pagination"]["next"].get<std::string>().find("start=10"),
            std::string::npos);
}

TEST(LightSerpInChromium, HotelsPageResultsAfterItsAdsAndPlaces) {
  TempReplayArchive archive;
  archive.file("https://www.google.com/search?q=hotels+NYC&gbv=1",
               page("serp-parser_nojs_hotels-nyc_en_2023-06.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(light_endpoint(), replay, {{"q", "hotels NYC"}});
  const auto& organic = result.body["organicResults"];
  ASSERT_EQ(organic.size(), 9u) << organic.dump();
  EXPECT_EQ(organic[0]["position"], 1);
  EXPECT_EQ(organic[0]["title"], "Best New York Hotels");
  EXPECT_EQ(organic[0]["link"], "https://www.hotels.com/de1506246/hotels-new-york-new-york/");
  EXPECT_EQ(organic[1]["title"], "Book cheap New York hotels");
  EXPECT_EQ(organic[2]["title"], "Top Hotels in New York, NY from $104 - Expedia");
  EXPECT_EQ(organic[5]["title"], "42 Best Hotels in New York City | Cond\u00e9 Nast Traveler");
  EXPECT_EQ(result.body["relatedSearches"][0]["query"], "Hotels nyc downtown");
  EXPECT_EQ(result.body["pagination"]["current"], 1);
}

TEST(LightSerpInChromium, GooglesSorryPageIsUpstreamBlocked) {
  TempReplayArchive archive;
  TempReplayArchive::Entry sorry;
  sorry.url = "https://www.google.com/search?q=coffee&gbv=1";
  sorry.status = 302;
  sorry.headers["location"] = "https://www.google.com/sorry/index?continue=x";
  archive.add(sorry);
  archive.page("https://www.google.com/sorry/index?continue=x",
               "<html><body><form id='captcha-form'><p>Our systems have detected unusual "
               "traffic from your computer network.</p></form></body></html>");
  EXPECT_EQ(error_in_chromium(light_endpoint(), archive.load(), {{"q", "coffee"}}).code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::google
