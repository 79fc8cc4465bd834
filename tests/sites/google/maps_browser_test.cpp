// The maps place source in real Chromium: searches answered by a replay archive of the rendered
// fixture pages (tests/sites/google/pages/maps, cocli_*), their in-page scripts, the place page
// visited for details, the feed scrolled for more, block pages.
#include <gtest/gtest.h>

#include <chrono>
#include <utility>
#include <vector>

#include "extract/page_reader.h"
#include "extract/pool_tabs.h"
#include "gleaner_site_scripts.h"
#include "extract/sites/google/maps/reader.h"
#include "extract/sites/google/maps/page_rows.h"
#include "tests/support/sites/maps_pages.h"
#include "tests/support/chromium.h"
#include "tests/support/replay_archive.h"

namespace gleaner::extract::google::maps {
namespace {

using gleaner::testing::max_wait;
using gleaner::testing::TempReplayArchive;
using nlohmann::json;

const std::function<bool()> keep_going = [] { return true; };

MapsOptions quick_settle() {
  MapsOptions options;
  options.feed_settle = Millis(300);       // nothing comes after a scroll of a replayed page
  options.render_patience = Millis(2000);  // replayed pages come drawn, or not at all
  return options;
}

/// A reader whose every tab answers from `archive` (website e-mails are the jobs' own:
/// jobs_service_tests checks them through the whole service).
struct SourceOver {
  explicit SourceOver(std::shared_ptr<browser::ReplayArchive> a,
                      MapsOptions options = quick_settle())
      : archive(std::move(a)),
        tabs(gleaner::testing::shared_pool(), {archive}),
        source(tabs, std::move(options)) {}

  std::shared_ptr<browser::ReplayArchive> archive;
  extract::PoolTabs tabs;
  MapsReader source;
};

TEST(MapsInChromium, SearchReadsTheListAndThePlacePage) {
  TempReplayArchive archive;
  testing::add_maps_pages(archive);
  SourceOver s(archive.load());
  const auto rows =
      s.source.search("griffith", "Los Angeles", std::nullopt, max_wait(), keep_going);

  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows[0]["name"], "Griffith Observatory");
  EXPECT_EQ(rows[1]["name"], "Griffith Park");
  EXPECT_EQ(rows[9]["name"], "Griffith Observatory Foundation");
  // The first result's place page is in the archive: its details complete the row.
  const json& observatory = rows[0];
  EXPECT_EQ(observatory["address"], "2800 E Observatory Rd, Los Angeles, CA 90027");
  EXPECT_EQ(observatory["phone"], "(213) 473-0800");
  EXPECT_EQ(observatory["website"], "https://griffithobservatory.org/");
  EXPECT_EQ(observatory["categories"], json({"Observatory"}));
  EXPECT_DOUBLE_EQ(observatory["rating"].get<double>(), 4.7);
  EXPECT_EQ(observatory["reviewCount"], 17059);
  EXPECT_EQ(observatory["placeId"], "ChIJywjU6WG_woAR3NrWwrEH_3M");
  EXPECT_EQ(observatory["featureId"], "0x80c2bf61e9d408cb:0x73ff07b1c2d6dadc");
  EXPECT_DOUBLE_EQ(observatory["latitude"].get<double>(), 34.1184341);
  EXPECT_DOUBLE_EQ(observatory["longitude"].get<double>(), -118.3003935);
  ASSERT_EQ(observatory["openingHours"].size(), 7u);
  EXPECT_EQ(observatory["openingHours"][0], json({{"day", "Thursday"}, {"hours", {"12–10 PM"}}}));
  EXPECT_EQ(observatory["openingHours"][4], json({{"day", "Monday"}, {"hours", {"Closed"}}}));
  EXPECT_EQ(observatory["mapsUrl"],
            "https://www.google.com/maps/search/?api=1&query=Griffith%20Observatory"
            "&query_place_id=ChIJywjU6WG_woAR3NrWwrEH_3M");
  // The others' place pages are not in the archive (404): what the list shows stays.
  const json& trails = rows[2];
  EXPECT_EQ(trails["name"], "Griffith Park Trails");
  EXPECT_EQ(trails["categories"], json({"Tourist attraction"}));
  EXPECT_EQ(trails["address"], "2715 N Vermont Canyon Rd");
  EXPECT_DOUBLE_EQ(trails["rating"].get<double>(), 4.8);
  EXPECT_FALSE(trails.contains("phone"));
  EXPECT_FALSE(rows[1].contains("address"));  // Griffith Park's line has no address
  EXPECT_EQ(rows[4]["categories"], json({"Bus stop"}));
  EXPECT_NE(rows[4]["placeId"], rows[0]["placeId"]);  // two places of the same name

