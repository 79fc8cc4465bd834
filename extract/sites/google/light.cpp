// GET /scrape/google-light/serp (also /scrape/google/light): Google's basic results page, the one
// it serves a browser without JavaScript, read with fewer blocks than the full page (hosted.md
// #14): organic results with their sitelinks, related searches, the next page.
#include "extract/sites/google/light.h"

#include <string>
#include <tuple>
#include <utility>

#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/google.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

class LightEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "google-light/serp"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"organicResults[].title", "organicResults[].link", "organicResults[].snippet",
            "relatedSearches[].query", "pagination.current"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p = search_params();
      p.push_back(Param::integer("start").range(0, 1000));
      for (Param& g : page_params({"num", "filter", "safe", "tbs", "lr"})) {
        p.push_back(std::move(g));
      }
      return Parameters(std::move(p), {location_rule()});
    }();
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    UrlBuilder url = results_url(params);
    const long long start = params.integer("start").value_or(0);
    if (start > 0) url.add("start", std::to_string(start));
    add_page_params(url, params);
    // Google's own switch to its basic page, which every link of that page carries.
    url.add("gbv", "1");
    PageRequest request;
    request.url = url.str();
    // The page a browser without JavaScript gets: its scripts do not run here either.
    request.profile.run_scripts = false;
    request.wait = WaitFor::load();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_light(output, params.integer("start").value_or(0));
  }

  bool has_content(const json& body) const override {
    if (at(body, {"searchInformation", "noResults"}) == true) return true;
    for (const char* key : {"organicResults", "relatedSearches"}) {
      if (body.contains(key) && !body[key].empty()) return true;
    }
    return false;
  }

  static json shape_light(const json& page, long long start) {
    json body = json::object();
    json organic = json::array();
    for (const json& r : at(page, {"organic"})) {
      json item;
      item["position"] = start + static_cast<long long>(organic.size()) + 1;
      item["title"] = str(at(r, {"title"}));
      item["link"] = str(at(r, {"link"}));
      const std::string displayed = str(at(r, {"displayedLink"}));
      if (!displayed.empty()) {
        item["displayedLink"] = displayed;
        // The page names no site apart from its address: the host the displayed link starts with.
        item["source"] = collapse_whitespace(displayed.substr(0, displayed.find("\u203a")));
      }
      std::string snippet = str(at(r, {"snippet"}));
      std::string date;
      if (auto split = leading_listed_date(snippet)) std::tie(date, snippet) = *split;
      if (!snippet.empty()) item["snippet"] = snippet;
      if (!date.empty()) item["date"] = date;
      json sitelinks = json::array();
      for (const json& s : at(r, {"sitelinks"})) {
        if (!str(at(s, {"title"})).empty())
          sitelinks.push_back({{"title", str(at(s, {"title"}))}, {"link", str(at(s, {"link"}))}});
      }
      if (!sitelinks.empty()) item["sitelinks"] = std::move(sitelinks);
      if (item["title"] != "" && item["link"] != "") organic.push_back(std::move(item));
    }
    body["organicResults"] = std::move(organic);
    json related = json::array();
    for (const json& r : at(page, {"related"})) {
      if (!str(at(r, {"query"})).empty())
        related.push_back({{"query", str(at(r, {"query"}))}, {"link", str(at(r, {"link"}))}});
    }
    body["relatedSearches"] = std::move(related);
    json pagination{{"current", start / 10 + 1}};
    if (!str(at(page, {"nextPage"})).empty()) pagination["next"] = str(at(page, {"nextPage"}));
    body["pagination"] = std::move(pagination);
    // The page says the search found nothing: an answer with no results, as the full page's.
    if (const std::string none = str(at(page, {"noResultsText"}));
        !none.empty() && body["organicResults"].empty()) {
      body["searchInformation"] = {
          {"totalResults", 0}, {"noResults", true}, {"noResultsText", none}};
    }
    return body;
  }
};

}  // namespace

json shape_light(const json& page, long long start) {
  return LightEndpoint::shape_light(page, start);
}

const Endpoint& light_endpoint() {
  return the_endpoint<LightEndpoint>();
}

}  // namespace gleaner::extract::google
