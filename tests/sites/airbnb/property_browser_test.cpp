// GET /scrape/rentals/property end to end in real Chromium over a replay archive of the real 2023
// Airbnb room page of the fixtures.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::airbnb {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::requested;
using testing::run_in_chromium;

TEST(AirbnbPropertyInChromium, TheArtistLoft) {
  TempReplayArchive archive;
  archive.file(
      "https://www.airbnb.com/rooms/1944564?check_in=2030-06-01&check_out=2030-06-03",
      gleaner::testing::site_page("airbnb", "rentals-property/airbnb-room-1944564-2023.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(
      property_endpoint(), replay,
      {{"url", "https://www.airbnb.com/rooms/1944564?check_in=2030-06-01&check_out=2030-06-03"}});
  EXPECT_EQ(requested(*replay, "https://www.airbnb.com/rooms").front(),
            "https://www.airbnb.com/rooms/1944564?check_in=2030-06-01&check_out=2030-06-03");
  const auto& p = result.body["property"];
  EXPECT_EQ(p["title"], "Super Clean Artist Loft above Sculpture Studio");
  EXPECT_EQ(p["host"]["name"], "Brian");
  EXPECT_EQ(p["price"]["perNight"], "$181");
  EXPECT_EQ(p["rating"]["reviews"], 422);
}

TEST(AirbnbPropertyInChromium, AListingTheSiteDoesNotHaveIsNotFound) {
  TempReplayArchive archive;
  EXPECT_EQ(error_in_chromium(property_endpoint(), archive.load(),
                              {{"url", "https://www.airbnb.com/rooms/1"}})
                .code(),
            ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::airbnb
