// GET /scrape/rentals/listing end to end in real Chromium over replay archives of the real 2022
// and 2023 Mission District search pages.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::airbnb {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

TEST(AirbnbListingInChromium, MissionDistrict) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry("https://www.airbnb.com/s/",
                   gleaner::testing::site_page(
                       "airbnb", "rentals-listing/airbnb-search-sf-mission-district-2022.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(
      listing_endpoint(), replay,
      {{"location", "San Francisco, CA"}, {"checkIn", "2030-01-22"}, {"children", "1"}});
  EXPECT_EQ(requested(*replay, "https://www.airbnb.com/s/").front(),
            "https://www.airbnb.com/s/San-Francisco--CA/"
            "homes?query=San+Francisco%2C+CA&checkin=2030-01-22&children=1");
  EXPECT_EQ(result.body["listings"].size(), 20u);
  EXPECT_EQ(result.body["listings"][0]["id"], "1944564");
}

// The 2023 layout of the same state (a rendered page of 2023): its listings sit in
// sectionIndependentData.staysSearch, not in the sections, and were answered 502 before.
TEST(AirbnbListingInChromium, MissionDistrict2023) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry("https://www.airbnb.com/s/",
                   gleaner::testing::site_page(
                       "airbnb", "rentals-listing/airbnb-search-sf-mission-district-2023.html")));
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"location", "Mission District, San Francisco, CA"},
                                  {"checkIn", "2030-06-30"}})
                     .body;
  ASSERT_EQ(b["listings"].size(), 18u);
  EXPECT_EQ(b["listings"][0]["id"], "1944564");
  EXPECT_EQ(b["listings"][0]["price"]["perNight"], "$210");
  EXPECT_EQ(b["listings"][0]["rating"], 4.98);
  EXPECT_TRUE(b["pagination"].contains("nextPageToken"));
}

// A layout that keeps neither the search answer nor schema.org list items (a page built from the
// real Mission District page with both taken out, every card kept): the cards' room links, each
// named by the title it is labelled by, are the listings, in order.
TEST(AirbnbListingInChromium, APageWithoutStateOrListItemsIsReadFromItsCards) {
  TempReplayArchive archive;
  archive.add(gleaner::testing::rewritten_entry(
      "https://www.airbnb.com/s/",
      gleaner::testing::site_page("airbnb",
                                  "rentals-listing/airbnb-search-sf-mission-district-2022.html"),
      nlohmann::json::array({{"id=\"data-deferred-state\"", "id=\"removed-state\""},
                             {"itemprop=\"itemListElement\"", "itemprop=\"removedElement\""}})));
  const auto b = run_in_chromium(listing_endpoint(), archive.load(),
                                 {{"location", "San Francisco, CA"}, {"checkIn", "2030-01-22"}})
                     .body;
  ASSERT_GE(b["listings"].size(), 18u);
  EXPECT_EQ(b["listings"][0]["id"], "1944564");
  EXPECT_EQ(b["listings"][0]["link"], "https://www.airbnb.com/rooms/1944564");
  for (const auto& l : b["listings"]) {
    EXPECT_FALSE(l.value("name", "").empty()) << l.dump();
  }
}

}  // namespace
}  // namespace gleaner::extract::airbnb
