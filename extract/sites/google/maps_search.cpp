// GET /scrape/google-maps/search (hosted.md #10): a Google Maps search, 20 results a page. First
// without a renderer, from the site's own search answer (the tbm=map RPC the page's scripts read):
// the search page as served carries it inline, or names it in its head and the answer is fetched
// as the page fetches it. Else (a wall, no search data, fewer results than asked, `start` > 0) as
// a person makes it: its results feed read by the reader the scraper jobs use (maps_search.js); a
// search the site answers with one place goes to that place's page, read by maps_place.js, and
// the answer is its placeResults.
#include <memory>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/log.h"
#include "extract/page_reader.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/google.h"
#include "extract/sites/google/maps/page_rows.h"
#include "extract/sites/google/maps/place.h"
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
    // The search answer holds the first 20 results; how the site asks for the next ones is not
    // seen in any real source (docs/endpoints/google/maps_search.md), so a later page is scrolled.
    if (params.integer("start").value_or(0) == 0) {
      if (auto result = read_search_answer(request, tabs, deadline)) return std::move(*result);
    }
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
    const json& places = output.is_object() ? output.value("places", json::array()) : json();
    return local_results(places.is_array() ? places.size() : 0, start, [&](std::size_t i) {
      return maps::local_result(places[i]);
    });
  }

  bool has_content(const json& body) const override {
    if (const auto it = body.find("placeResults"); it != body.end()) return it->is_object();
    return body.contains("localResults") && !body["localResults"].empty();
  }

 private:
  // The asked page of results, `result(i)` for the i-th listed (from 0), numbered from 1.
  template <typename Result>
  static json local_results(std::size_t listed, long long start, Result result) {
    json results = json::array();
    for (long long i = start; i < static_cast<long long>(listed) && i < start + kPerPage; ++i) {
      std::optional<json> item = result(static_cast<std::size_t>(i));
      if (!item) continue;
      json numbered = {{"position", i + 1}};
      numbered.update(*item);
      results.push_back(std::move(numbered));
    }
    return json{{"localResults", std::move(results)}};
  }

  // The first page read from the site's search answer without a renderer; nullopt (the log says
  // why) when the plain road does not get it: the request then takes the browser road.
  std::optional<EndpointResult> read_search_answer(const PageRequest& request, TabSource& tabs,
                                                   Deadline deadline) const {
    std::unique_ptr<DocumentRoad> road = tabs.plain_road(request.profile, deadline);
    if (!road) return std::nullopt;
    try {
      const Document page = road->get(request.url, DocumentRoad::Load::Navigation,
                                      DocumentRoad::Media::Html, deadline);
      json answer = maps::search_answer_in_page(page.text);
      if (answer.is_null()) {
        const std::string link = maps::search_answer_link(page.text, page.url);
        if (link.empty()) {
          throw NotTheDocument("no search answer in the page nor named by it at " + page.url);
        }
        const Document fetched =
            road->get(link, DocumentRoad::Load::Fetch, DocumentRoad::Media::Json, deadline);
        try {
          answer = maps::parse_maps_body(fetched.text);
        } catch (const Error& e) {
          throw NotTheDocument(std::string(e.detail()) + " at " + fetched.url);
        }
      }
      const std::vector<maps::SearchResult> listed = maps::search_results(answer);
      // Fewer than a page: the answer is not the search answer, or the feed may hold more (a
      // complete feed is told by its end-of-list line, which the browser road reads).
      if (listed.size() < static_cast<std::size_t>(kPerPage)) {
        throw NotTheDocument(std::to_string(listed.size()) + " results in the search answer of " +
                             page.url + ", fewer than a page");
      }
      json body = local_results(listed.size(), 0, [&](std::size_t i) {
        return std::optional<json>(maps::local_result(listed[i]));
      });
      return EndpointResult{std::move(body), page.url, Road::Plain};
    } catch (const NotTheDocument& e) {
      log::info("extract") << path() << ": no search answer on the plain road (" << e.what()
                           << "), taking the browser road";
      return std::nullopt;
    }
  }

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
