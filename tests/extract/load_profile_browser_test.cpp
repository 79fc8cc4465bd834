// The load profile of site endpoints in real Chromium: images, media, fonts and tracking hosts are
// never fetched unless an endpoint asks for them, and an endpoint's own blocked hosts are not
// reached (the replay archive logs every request the browser made).
#include <gtest/gtest.h>

#include <algorithm>

#include "extract/pool_tabs.h"
#include "tests/support/chromium.h"
#include "tests/support/replay_archive.h"

namespace gleaner::extract {
namespace {

using gleaner::testing::max_wait;
using gleaner::testing::shared_pool;
using gleaner::testing::TempReplayArchive;

// Written for this test: a page with an image, a font, a tracker script and a site beacon.
const char* kPage =
    "<html><head><style>@font-face{font-family:F;src:url(https://site.test/f.woff2)}"
    "body{font-family:F}</style>"
    "<script src='https://www.google-analytics.com/analytics.js'></script>"
    "<script src='https://beacon.site.test/b.js'></script></head>"
    "<body><p>text</p><img src='https://site.test/a.jpg'></body></html>";

std::vector<std::string> fetched(const BrowserProfile& profile) {
  TempReplayArchive archive;
  archive.page("https://site.test/", kPage);
  auto replay = archive.load();
  PoolTabs tabs(shared_pool(), {replay});
  auto tab = tabs.open(profile, max_wait());
  tab->navigate("https://site.test/", WaitFor::load(), max_wait());
  std::vector<std::string> urls;
  for (const auto& r : replay->requests()) urls.push_back(r.url);
  return urls;
}

bool has(const std::vector<std::string>& urls, const std::string& url) {
  return std::find(urls.begin(), urls.end(), url) != urls.end();
}

TEST(LoadProfile, DataNeedsNoMediaNoFontsNoTrackers) {
  BrowserProfile profile;
  profile.blocked_hosts = {"beacon.site.test"};
  auto urls = fetched(profile);
  EXPECT_TRUE(has(urls, "https://site.test/"));
  EXPECT_FALSE(has(urls, "https://site.test/a.jpg"));
  EXPECT_FALSE(has(urls, "https://site.test/f.woff2"));
  EXPECT_FALSE(has(urls, "https://www.google-analytics.com/analytics.js"));
  EXPECT_FALSE(has(urls, "https://beacon.site.test/b.js"));
}

TEST(LoadProfile, AnEndpointMayAskForMediaAndTrackers) {
  BrowserProfile profile;
  profile.load_media = true;
  profile.load_trackers = true;
  profile.painted = true;
  auto urls = fetched(profile);
  EXPECT_TRUE(has(urls, "https://site.test/a.jpg"));
  EXPECT_TRUE(has(urls, "https://www.google-analytics.com/analytics.js"));
  EXPECT_TRUE(has(urls, "https://beacon.site.test/b.js"));
}

}  // namespace
}  // namespace gleaner::extract

namespace gleaner::extract {
namespace {

TEST(LoadProfile, APageReadFromItsMarkupRunsNoScriptOfItsOwn) {
  for (bool run : {true, false}) {
    TempReplayArchive archive;
    archive.page(
        "https://site.test/",
        "<html><body><p id='p'>server</p>"
        "<script>document.getElementById('p').textContent = 'script';</script></body></html>");
    PoolTabs tabs(shared_pool(), {archive.load()});
    BrowserProfile profile;
    profile.run_scripts = run;
    auto tab = tabs.open(profile, max_wait());
    tab->navigate("https://site.test/", WaitFor::load(), max_wait());
    EXPECT_EQ(
        tab->evaluate("document.getElementById('p').textContent", max_wait(), World::Isolated),
        run ? "script" : "server");
  }
}

}  // namespace
}  // namespace gleaner::extract
