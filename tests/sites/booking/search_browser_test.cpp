// GET /scrape/stays/search end to end in real Chromium over a replay archive of the whole Ruidera
// results page of the fixtures.
#include <gtest/gtest.h>

#include "extract/sites/booking/search.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::booking {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

TEST(BookingSearchInChromium, Ruidera) {
  TempReplayArchive archive;
  archive.add(
      prefix_entry("https://www.booking.com/searchresults.html?",
                   std::string(GLEANER_FIXTURES_DIR) +
                       "/pages/stays-search/booking-searchresults-ruidera-en-dom-2025-04.html"));
  auto replay = archive.load();
  auto result = run_in_chromium(search_endpoint(), replay,
                                {{"keyword", "Ruidera"},
                                 {"checkInDate", "2030-06-01"},
                                 {"checkOutDate", "2030-06-03"},
                                 {"rooms", "1"},
                                 {"adults", "2"},
                                 {"children", "1"},
                                 {"childrenAges", "6"},
                                 {"rating[]", "3"}});
  EXPECT_EQ(
      requested(*replay, "https://www.booking.com/searchresults").front(),
      "https://www.booking.com/searchresults.html?ss=Ruidera&checkin=2030-06-01&checkout=2030-06-03"
      "&group_adults=2&group_children=1&age=6&no_rooms=1&nflt=class%3D3");
  EXPECT_EQ(result.body["searchInformation"]["totalResults"], 251);
  EXPECT_EQ(result.body["results"][0]["name"], "Hotel Rural Albamanjon");
  EXPECT_EQ(result.body["results"].size(), 25u);
}

}  // namespace
}  // namespace gleaner::extract::booking
