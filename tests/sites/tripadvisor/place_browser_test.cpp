// GET /scrape/travel/place end to end in real Chromium over a document written for the test that
// carries a real Tripadvisor hotel page's JSON-LD, unchanged.
#include <gtest/gtest.h>

#include "extract/sites/tripadvisor/place.h"
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

}  // namespace
}  // namespace gleaner::extract::tripadvisor
