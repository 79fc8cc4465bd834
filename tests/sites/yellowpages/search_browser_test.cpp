// GET /scrape/bizdir/search end to end in real Chromium over the Australian directory's whole
// search page of the fixtures, and over the Cloudflare walls yellowpages.com showed scrapers in
// 2025-10 (its "Just a moment..." challenge) and 2026-01 (its block page).
#include <gtest/gtest.h>

#include "gleaner_site_endpoints.h"
#include "tests/support/pages.h"
#include "tests/support/sites/browser_checks.h"
#include "tests/support/sites/site_checks.h"

namespace gleaner::extract::yellowpages {
namespace {

using gleaner::testing::TempReplayArchive;
using testing::error_in_chromium;
using testing::prefix_entry;
using testing::requested;
using testing::run_in_chromium;

TEST(YellowPagesSearchInChromium, PlumbersInCairns) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.yellowpages.com.au/search/listings?",
      gleaner::testing::site_page("yellowpages",
                                  "bizdir/yellowpages-com-au-search-plumber-cairns-2025-04.html")));
  auto replay = archive.load();
  auto result = run_in_chromium(
      search_endpoint(), replay,
      {{"keyword", "plumber"}, {"location", "cairns, QLD"}, {"domain", "www.yellowpages.com.au"}});
  EXPECT_EQ(
      requested(*replay, "https://www.yellowpages.com.au/search").front(),
      "https://www.yellowpages.com.au/search/listings?clue=plumber&locationClue=cairns%2C+QLD");
  EXPECT_EQ(result.body["places"].size(), 35u);
  EXPECT_EQ(result.body["places"][0]["name"], "Alexander Plumbing & Draining");
  EXPECT_EQ(result.body["pagination"]["totalResults"], 97);
}

TEST(YellowPagesSearchInChromium, TheCloudflareWallIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.yellowpages.com/search?",
      gleaner::testing::site_page(
          "yellowpages",
          "blocks/yellowpages-com-cloudflare-sorry-you-have-been-blocked-2026-01.html")));
  EXPECT_EQ(error_in_chromium(search_endpoint(), archive.load(),
                              {{"keyword", "plumber"}, {"location", "Chicago, IL"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

TEST(YellowPagesSearchInChromium, TheCloudflareChallengeIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.add(prefix_entry(
      "https://www.yellowpages.com/search?",
      gleaner::testing::site_page("yellowpages",
                                  "blocks/yellowpages-com-cloudflare-just-a-moment-2025-10.html")));
  EXPECT_EQ(error_in_chromium(search_endpoint(), archive.load(),
                              {{"keyword", "plumber"}, {"location", "Chicago, IL"}})
                .code(),
            ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::yellowpages
