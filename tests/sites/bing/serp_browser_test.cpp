// GET /scrape/bing/serp end to end in real Chromium over the two real Bing results pages kept in
// pages/bing-serp (saved in 2021 with JavaScript off, market en-GB from Spain).
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::bing {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::requested;
using testing::run_in_chromium;

const std::string kCoffee =
    gleaner::testing::site_page("bing", "bing-serp/bing-serp-coffee-engb-saved-nojs-2021-01.html");
const std::string kMatrix = gleaner::testing::site_page(
    "bing", "bing-serp/bing-serp-the-matrix-engb-saved-nojs-2021-01.html");

TEST(BingSerpInChromium, CoffeeAsAPersonReadsIt) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=coffee", kCoffee));
  auto replay = archive.load();
  auto result = run_in_chromium(serp_endpoint(), replay,
                                {{"q", "coffee"}, {"mkt", "en-gb"}, {"safe", "moderate"}});
  EXPECT_EQ(requested(*replay, "https://www.bing.com/").front(),
            "https://www.bing.com/search?q=coffee&mkt=en-gb&adlt=moderate");
  const auto& b = result.body;
  ASSERT_EQ(b["organicResults"].size(), 4u);
  EXPECT_EQ(b["organicResults"][0]["position"], 1);
  EXPECT_EQ(b["organicResults"][0]["title"], "coffee - English-Spanish Dictionary - …");
  EXPECT_EQ(b["organicResults"][0]["link"],
            "http://www.wordreference.com/es/translation.asp?tranword=coffee");
  EXPECT_EQ(b["organicResults"][0]["displayedLink"],
            "www.wordreference.com/es/translation.asp?tranword=coffee");
  EXPECT_EQ(b["organicResults"][0]["source"], "wordreference.com");
  EXPECT_TRUE(b["organicResults"][0]["snippet"].get<std::string>().starts_with(
      "coffee - Translation to Spanish"));
  // Four ads above the results and more below them, each a bing.com/aclick tracker.
  ASSERT_GT(b["ads"].size(), 4u);
  EXPECT_EQ(b["ads"][0]["title"], "Coffee Capsule - Cafeteras, Teteras, Accesorios");
  EXPECT_EQ(b["ads"][0]["blockPosition"], "top");
  EXPECT_EQ(b["ads"][0]["displayedLink"], "http://www.amazon.es/Cafe-Te");
  EXPECT_EQ(b["ads"][0]["description"], "Envío gratis con Amazon Prime");
  EXPECT_TRUE(b["ads"][0]["link"].get<std::string>().starts_with("https://www.bing.com/aclick?"));
  EXPECT_EQ(b["ads"].back()["blockPosition"], "bottom");
  EXPECT_EQ(b["relatedSearches"][0]["query"], "coffee time");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 77100000);
  EXPECT_EQ(b["pagination"]["currentPage"], 1);
  EXPECT_EQ(b["pagination"]["next"],
            "https://www.bing.com/search?q=coffee&search=&first=5&FORM=PORE");
}

TEST(BingSerpInChromium, TheMatrixCountsOnlyTopLevelResults) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.bing.com/search?q=The+Matrix", kMatrix));
  auto result =
      run_in_chromium(serp_endpoint(), archive.load(), {{"q", "The Matrix"}, {"first", "11"}});
  const auto& organic = result.body["organicResults"];
  ASSERT_GE(organic.size(), 3u);
  EXPECT_EQ(organic[0]["position"], 11);
  EXPECT_EQ(organic[0]["link"], "https://es.wikipedia.org/wiki/The_Matrix");
  EXPECT_EQ(organic[0]["title"], "The Matrix - Wikipedia, la enciclopedia libre");
  bool imdb = false;
  for (const auto& r : organic) {
    if (r["title"] == "The Matrix (1999) - IMDb") imdb = true;
  }
  EXPECT_TRUE(imdb);
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 777000000);
}

}  // namespace
}  // namespace gleaner::extract::bing
