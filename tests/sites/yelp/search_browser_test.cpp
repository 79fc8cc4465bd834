// GET /scrape/yelp/search end to end in real Chromium over the real items of a Yelp search page
// (plumbers in Seattle, WA; 12 ads) in the smallest document that carries them on the site
// (data/search/plumbers-seattle-real-items-in-a-minimal-document.html, built by
// build_minimal_document.py); over whole real search pages of the site's 2017 layout; and over a
// whole real search page of December 2018, drawn from the search app's hypernova state.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::yelp {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::requested;
using testing::run_in_chromium;

const std::string kRealItemsInAMinimalDocument =
    gleaner::testing::site_tests_dir("yelp") +
    "data/search/plumbers-seattle-real-items-in-a-minimal-document.html";

TEST(YelpSearchInChromium, PlumbersInSeattleRealItemsInAMinimalDocument) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.yelp.com/search?", kRealItemsInAMinimalDocument));
  auto replay = archive.load();
  auto result = run_in_chromium(search_endpoint(), replay,
                                {{"keyword", "plumbers"}, {"location", "Seattle, WA"}});
  EXPECT_EQ(requested(*replay, "https://www.yelp.com/").front(),
            "https://www.yelp.com/search?find_desc=plumbers&find_loc=Seattle%2C+WA");
  const auto& b = result.body;
  EXPECT_EQ(b["searchInformation"]["keyword"], "plumbers");
  EXPECT_EQ(b["organicResults"].size(), 0u);
  ASSERT_EQ(b["ads"].size(), 12u);
  EXPECT_EQ(b["ads"][0]["title"], "Apollo Plumbing and Rooter");
  EXPECT_EQ(b["ads"][0]["rating"], 3.1);
  EXPECT_EQ(b["ads"][0]["reviews"], 172);
  EXPECT_EQ(b["ads"][0]["categories"][0]["title"], "Plumbing");
  EXPECT_EQ(b["ads"][1]["title"], "American Rooter Sewer & Drain Service");
  EXPECT_EQ(b["ads"][1]["highlights"][1], "Locally owned & operated");
  EXPECT_EQ(b["ads"][2]["title"], "Bee’s Plumbing and Heating");
  EXPECT_EQ(b["ads"][2]["url"],
            "https://www.yelp.com/biz/bees-plumbing-and-heating-seattle-2?override_cta=Get+pricing+"
            "%26+availability");
  EXPECT_EQ(b["ads"][2]["reviews"], 677);
  EXPECT_EQ(b["pagination"]["currentPage"], 1);
}

// The answer for `keyword` in `location` on a kept real search page (tests/sites/yelp/pages/).
nlohmann::json search_on(const std::string& page, const std::string& keyword,
                         const std::string& location) {
  TempReplayArchive archive;
  archive.add(testing::prefix_entry("https://www.yelp.com/search?",
                                    gleaner::testing::site_page("yelp", page)));
  return run_in_chromium(search_endpoint(), archive.load(),
                         {{"keyword", keyword}, {"location", location}})
      .body;
}