  // The search page, then each place page, in the list's order.
  std::vector<std::string> pages;
  for (const auto& r : s.archive->requests()) {
    if (r.url.starts_with("https://www.google.com/maps/search/") ||
        r.url.starts_with("https://www.google.com/maps/place/")) {
      pages.push_back(r.url);
    }
  }
  ASSERT_EQ(pages.size(), 11u);
  EXPECT_EQ(pages[0], "https://www.google.com/maps/search/griffith+in+Los+Angeles?hl=en");
  EXPECT_TRUE(pages[1].starts_with(
      "https://www.google.com/maps/place/Griffith+Observatory/data=!4m7!3m6!1s0x80c2bf61e9d408cb"));
}

TEST(MapsInChromium, ListOnlyFieldsOfAnotherSearch) {
  TempReplayArchive archive;
  testing::add_maps_pages(archive);
  SourceOver s(archive.load());
  const auto rows = s.source.search("museums", "New York", 3, max_wait(), keep_going);
  ASSERT_EQ(rows.size(), 3u);  // the limit
  const json& met = rows[0];
  EXPECT_EQ(met["name"], "The Metropolitan Museum of Art");
  EXPECT_EQ(met["categories"], json({"Art museum"}));
  EXPECT_EQ(met["address"], "1000 5th Ave");
  EXPECT_DOUBLE_EQ(met["rating"].get<double>(), 4.8);
  EXPECT_EQ(met["reviewCount"], 91790);
  EXPECT_EQ(met["placeId"], "ChIJb8Jg9pZYwokR-qHGtvSkLzs");
  EXPECT_DOUBLE_EQ(met["latitude"].get<double>(), 40.7794366);
  EXPECT_DOUBLE_EQ(met["longitude"].get<double>(), -73.963244);
  EXPECT_EQ(rows[1]["name"], "Solomon R. Guggenheim Museum");
  EXPECT_EQ(rows[2]["name"], "American Museum of Natural History");
}

TEST(MapsInChromium, ScriptsReadWhatTheRecordingsHold) {
  // The unit tests shape these recordings (maps_rows_test.cpp): they must be what Chromium reads.
  TempReplayArchive archive;
  testing::add_maps_pages(archive);
  auto replay = archive.load();
  extract::PoolTabs tabs(gleaner::testing::shared_pool(), {replay});
  auto tab = tabs.open({}, max_wait());
  extract::PageRequest list;
  list.url = search_url("museums", "New York", "en");
  list.wait = extract::WaitFor::load();
  list.script_args = {{"limit", 0}};
  auto listing = extract::read_page(*tab, list, scripts::google_maps_search_js, max_wait());
  EXPECT_EQ(listing.data, testing::recorded("maps_search_museums_script_output.json"));

  extract::PageRequest place;
  place.url = testing::kObservatoryPlaceUrl;
  place.wait = extract::WaitFor::load();
  auto page = extract::read_page(*tab, place, scripts::google_maps_place_js, max_wait());
  EXPECT_EQ(page.data, testing::recorded("maps_place_griffith_observatory_script_output.json"));
}

// A real feed that is complete (a de search of 2026-03 with one card, arbitrum1984/Arbitron_Systems):
// it ends with the site's end-of-list line, so the reader neither scrolls nor waits for more, for
// the jobs as for /scrape/google-maps/search. Before that line was read it scrolled once and waited
// the whole settle time for cards that never come.
TEST(MapsInChromium, AFeedThatShowsItsEndIsNotScrolledNorWaitedOn) {
  TempReplayArchive archive;
  const std::string url = search_url("pizza", "Arlington", "de");
  archive.file(url, gleaner::testing::site_page(
                        "google", "google-maps-search/"
                                  "arbitron_search-dom_dominos-2800-s-joyce-st-arlington-end-of-"
                                  "list_de_2026-03.html"));
  extract::PoolTabs tabs(gleaner::testing::shared_pool(), {archive.load()});
  auto tab = tabs.open(maps_profile("de"), max_wait());
  extract::PageRequest list;
  list.url = url;
  list.wait = extract::WaitFor::load();
  // A settle time the answer must not take: only the end-of-list line can end the read sooner.
  const auto started = std::chrono::steady_clock::now();
  const auto listing = read_feed(*tab, list, {20, Millis(25'000), Millis(25'000)}, max_wait());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
  EXPECT_EQ(listing.data.value("scrolls", -1), 0);
  EXPECT_EQ(listing.data.value("stoppedBy", ""), "endOfList");
  EXPECT_EQ(listing.data.value("endOfList", false), true);
  EXPECT_EQ(listing.data.value("complete", false), true);
  ASSERT_EQ(listing.data.at("places").size(), 1u);
  EXPECT_EQ(listing.data.at("places").at(0).value("name", ""), "2800 S Joyce St");
}

// The real feeds that hold only their first cards (fr-MA 2025-08 twice, en-IN 2025-07, en
// 2026-03 twice), each with its loading block at the end. Replayed, their pages ask for nothing
// when the feed is scrolled (the site's scripts are not in the archive; its log has no request
// after the scroll), so nothing more can come: the reader scrolls once and stops when no request
// starts, instead of waiting its settle time (25 s here) for cards, as it did before.
TEST(MapsInChromium, ARealFeedWhoseScrollAsksForNothingIsNotWaitedOn) {
  const std::vector<std::pair<std::string, std::size_t>> feeds = {
      {"google-maps-search/n8nscraper_search-dom_concepteur-sites-web-fes_frMA_2025-08.html", 8},
      {"google-maps-search/n8nscraper_search-dom_concepteur-sites-web-fes_frMA_2025-08_second-"
       "capture.html",
       7},
      {"google-maps-search/scraperdemo_search-dom_hospitals-in-delhi_enIN_2025-07.html", 8},
      {"maps/cocli_search-dom_griffith_en_2026-03.html", 10},
      {"maps/cocli_search-dom_metropolitan-museum_en_2026-03.html", 0}};
  for (const auto& [page, cards] : feeds) {
    SCOPED_TRACE(page);
    TempReplayArchive archive;
    const std::string url = search_url("feed", "Anywhere", "en");
    archive.file(url, gleaner::testing::site_page("google", page));
    auto replay = archive.load();
    extract::PoolTabs tabs(gleaner::testing::shared_pool(), {replay});
    auto tab = tabs.open(maps_profile("en"), max_wait());
    extract::PageRequest list;
    list.url = url;
    list.wait = extract::WaitFor::selector_of(kSearchReady, Millis(5000));
    const auto listing = read_feed(*tab, list, {20, Millis(25'000), Millis(60'000)}, max_wait());
    EXPECT_EQ(listing.data.value("scrolls", -1), 1);
    EXPECT_EQ(listing.data.value("stoppedBy", ""), "noRequest");
    EXPECT_EQ(listing.data.value("complete", false), true);
    EXPECT_FALSE(listing.data.contains("endOfList"));
    if (cards > 0) EXPECT_EQ(listing.data.at("places").size(), cards);
    EXPECT_FALSE(listing.data.at("places").empty());
  }
}

// A page of our own making, not the site's: a feed that grows by five articles each time it is
// scrolled to its end, up to 23. It checks the mechanism (scroll, wait, stop at the limit or when
// nothing more comes) that a live results list needs; the fixtures have no continuation.
std::string growing_feed_page() {
  return R"(<!doctype html><html><head><title>Results</title></head><body>
<div role="main"><div role="feed" aria-label="Results" id="feed" style="height:300px;overflow-y:auto">
</div></div><script>
const feed = document.getElementById('feed');
let n = 0;
function more() {
  for (let i = 0; i < 5 && n < 23; ++i, ++n) {
    const a = document.createElement('div');
    a.setAttribute('role', 'article');
    a.setAttribute('aria-label', 'Place ' + n);
    a.style.height = '120px';
    a.innerHTML = '<a href="https://www.google.com/maps/place/Place+' + n + '/data=!4m7!3m6!1s0x1:0x' +
        n + '!8m2!3d1.5!4d2.5!19sID' + n + '?hl=en" aria-label="Place ' + n + '"></a>' +
        '<div class="W4Efsd"><span><span>Cafe</span></span><span> <span aria-hidden="true">·</span> ' +
        '<span>' + n + ' Main St</span></span></div>';
    feed.appendChild(a);
  }
}
more();
feed.addEventListener('scroll', () => {
  if (feed.scrollTop + feed.clientHeight >= feed.scrollHeight - 5) setTimeout(more, 150);
});
</script></body></html>)";
}

