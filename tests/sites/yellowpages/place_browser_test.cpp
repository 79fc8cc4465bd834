// GET /scrape/bizdir/place end to end in real Chromium over a document written for the test that
// carries a real LocalBusiness object of yellowpages.com, unchanged, and over the Cloudflare wall
// yellowpages.com showed a scraper in 2026-01.
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::yellowpages {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::run_in_chromium;

const std::string kZy = "https://www.yellowpages.com/san-francisco-ca/mip/z-y-restaurant-4970454";

TEST(YellowPagesPlaceInChromium, ZyRestaurant) {
  TempReplayArchive archive;
  archive.file(kZy, std::string(GLEANER_SOURCE_DIR) +
                        "/tests/sites/yellowpages/data/place/z-y-restaurant-jsonld.html");
  auto result = run_in_chromium(place_endpoint(), archive.load(), {{"url", kZy}});
  EXPECT_EQ(result.body["place"]["name"], "Z &Y Restaurant");
  EXPECT_EQ(result.body["place"]["rating"], 4.5);
}

TEST(YellowPagesPlaceInChromium, ABusinessTheSiteDoesNotHaveIsNotFound) {
  TempReplayArchive archive;
  EXPECT_EQ(error_in_chromium(place_endpoint(), archive.load(), {{"url", kZy}}).code(),
            ErrorCode::NotFound);
}

TEST(YellowPagesPlaceInChromium, TheCloudflareWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.file(kZy,
               gleaner::testing::site_page(
                   "yellowpages",
                   "blocks/yellowpages-com-cloudflare-sorry-you-have-been-blocked-2026-01.html"));
  EXPECT_EQ(error_in_chromium(place_endpoint(), archive.load(), {{"url", kZy}}).code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::yellowpages
