// GET /scrape/google-maps/search (hosted.md #10): a Google Maps search as a person makes it, its
// results feed read by the reader the scraper jobs use (maps_search.js), 20 results a page; a
// search the site answers with one place goes to that place's page, read by maps_place.js, and
// the answer is its placeResults.
#include <memory>
#include <string>

#include "core/error.h"
#include "extract/page_reader.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/google.h"
#include "extract/sites/google/maps/page_rows.h"
#include "extract/sites/google/maps/reader.h"
#include "gleaner_site_endpoints.h"
#include "gleaner_site_scripts.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;

constexpr long long kPerPage = 20;  // hosted.md #10: "20 per page", `start` in steps of 20

class MapsSearchEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "google-maps/search"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"localResults[].title",  "localResults[].placeId", "localResults[].gpsCoordinates",
            "localResults[].rating", "localResults[].type",    "localResults[].address"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p;
      for (Param& s : search_params()) {
        if (s.name() != "location" && s.name() != "uule") p.push_back(std::move(s));
      }
      p.push_back(Param::string("ll").pattern(
          "@-?[0-9]{1,3}(\\.[0-9]+)?,-?[0-9]{1,3}(\\.[0-9]+)?,[0-9]{1,2}(\\.[0-9]+)?z",
          "a map position as @40.7455096,-74.0083012,14z"));
      p.push_back(Param::integer("start").range(0, 500));
      return Parameters(std::move(p), {Rule::requires_with("start", "ll")});
    }();
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    std::string base =
        origin(params) + "/maps/search/" + form_encode(params.string("q").value_or(""));
    if (auto ll = params.string("ll")) base += "/" + *ll;
    UrlBuilder url(base);
    const std::string language = params.string("hl") ? language_tag(*params.string("hl")) : "";
    if (!language.empty()) url.add("hl", language);
    if (auto gl = params.string("gl")) url.add("gl", lower(*gl));
    const maps::MapsOptions options;
    PageRequest request;
    request.url = url.str();
    request.profile = maps::maps_profile(language);
    request.wait = WaitFor::selector_of(maps::kSearchReady, options.render_patience);
    request.script_args = {{"limit", feed_limit(params)}};
    return request;
  }

  EndpointResult fetch(const ValidatedParams& params, TabSource& tabs,
                       Deadline deadline) const override {
    const PageRequest request = build_request(params);
    std::unique_ptr<Tab> tab = tabs.open(request.profile, deadline);
    // The feed is scrolled until it holds the asked page, or grows no more.
    maps::FeedScroll scroll;
    scroll.limit = feed_limit(params);
    scroll.settle = maps::MapsOptions().feed_settle;
    scroll.budget = kScrollBudget;
    const PageReading listing = maps::read_feed(*tab, request, scroll, deadline);
    json body;
    if (listing.data.value("kind", std::string()) == "place") {
      // One answer: the search went straight to its page, which maps_place.js reads.
      const json page = read_loaded_page(*tab, listing.navigation, scripts::google_maps_place_js,
                                         json::object(), deadline, maps::kPlaceWorld);
      if (auto place = maps::place_result(page, "")) body = {{"placeResults", std::move(*place)}};
    } else {
      body = shape(listing.data, params);
    }
    if (!has_content(body)) {
      throw extraction_failed("the page holds none of the data this endpoint reads",
                              "no results feed or place recognised at " + listing.navigation.url);
    }
    return {std::move(body), listing.navigation.url};
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    const long long start = params.integer("start").value_or(0);
    json results = json::array();
    const json& places = output.is_object() ? output.value("places", json::array()) : json();
    for (long long i = start;
         places.is_array() && i < static_cast<long long>(places.size()) && i < start + kPerPage;
         ++i) {
      auto result = maps::local_result(places[static_cast<std::size_t>(i)]);
      if (!result) continue;
      json item = {{"position", i + 1}};
      item.update(*result);
      results.push_back(std::move(item));
    }
    return json{{"localResults", std::move(results)}};
  }

  bool has_content(const json& body) const override {
    if (const auto it = body.find("placeResults"); it != body.end()) return it->is_object();
    return body.contains("localResults") && !body["localResults"].empty();
  }

 private:
  // How long the feed may be scrolled for more results, within the request's own deadline.
  static constexpr Millis kScrollBudget{10'000};
  // The cards the asked page needs: the results before it and its own.
  static long long feed_limit(const ValidatedParams& params) {
    return params.integer("start").value_or(0) + kPerPage;
  }
};

}  // namespace

const Endpoint& maps_search_endpoint() {
  return the_endpoint<MapsSearchEndpoint>();
}

}  // namespace gleaner::extract::google