TEST(MapsInChromium, ScrollsTheFeedToItsEndOrTheLimit) {
  TempReplayArchive archive;
  archive.page(search_url("cafes", "Testville", "en"), growing_feed_page());
  auto replay = archive.load();
  {
    SourceOver s(replay);
    const auto all = s.source.search("cafes", "Testville", std::nullopt, max_wait(), keep_going);
    ASSERT_EQ(all.size(), 23u);
    EXPECT_EQ(all[22]["name"], "Place 22");
    EXPECT_EQ(all[22]["address"], "22 Main St");
    EXPECT_EQ(all[22]["placeId"], "ID22");
  }
  {
    SourceOver s(replay);
    const auto some = s.source.search("cafes", "Testville", 12, max_wait(), keep_going);
    ASSERT_EQ(some.size(), 12u);
    EXPECT_EQ(some[11]["name"], "Place 11");
  }
}

// The same feed of our own, grown by the answers of its own requests as the site's is: each scroll
// to its end asks the site for more (fetch), and the answer's cards are added; past 23 the
// answer adds none. The reader scrolls while the answers bring cards and stops once one has
// brought none, long before its settle time: it waits on the page's requests, not the clock.
TEST(MapsInChromium, AScrollWhoseAnswerBringsNothingEndsTheWait) {
  std::string page = growing_feed_page();
  const std::string timer = "setTimeout(more, 150)";
  page.replace(page.find(timer), timer.size(),
               "fetch('/maps/feed-more?from=' + n).then((r) => r.json()).then(more)");
  TempReplayArchive archive;
  archive.page(search_url("cafes", "Fetchville", "en"), page);
  TempReplayArchive::Entry more;
  more.match = "prefix";
  more.url = "https://www.google.com/maps/feed-more";
  more.body = "{}";
  more.file_name = "more.json";
  archive.add(more);
  auto replay = archive.load();
  extract::PoolTabs tabs(gleaner::testing::shared_pool(), {replay});
  auto tab = tabs.open(maps_profile("en"), max_wait());
  extract::PageRequest list;
  list.url = search_url("cafes", "Fetchville", "en");
  list.wait = extract::WaitFor::load();
  const auto listing = read_feed(*tab, list, {0, Millis(25'000), Millis(60'000)}, max_wait());
  EXPECT_EQ(listing.data.at("places").size(), 23u);
  // 5 cards at first, 4 scrolls that each bring more, and the one whose answer brings none.
  EXPECT_EQ(listing.data.value("scrolls", -1), 5);
  EXPECT_EQ(listing.data.value("stoppedBy", ""), "requestsEnded");
  EXPECT_EQ(listing.data.value("complete", false), true);
  std::size_t asked = 0;
  for (const auto& r : replay->requests()) asked += r.url.find("/maps/feed-more") != std::string::npos;
  EXPECT_EQ(asked, 5u);
}

TEST(MapsInChromium, BlockPageFailsTheSearch) {
  TempReplayArchive archive;
  archive.page(search_url("coffee", "Athens", "en"),
               "<html><head><title>Before you continue to Google Maps</title></head><body>"
               "<form action='https://consent.google.com/save'><p>We use cookies and data to "
               "deliver and maintain Google services</p><button>Accept all</button></form>"
               "</body></html>");
  SourceOver s(archive.load());
  try {
    s.source.search("coffee", "Athens", std::nullopt, max_wait(), keep_going);
    ADD_FAILURE() << "a consent page was read as results";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UpstreamBlocked);
  }
}

}  // namespace
}  // namespace gleaner::extract::google::maps