// A whole real search page of the site's 2017 layout, drawn on the server (no embedded state),
// as a browser saved it ("fried chicken" in Atlanta, GA: 10 results of 1,607 and 3 ads).
TEST(YelpSearchInChromium, FriedChickenInAtlantaOnThe2017Layout) {
  const auto b = search_on("local/yelp-com-search-fried-chicken-atlanta-saved-page-2017-09.html",
                           "fried chicken", "Atlanta, GA");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 1607);
  EXPECT_EQ(b["pagination"]["totalPages"], 161);
  ASSERT_EQ(b["organicResults"].size(), 10u);
  const auto& first = b["organicResults"][0];
  EXPECT_EQ(first["position"], 1);
  EXPECT_EQ(first["placeId"], "ApwmEiStq9aP9-Tf2xfVtA");
  EXPECT_EQ(first["placeAlias"], "guss-world-famous-fried-chicken-atlanta");
  EXPECT_EQ(first["title"], "Gus’s World Famous Fried Chicken");
  EXPECT_EQ(first["rating"], 4.0);
  EXPECT_EQ(first["reviews"], 549);
  EXPECT_EQ(first["price"], "$$");
  EXPECT_EQ(first["streetAddress"], "231 West Peachtree Street Northeast A-05, Atlanta, GA 30303");
  EXPECT_EQ(first["categories"][1]["title"], "Chicken Shop");
  EXPECT_EQ(first["thumbnail"],
            "https://s3-media2.fl.yelpcdn.com/bphoto/fl3r9ErnihdLhbEw_JtR-A/180s.jpg");
  EXPECT_EQ(first["snippet"].get<std::string>().rfind("Ok. Heavy with salt, msg.", 0), 0u);
  EXPECT_EQ(b["organicResults"][1]["title"], "South City Kitchen - Midtown");
  EXPECT_EQ(b["organicResults"][1]["rating"], 4.5);
  EXPECT_EQ(b["organicResults"][1]["reviews"], 1777);
  EXPECT_EQ(b["organicResults"][9]["title"], "Rock’s Chicken & Fries");
  EXPECT_EQ(b["organicResults"][9]["price"], "$");
  ASSERT_EQ(b["ads"].size(), 3u);
  EXPECT_EQ(b["ads"][0]["title"], "CalaBar & Grill");
  EXPECT_EQ(b["ads"][0]["placeId"], "PX_xyQcEj1bnaec2oMwH2w");
  EXPECT_EQ(b["ads"][0]["url"], "https://www.yelp.com/biz/calabar-and-grill-stone-mountain-2");
  EXPECT_EQ(b["ads"][0]["phone"], "(404) 299-2240");
  EXPECT_EQ(b["ads"][0]["reviews"], 80);
  EXPECT_EQ(b["ads"][2]["title"], "Copeland’s");
  EXPECT_EQ(b["ads"][2]["rating"], 3.5);
}

// Another real page of that layout as the server sent it to a signed-in visitor who chose 30
// results a page ("universities" in Atlanta, GA: 30 of 539, 3 ads): stars drawn by
// `i.star-img`, photos at protocol-relative addresses, no business ids.
TEST(YelpSearchInChromium, UniversitiesInAtlantaThirtyAPageOnThe2017Layout) {
  const auto b = search_on("local/yelp-com-search-universities-atlanta-30-a-page-2017-09.html",
                           "universities", "Atlanta, GA");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 539);
  EXPECT_EQ(b["pagination"]["perPage"], 30);
  EXPECT_EQ(b["pagination"]["totalPages"], 18);
  EXPECT_EQ(b["pagination"]["nextPageUrl"],
            "https://www.yelp.com/search?find_desc=universities&find_loc=Atlanta%2C+GA&start=30");
  ASSERT_EQ(b["organicResults"].size(), 30u);
  const auto& first = b["organicResults"][0];
  EXPECT_EQ(first["title"], "Georgia Institute of Technology");
  EXPECT_FALSE(first.contains("placeId"));
  EXPECT_EQ(first["placeAlias"], "georgia-institute-of-technology-atlanta-2");
  EXPECT_EQ(first["url"], "https://www.yelp.com/biz/georgia-institute-of-technology-atlanta-2");
  EXPECT_EQ(first["rating"], 4.0);
  EXPECT_EQ(first["reviews"], 30);
  EXPECT_EQ(first["streetAddress"], "225 North Ave NW, Atlanta, GA 30332");
  EXPECT_EQ(first["categories"][0]["title"], "Colleges & Universities");
  EXPECT_EQ(first["thumbnail"],
            "https://s3-media3.fl.yelpcdn.com/bphoto/IUCrUehycShuL06bFWUOGA/90s.jpg");
  EXPECT_EQ(first["snippet"].get<std::string>().rfind("\"Don't send my boy to MIT,\"", 0), 0u);
  EXPECT_EQ(b["organicResults"][1]["title"], "Emory University");
  EXPECT_EQ(b["organicResults"][1]["rating"], 4.5);
  EXPECT_EQ(b["organicResults"][29]["position"], 30);
  EXPECT_EQ(b["organicResults"][29]["title"], "Georgia Tech Conference Services");
  ASSERT_EQ(b["ads"].size(), 3u);
  EXPECT_EQ(b["ads"][0]["title"], "Fortis College");
  EXPECT_EQ(b["ads"][0]["placeId"], "NHi0up6UovtAcUuodyUHYw");
  EXPECT_EQ(b["ads"][0]["url"], "https://www.yelp.com/biz/fortis-college-smyrna");
  EXPECT_FALSE(b["ads"][0].contains("rating"));
  EXPECT_EQ(b["ads"][1]["title"], "Clark Atlanta University");
  EXPECT_EQ(b["ads"][1]["rating"], 5.0);
  EXPECT_EQ(b["ads"][1]["reviews"], 2);
}

