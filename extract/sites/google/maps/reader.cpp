#include "extract/sites/google/maps/reader.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "core/error.h"
#include "core/log.h"
#include "extract/page_reader.h"
#include "extract/script_requests.h"
#include "extract/sites/google/maps/page_rows.h"
#include "extract/url.h"
#include "gleaner_site_scripts.h"

namespace gleaner::extract::google::maps {

using nlohmann::json;

extract::BrowserProfile place_profile(const std::string& language) {
  // Read for text (no images, media or fonts, the default), hidden (the default).
  extract::BrowserProfile profile;
  if (!language.empty()) profile.headers["Accept-Language"] = language;
  return profile;
}

extract::BrowserProfile maps_profile(const std::string& language) {
  extract::BrowserProfile profile = place_profile(language);
  profile.painted = true;
  return profile;
}

extract::PageRequest place_page_request(const std::string& url, const std::string& language,
                                        Millis render_patience) {
  extract::PageRequest request;
  request.url = url;
  request.profile = place_profile(language);
  request.wait = extract::WaitFor::selector_of(kPlaceReady, render_patience);
  request.world = kPlaceWorld;
  return request;
}

namespace {

// How soon after a scroll the feed's request for its next cards starts, when it has more: the
// site's scroll handler asks at once; this leaves a loaded renderer time to run it.
constexpr Millis kRequestStart{500};
// How long after the feed's requests all ended it may take to draw the cards they brought.
constexpr Millis kAnswerDrawn{400};
// How often the feed is looked at while it is waited on.
constexpr Millis kLookEvery{100};

struct FeedState {
  std::int64_t cards = 0;
  bool ended = false;
};

FeedState feed_state(const json& step) {
  return {step.value("cards", std::int64_t{0}), step.value("ended", false)};
}

// One step of maps_search.js ("scroll" or "look") on the page the tab shows.
FeedState feed_step(Tab& tab, const char* step, Deadline deadline) {
  const std::string call = "(" + std::string(scripts::google_maps_search_js) + ")(" +
                           json{{"step", step}}.dump() + ")";
  return feed_state(tab.evaluate(call, deadline, extract::World::Isolated));
}

// The page's requests started since `mark` was taken, and how many of those are still in flight.
std::pair<std::int64_t, std::int64_t> requests_since(const extract::ScriptRequests& mark,
                                                     const extract::ScriptRequests& now) {
  const auto open = std::count_if(now.in_flight.begin(), now.in_flight.end(),
                                  [&](std::int64_t n) { return n > mark.started; });
  return {now.started - mark.started, open};
}

// Waits after a scroll until the feed holds more than `before` cards or shows its end (""), or
// until nothing more is coming: the reason, as read_feed() reports it.
std::string wait_for_more(Tab& tab, std::int64_t before, FeedState& state,
                          const std::optional<extract::ScriptRequests>& mark,
                          SteadyClock::time_point scrolled, Deadline settle_until,
                          Deadline scroll_until) {
  // Since when every request since the scroll has ended, and how many had started then (-1: some
  // are in flight, or none started).
  SteadyClock::time_point quiet_since{};
  std::int64_t quiet_started = -1;
  while (state.cards == before && !state.ended) {
    const auto now = SteadyClock::now();
    if (now >= settle_until) return settle_until >= scroll_until ? "budget" : "settle";
    if (mark) {
      if (auto counts = extract::script_requests(tab)) {
        const auto [started, open] = requests_since(*mark, *counts);
        if (started == 0 && now - scrolled >= kRequestStart) return "noRequest";
        if (started > 0 && open == 0) {
          if (quiet_started != started) {
            quiet_since = now;
            quiet_started = started;
          } else if (now - quiet_since >= kAnswerDrawn) {
            return "requestsEnded";
          }
        } else {
          quiet_started = -1;
        }
      }
    }
    std::this_thread::sleep_for(std::min(kLookEvery, std::max(time_left(settle_until), Millis(1))));
    state = feed_step(tab, "look", scroll_until);
  }
  return "";
}

}  // namespace

extract::PageReading read_feed(Tab& tab, extract::PageRequest request, const FeedScroll& scroll,
                               Deadline deadline) {
  const json read_args = {{"limit", scroll.limit}};
  request.script_args = {{"step", "look"}};
  extract::PageReading reading =
      extract::read_page(tab, request, scripts::google_maps_search_js, deadline);
  if (reading.data.value("kind", std::string()) != "feed") return reading;  // a place, or nothing

  const Deadline scroll_until = std::min(deadline, deadline_in(scroll.budget));
  FeedState state = feed_state(reading.data);
  int scrolls = 0;
  std::string stopped;
  while (stopped.empty()) {
    if (state.ended) {
      stopped = "endOfList";
    } else if (scroll.limit > 0 && state.cards >= scroll.limit) {
      stopped = "limit";
    } else if (SteadyClock::now() >= scroll_until) {
      stopped = "budget";
    } else {
      const std::int64_t before = state.cards;
      // The page's requests are counted from the first scroll on.
      const std::optional<extract::ScriptRequests> mark = extract::script_requests(tab);
      state = feed_step(tab, "scroll", scroll_until);
      ++scrolls;
      const auto scrolled = SteadyClock::now();
      stopped = wait_for_more(tab, before, state, mark, scrolled,
                              std::min(scroll_until, deadline_in(scroll.settle)), scroll_until);
    }
  }
  reading.data = extract::read_loaded_page(tab, reading.navigation, scripts::google_maps_search_js,
                                           read_args, deadline, extract::World::Isolated);
  reading.data["scrolls"] = scrolls;
  reading.data["stoppedBy"] = stopped;
  reading.data["complete"] = stopped != "budget";
  return reading;
}

MapsOptions MapsOptions::from_config(const Config& config) {
  MapsOptions o;
  o.page_budget =
      Millis(std::max<long long>(config.get_int("maps_page_timeout_ms", o.page_budget.count()), 1));
  o.feed_settle =
      Millis(std::max<long long>(config.get_int("maps_feed_settle_ms", o.feed_settle.count()), 0));
  o.render_patience = Millis(
      std::max<long long>(config.get_int("maps_render_patience_ms", o.render_patience.count()), 0));
  return o;
}

std::string search_url(const std::string& keyword, const std::string& location,
                       const std::string& language) {
  return "https://www.google.com/maps/search/" + extract::form_encode(keyword + " in " + location) +
         "?hl=" + extract::form_encode(language);
}

MapsReader::MapsReader(TabSource& tabs, MapsOptions options)
    : tabs_(tabs), options_(std::move(options)) {}

std::vector<json> MapsReader::search(const std::string& keyword, const std::string& location,
                                     std::optional<std::int64_t> limit, Deadline deadline,
                                     const std::function<bool()>& keep_going) {
  auto tab = tabs_.open(maps_profile(options_.language), deadline);
  extract::PageRequest request;
  request.url = search_url(keyword, location, options_.language);
  request.profile = maps_profile(options_.language);
  request.wait = extract::WaitFor::selector_of(kSearchReady, options_.render_patience);
  // The feed is scrolled within the search's own budget (the page's, and the whole search's).
  const Deadline page_deadline = std::min(deadline, deadline_in(options_.page_budget));
  FeedScroll scroll;
  scroll.limit = limit.value_or(0);
  scroll.settle = options_.feed_settle;
  scroll.budget = Millis(std::max<long long>(time_left(page_deadline).count() - 1000, 0));
  const extract::PageReading listing = read_feed(*tab, request, scroll, page_deadline);

  const std::string kind = listing.data.value("kind", std::string());
  if (kind == "place") {  // one answer: the search went straight to its page
    json page = extract::read_loaded_page(*tab, listing.navigation, scripts::google_maps_place_js,
                                          json::object(), page_deadline, kPlaceWorld);
    if (auto row = row_from_place_page(page)) return {std::move(*row)};
    return {};
  }
  std::vector<ListedPlace> listed = places_from_listing(listing.data);
  log::info("maps") << "maps search '" << keyword << "' in '" << location << "': " << listed.size()
                    << " places listed after " << listing.data.value("scrolls", 0)
                    << " scrolls (stopped by " << listing.data.value("stoppedBy", std::string())
                    << ")";
  if (limit && static_cast<std::int64_t>(listed.size()) > *limit) {
    listed.resize(static_cast<std::size_t>(*limit));
  }
  std::vector<json> rows;
  std::size_t without_details = 0;
  for (ListedPlace& place : listed) {
    if (!keep_going()) {
      throw Error(ErrorCode::Unavailable, "the search was interrupted",
                  "stopped after " + std::to_string(rows.size()) + " of " +
                      std::to_string(listed.size()) + " place pages");
    }
    std::optional<json> details;
    if (!place.link.empty()) details = place_details(*tab, place.link, deadline);
    if (details) {
      rows.push_back(merge_rows(std::move(place.row), *details));
    } else {
      ++without_details;
      rows.push_back(std::move(place.row));
    }
  }
  if (without_details > 0) {
    log::warn("maps") << "maps search '" << keyword << "' in '" << location
                      << "': " << without_details << " of " << rows.size()
                      << " places keep only what the list shows (their page could not be read)";
  }
  return rows;
}

std::optional<json> MapsReader::place_details(Tab& tab, const std::string& url, Deadline deadline) {
  const extract::PageRequest request =
      place_page_request(url, options_.language, options_.render_patience);
  try {
    const auto reading = extract::read_page(tab, request, scripts::google_maps_place_js,
                                            std::min(deadline, deadline_in(options_.page_budget)));
    return row_from_place_page(reading.data);
  } catch (const Error& e) {
    // A block page is not one place's problem: the next pages would be blocked too.
    if (e.code() == ErrorCode::UpstreamBlocked) throw;
    log::info("maps") << "maps place page " << url << " not read: " << describe(e);
    return std::nullopt;
  }
}

}  // namespace gleaner::extract::google::maps
