#pragma once
// The maps site read in the browser pool, for the scraper jobs (jobs/maps_source.h).
//
// One search: load the site's search page for "<keyword> in <location>" in a tab, scroll its
// results feed to the end (or the job's limit) and read every result (maps_search.js); then open
// each result's place page in the same tab for what only it shows (address, phone, website, hours;
// maps_place.js). A place page that cannot be read (a network error, a 404, its time budget) leaves
// the row with what the list showed, and says so in the log; a block page fails the search, as
// it would fail every following page too.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/config.h"
#include "extract/endpoint.h"
#include "extract/page_reader.h"
#include "extract/tab.h"

namespace gleaner::extract::google::maps {

struct MapsOptions {
  /// Time budget of one page (load and read). Entry `maps_page_timeout_ms`.
  Millis page_budget{30'000};
  /// The longest wait for the results feed to grow after a scroll (read_feed() ends it sooner
  /// when the page's own requests say nothing more comes). Entry `maps_feed_settle_ms`.
  Millis feed_settle{2'000};
  /// How long a loaded page may take to draw its results or its place (the site's scripts draw
  /// them); a page that never does (a block page) costs this much. Entry
  /// `maps_render_patience_ms`.
  Millis render_patience{15'000};
  /// The site's language (`hl`): the labels the scripts read are English.
  std::string language = "en";

  static MapsOptions from_config(const Config& config);
};

/// What a maps search is opened and read with, for the jobs and /scrape/google-maps/search alike:
/// the site's language (`Accept-Language`, none when empty), and painted (the results feed grows
/// as it is scrolled, which a hidden tab never does).
extract::BrowserProfile maps_profile(const std::string& language);
/// What a place page opened on its own is read with (/scrape/google-maps/place and /reviews): the
/// same, but hidden, for about half the CPU of a painted page. Its panel is drawn, its arrays
/// and the reviews RPC answered, the same unpainted on every real place page of the suites
/// (maps_place_browser_test.cpp). A job reads its place pages in its search's painted tab.
extract::BrowserProfile place_profile(const std::string& language);
/// What tells that a page is ready to be read, with the scripts' selectors: a results feed, or a
/// place's panel (a search with one answer goes straight to it).
inline constexpr const char* kSearchReady =
    "div[role=\"feed\"] div[role=\"article\"], div[role=\"feed\"] div.Nv2PK, "
    "div[role=\"main\"][aria-label] h1";
inline constexpr const char* kPlaceReady = "div[role=\"main\"][aria-label] h1";
/// maps_place.js reads the page's own variables (APP_INITIALIZATION_STATE, ES5DGURL): it runs in
/// the page's world.
inline constexpr extract::World kPlaceWorld = extract::World::Page;

/// How a place page at `url` is opened and read (the jobs, /scrape/google-maps/place and
/// /reviews): the place profile for `language` (a job's tab is already open, painted, for its
/// search), its panel awaited up to `render_patience`, in the page's world.
extract::PageRequest place_page_request(const std::string& url, const std::string& language,
                                        Millis render_patience);

/// How a search's results feed is scrolled for more (read_feed()).
struct FeedScroll {
  /// The cards wanted: the feed is not scrolled once it holds them (0: all it has).
  std::int64_t limit = 0;
  /// The longest wait for the feed to grow after a scroll (MapsOptions::feed_settle).
  Millis settle{2'000};
  /// All the scrolling of one page together.
  Millis budget{10'000};
};

/// Loads the search page of `request` in `tab` and reads it with maps_search.js, its results feed
/// scrolled first until it holds `scroll.limit` cards, shows its end-of-list line, or a scroll
/// brings no card. After each scroll the page's own requests (XHR and fetch: the feed asks the
/// site for its next cards) say how long to wait: when none starts shortly after the scroll, or
/// all that did have ended and the feed did not grow from their answers, nothing more comes;
/// else up to `scroll.settle` (the whole wait on a tab that does not report its requests).
/// The reading's data gets `scrolls`, `stoppedBy` ("limit", "endOfList", "noRequest",
/// "requestsEnded", "settle", "budget") and `complete` (all but "budget"). Throws as read_page().
extract::PageReading read_feed(Tab& tab, extract::PageRequest request, const FeedScroll& scroll,
                               Deadline deadline);

/// The URL a person's search for `keyword` in `location` loads.
std::string search_url(const std::string& keyword, const std::string& location,
                       const std::string& language);

class MapsReader {
 public:
  /// `tabs` must outlive the reader.
  explicit MapsReader(TabSource& tabs, MapsOptions options = {});

  /// The places a search for `keyword` in `location` lists, in order, at most `limit` when
  /// given, each a row (place.h fields). Throws gleaner::Error (UpstreamBlocked, UpstreamError,
  /// Timeout, ...) when the site cannot be read before `deadline`; asks `keep_going()` between
  /// place pages and throws Unavailable once it says no.
  std::vector<nlohmann::json> search(const std::string& keyword, const std::string& location,
                                     std::optional<std::int64_t> limit, Deadline deadline,
                                     const std::function<bool()>& keep_going);

  const MapsOptions& options() const { return options_; }

 private:
  /// The details of the place at `url`, nullopt when its page could not be read.
  std::optional<nlohmann::json> place_details(Tab& tab, const std::string& url, Deadline deadline);

  TabSource& tabs_;
  const MapsOptions options_;
};

}  // namespace gleaner::extract::google::maps