// A whole real search page of December 2018 ("CHINEse food" in Fort Worth, TX), drawn by the
// search app from its hypernova state (`script[data-hypernova-key*="SearchApp"]`, JSON in a
// comment; no react_root_props): "Showing 1-30 of 466", 3 ads above the results and 1 below. It
// answered 502 before that state was read.
TEST(YelpSearchInChromium, ChineseFoodInFortWorthFromTheHypernovaStateOf2018) {
  const auto b =
      search_on("local/yelp-com-search-chinese-food-fort-worth-hypernova-state-2018-12.html",
                "chinese food", "Fort Worth, TX");
  EXPECT_EQ(b["searchInformation"]["totalResults"], 466);
  EXPECT_EQ(b["pagination"]["perPage"], 30);
  EXPECT_EQ(b["pagination"]["totalPages"], 16);
  EXPECT_EQ(
      b["pagination"]["nextPageUrl"],
      "https://www.yelp.com/search?find_desc=chinese+food&find_loc=Fort+Worth%2C+TX&start=30");
  ASSERT_EQ(b["organicResults"].size(), 30u);
  const auto& first = b["organicResults"][0];
  EXPECT_EQ(first["position"], 1);
  EXPECT_EQ(first["title"], "Cannon Chinese Kitchen");
  EXPECT_EQ(first["placeId"], "6whf9VYTOBUrNO00Ij3jBA");
  EXPECT_EQ(first["placeAlias"], "cannon-chinese-kitchen-fort-worth");
  EXPECT_EQ(first["url"],
            "https://www.yelp.com/biz/cannon-chinese-kitchen-fort-worth?osq=CHINEse+food");
  EXPECT_EQ(first["rating"], 4);
  EXPECT_EQ(first["reviews"], 197);
  EXPECT_EQ(first["price"], "$$");
  EXPECT_EQ(first["streetAddress"], "304 W Cannon St");
  EXPECT_EQ(first["categories"][0]["title"], "Chinese");
  EXPECT_EQ(first["thumbnail"],
            "https://s3-media4.fl.yelpcdn.com/bphoto/XtT-D9xUZ511HSnMNhditg/ls.jpg");
  EXPECT_TRUE(first["snippet"].get<std::string>().starts_with(
      "This is the first [[HIGHLIGHT]]Chinese[[ENDHIGHLIGHT]] restaurant"));
  // An excerpt that starts inside a sentence, after a space.
  EXPECT_TRUE(b["organicResults"][2]["snippet"].get<std::string>().starts_with("for Lumpia!"));
  EXPECT_EQ(b["organicResults"][29]["title"], "My Lan Restaurant");
  EXPECT_EQ(b["organicResults"][29]["reviews"], 234);
  ASSERT_EQ(b["ads"].size(), 4u);
  EXPECT_EQ(b["ads"][0]["title"], "Pho & Grill 2");
  EXPECT_EQ(b["ads"][0]["placeId"], "4lYM-V8VKamitHclwDZKug");
  EXPECT_EQ(b["ads"][0]["placeAlias"], "pho-and-grill-2-fort-worth");
  EXPECT_EQ(b["ads"][0]["url"], "https://www.yelp.com/biz/pho-and-grill-2-fort-worth");
  EXPECT_EQ(b["ads"][0]["phone"], "(817) 349-0460");
  EXPECT_EQ(b["ads"][0]["rating"], 4.5);
  EXPECT_EQ(b["ads"][0]["reviews"], 61);
  EXPECT_EQ(b["ads"][3]["title"], "Tokyo Cafe");
}

}  // namespace
}  // namespace gleaner::extract::yelp
