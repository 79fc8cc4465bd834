// GET /scrape/search/events end to end in Chromium. No real events listing or results page with
// an events block exists among the fixtures (shared/fixtures/README.md), so: a real results page
// without events must give 404 after trying the listing and then the results page (the replay log
// shows both exact URLs); a page written here, shaped only by what events.js relies on (cards that
// link into the listing), shows the script reads cards in a real browser; a captcha page is 502.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "extract/sites/google/events.h"
#include "tests/support/chromium.h"
#include "tests/support/pages.h"
#include "tests/support/replay_archive.h"
#include "tests/support/sites/browser_checks.h"

namespace gleaner::extract::google {
namespace {

using gleaner::testing::TempReplayArchive;

const std::string kGoogleFixture =
    gleaner::testing::site_page("google", "serp/serp-parser_desktop_google.html");

EndpointResult run_events(const std::shared_ptr<browser::ReplayArchive>& archive,
                          const QueryParams& query) {
  return testing::run_in_chromium(events_endpoint(), archive, query);
}

ErrorCode events_error(const std::shared_ptr<browser::ReplayArchive>& archive,
                       const QueryParams& query) {
  try {
    run_events(archive, query);
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "the request succeeded";
  return ErrorCode::Internal;
}

bool requested(const std::shared_ptr<browser::ReplayArchive>& archive, const std::string& url) {
  auto log = archive->requests();
  return std::any_of(log.begin(), log.end(), [&](const auto& r) { return r.url == url; });
}

TEST(EventsInChromium, ResultsPageWithoutEventsIsNotFoundAfterBothPages) {
  TempReplayArchive archive;
  const std::string listing =
      "https://www.google.com/"
      "search?q=google&ibp=htl;events&gl=us&hl=en&start=10&htichips=date:today";
  const std::string results = "https://www.google.com/search?q=google&gl=us&hl=en";
  archive.file(listing, kGoogleFixture).file(results, kGoogleFixture);
  auto replay = archive.load();
  EXPECT_EQ(events_error(replay, {{"q", "google"},
                                  {"gl", "us"},
                                  {"hl", "en"},
                                  {"start", "10"},
                                  {"htichips", "date:today"}}),
            ErrorCode::NotFound);
  ASSERT_FALSE(replay->requests().empty());
  EXPECT_EQ(replay->requests().front().url, listing);
  EXPECT_TRUE(requested(replay, results));
}

TEST(EventsInChromium, ScriptReadsCardsThatOpenTheListing) {
  TempReplayArchive archive;
  // Written for this test (not Google's markup): two cards linking into the events listing.
  archive.page(
      "https://www.google.com/search?q=jazz&ibp=htl;events",
      "<html><body><div id='result-stats'>About 40 results</div><div id='rso'>"
      "<div><a href='/search?q=jazz&ibp=htl;events#htidocid=a1'><div role='heading'>Jazz Night"
      "</div><div>Sat, Apr 22, 8 – 11 PM</div><div>Elephant Room</div>"
      "<div>315 Congress Ave, Austin, TX</div></a></div>"
      "<div><a href='/search?q=jazz&ibp=htl;events#htidocid=b2'><div role='heading'>Blues Jam"
      "</div><div>Sun, Apr 23</div><div>Antone's, 305 E 5th St, Austin, TX</div></a></div>"
      "</div></body></html>");
  auto result = run_events(archive.load(), {{"q", "jazz"}});
  const auto& list = result.body["eventsResults"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["title"], "Jazz Night");
  EXPECT_EQ(list[0]["date"]["when"], "Sat, Apr 22, 8 – 11 PM");
  EXPECT_EQ(list[0]["date"]["startDate"], "Sat, Apr 22");
  EXPECT_EQ(list[0]["address"][1], "315 Congress Ave, Austin, TX");
  EXPECT_EQ(list[0]["link"], "https://www.google.com/search?q=jazz&ibp=htl;events#htidocid=a1");
  EXPECT_EQ(list[1]["title"], "Blues Jam");
  EXPECT_EQ(list[1]["position"], 2);
}

TEST(EventsInChromium, CaptchaIsUpstreamBlocked) {
  TempReplayArchive archive;
  archive.page("https://www.google.com/search?q=jazz&ibp=htl;events",
               "<html><body><form id='captcha-form'><div class='g-recaptcha'></div>"
               "<p>Our systems have detected unusual traffic from your computer network.</p>"
               "</form></body></html>");
  EXPECT_EQ(events_error(archive.load(), {{"q", "jazz"}}), ErrorCode::UpstreamBlocked);
}

}  // namespace
}  // namespace gleaner::extract::google
