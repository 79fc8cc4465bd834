// GET /scrape/yelp/search end to end in real Chromium over the real items of a Yelp search page
// (plumbers in Seattle, WA; 12 ads) in the smallest document that carries them on the site
// (data/search/plumbers-seattle-real-items-in-a-minimal-document.html, built by
// build_minimal_document.py): no whole Yelp search page could be found.
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

}  // namespace
}  // namespace gleaner::extract::yelp
