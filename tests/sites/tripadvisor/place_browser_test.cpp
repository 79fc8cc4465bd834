// GET /scrape/travel/place end to end in real Chromium over a document written for the test that
// carries a real Tripadvisor hotel page's JSON-LD, unchanged; and over a real page of the site's
// 2018 layout that holds no place's data.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::tripadvisor {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::run_in_chromium;

TEST(TripadvisorPlaceInChromium, TheLeSoleilHotel) {
  TempReplayArchive archive;
  archive.file("https://www.tripadvisor.com/Attraction_Review-d264936.html",
               std::string(GLEANER_SOURCE_DIR) +
                   "/tests/sites/tripadvisor/data/place/le-soleil-hotel-jsonld.html");
  auto result = run_in_chromium(place_endpoint(), archive.load(), {{"placeId", "d264936"}});
  EXPECT_EQ(result.body["place"]["name"], "1926 Le Soleil Hotel & Spa");
  EXPECT_EQ(result.body["place"]["type"], "hotel");
  EXPECT_EQ(result.body["place"]["reviews"], 1215);
}

TEST(TripadvisorPlaceInChromium, APlaceTheSiteDoesNotHaveIsNotFound) {
  TempReplayArchive archive;
  EXPECT_EQ(error_in_chromium(place_endpoint(), archive.load(), {{"placeId", "d1"}}).code(),
            ErrorCode::NotFound);
}

// A real page of the site in its 2018 layout (a list of attractions: no wall, no error page, but
// none of a place's data in any form the endpoint reads): 502 extraction_failed, never a block.
TEST(TripadvisorPlaceInChromium, AnOlderLayoutPageWithoutAPlaceIsExtractionFailed) {
  TempReplayArchive archive;
  archive.file("https://www.tripadvisor.com/Attraction_Review-d155483.html",
               gleaner::testing::site_page(
                   "tripadvisor", "travel/tripadvisor-toronto-attractions-list-2018.html"));
  EXPECT_EQ(error_in_chromium(place_endpoint(), archive.load(), {{"placeId", "d155483"}}).code(),
            ErrorCode::ExtractionFailed);
}

}  // namespace
}  // namespace gleaner::extract::tripadvisor
