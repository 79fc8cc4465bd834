#include "extract/sites/google/maps/reader.h"

#include <algorithm>

#include "core/error.h"
#include "core/log.h"
#include "extract/page_reader.h"
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
  request.script_args = {
      {"limit", limit.value_or(0)},
      {"settleMs", options_.feed_settle.count()},
      {"budgetMs", std::max<long long>(time_left(page_deadline).count() - 1000, 0)}};
  const extract::PageReading listing =
      extract::read_page(*tab, request, scripts::google_maps_search_js, page_deadline);

  const std::string kind = listing.data.value("kind", std::string());
  if (kind == "place") {  // one answer: the search went straight to its page
    json page = extract::read_loaded_page(*tab, listing.navigation, scripts::google_maps_place_js,
                                          json::object(), page_deadline, kPlaceWorld);
    if (auto row = row_from_place_page(page)) return {std::move(*row)};
    return {};
  }
  std::vector<ListedPlace> listed = places_from_listing(listing.data);
  log::info("maps") << "maps search '" << keyword << "' in '" << location << "': " << listed.size()
                    << " places listed after " << listing.data.value("scrolls", 0) << " scrolls";
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
