// GET /scrape/rentals/listing end to end in real Chromium over a replay archive of the real 2022
// Mission District search page of the fixtures.
#include <gtest/gtest.h>

#include "extract/sites/airbnb/listing.h"
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
                   std::string(GLEANER_FIXTURES_DIR) +
                       "/pages/rentals-listing/airbnb-search-sf-mission-district-2022.html"));
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

}  // namespace
}  // namespace gleaner::extract::airbnb
