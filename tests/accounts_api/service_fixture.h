#pragma once
// The accounts_api suite's shared service (tests/support/service_under_test.h) and the replay
// archive of news pages every test of the suite uses.
#include "tests/support/replay_archive.h"
#include "tests/support/service_under_test.h"

namespace gleaner::testing {

/// Requests of the archive below, as query strings of GET /scrape/search/news.
namespace news {
/// The fixture feed (92 items): a 200, charged 10 credits.
inline constexpr const char* kFeed = "q=%22Bears%20Ears%22%20monument";
/// An HTML page where the feed should be: 502 upstream_blocked.
inline constexpr const char* kBlocked = "q=blocked";
/// An ordinary HTML page (no wall, no error) where the feed should be: 502 extraction_failed.
inline constexpr const char* kNoFeed = "q=nofeed";
/// HTTP 500 from the site: 502 upstream_error.
inline constexpr const char* kBroken = "q=broken";
/// HTTP 404 from the site: 404 not_found.
inline constexpr const char* kMissing = "q=missing";
/// A feed of one item whose own script breaks document.getElementsByTagName, which news.js starts
/// with: read anyway (our scripts run in a world of their own), a 200.
inline constexpr const char* kTampered = "q=tampered";
/// A page whose load takes about 3 s (a busy script), then an empty feed: a slow 200.
inline constexpr const char* kSlow = "q=slow";
/// A page whose load takes 60 s (a busy script): times out (504) at a short budget. It keeps
/// its renderer busy, so only services that end with the test load it.
inline constexpr const char* kHang = "q=hang";
}  // namespace news

/// Writes the archive for the requests above into `archive`.
void add_news_pages(TempReplayArchive& archive);

/// The suite's shared service (one Chromium for the whole binary), made on first use and shut
/// down after the last test; and its replay archive.
ServiceUnderTest& shared_service();
TempReplayArchive& shared_archive();

}  // namespace gleaner::testing
