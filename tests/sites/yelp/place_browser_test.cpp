// GET /scrape/local/place end to end in real Chromium over a document written for the test (see
// tests/sites/yelp/data/place/gaucho-parrilla-argentina.html).
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::yelp {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::run_in_chromium;

TEST(YelpPlaceInChromium, GauchoParrillaArgentina) {
  TempReplayArchive archive;
  archive.file("https://www.yelp.com/biz/gaucho-parrilla-argentina-pittsburgh",
               std::string(GLEANER_SOURCE_DIR) +
                   "/tests/sites/yelp/data/place/gaucho-parrilla-argentina.html");
  auto result = run_in_chromium(place_endpoint(), archive.load(),
                                {{"placeId", "gaucho-parrilla-argentina-pittsburgh"}});
  EXPECT_EQ(result.body["place"]["name"], "Gaucho Parrilla Argentina");
  EXPECT_EQ(result.body["place"]["reviews"], 1492);
}

TEST(YelpPlaceInChromium, ABusinessTheSiteDoesNotHaveIsNotFound) {
  TempReplayArchive archive;
  EXPECT_EQ(
      error_in_chromium(place_endpoint(), archive.load(), {{"placeId", "no-such-place"}}).code(),
      ErrorCode::NotFound);
}

}  // namespace
}  // namespace gleaner::extract::yelp
