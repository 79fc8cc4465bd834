// GET /scrape/bizdir/search: one page of a Yellow Pages search, on yellowpages.com or the
// Australian directory yellowpages.com.au. search.js reads every listing's JSON-LD, the
// Australian directory's listing views, and the result blocks' markup (ads and years in business
// are only there); this shapes them in page order.

#include "core/error.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/sites/yellowpages/directory.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::yellowpages {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr const char* kUs = "www.yellowpages.com";
constexpr const char* kAu = "www.yellowpages.com.au";

std::string domain_of(const ValidatedParams& p) {
  std::string d = p.string("domain").value_or(kUs);
  if (!d.starts_with("www.")) d = "www." + d;
  return d;
}

void check_request(const ValidatedParams& p) {
  // The Australian directory's results page has one order (relevance) reachable by URL.
  if (domain_of(p) == kAu && p.string("sort").value_or("default") != "default") {
    throw invalid_parameter("sort", "yellowpages.com.au lists results in one order: sort=default");
  }
}

const Parameters& search_parameters() {
  static const Parameters params{
      {Param::string("keyword").required().max_length(200),
       Param::string("location").required().max_length(200),
       Param::string("sort")
           .one_of({"default", "distance", "averageRating", "name"})
           .default_value("default"),
       Param::string("domain")
           .one_of({"yellowpages.com", "www.yellowpages.com", "yellowpages.com.au",
                    "www.yellowpages.com.au"})
           .unserved({"www.yellowpages.ca", "yellowpages.ca"},
                     "yellowpages.ca is Yellow Pages Canada, another directory with pages of its "
                     "own; this endpoint reads yellowpages.com and yellowpages.com.au"),
       Param::integer("page").range(1, 100).default_value(1)},
      {Rule::custom(check_request)}};
  return params;
}

class SearchEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "bizdir/search"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"places[].name",    "places[].link",         "places[].phone",
            "places[].address", "places[].categories",   "places[].rating",
            "places[].website", "places[].openingHours", "pagination.totalResults"};
  }
  const Parameters& parameters() const override { return search_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    const std::string domain = domain_of(p);
    const long long page = p.integer("page").value_or(1);
    PageRequest request;
    if (domain == kAu) {
      UrlBuilder url("https://www.yellowpages.com.au/search/listings");
      url.add("clue", *p.string("keyword")).add("locationClue", *p.string("location"));
      if (page > 1) url.add("pageNumber", std::to_string(page));
      request.url = url.str();
    } else {
      UrlBuilder url("https://www.yellowpages.com/search");
      url.add("search_terms", *p.string("keyword"))
          .add("geo_location_terms", *p.string("location"));
      if (page > 1) url.add("page", std::to_string(page));
      const std::string sort = p.string("sort").value_or("default");
      if (sort == "distance") url.add("s", "distance");
      if (sort == "averageRating") url.add("s", "average_rating");
      if (sort == "name") url.add("s", "name");
      request.url = url.str();
    }
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& out, const ValidatedParams& p) const override {
    const long long page = p.integer("page").value_or(1);
    const std::string origin = "https://" + domain_of(p);
    json places = json::array();
    json pagination = {{"currentPage", page}};
    const json& au = at(out, {"au"});
    if (au.is_object() && at(au, {"results"}).is_array()) {
      for (const json& v : at(au, {"results"})) {
        json b = business_from_au_view(v);
        b["isAd"] = at(v, {"isTopOfList"}) == true;
        places.push_back(b);
      }
      if (const json& total = at(au, {"pagination", "totalResults"}); total.is_number()) {
        pagination["totalResults"] = total;
      }
      if (at(au, {"pagination", "nextPageLink"}).is_string()) pagination["nextPage"] = page + 1;
    } else {
      const json& nodes = at(out, {"jsonLd"});
      const json& blocks = at(out, {"results"});
      for (const json& node : nodes) {
        json b = business_from_json_ld(node, nodes, origin);
        b["isAd"] = false;
        // The result block of the same business: the ad label and years in business.
        for (const json& r : blocks) {
          if (str(at(r, {"link"})) == str(at(b, {"link"})) ||
              str(at(r, {"name"})) == str(at(b, {"name"}))) {
            b["isAd"] = at(r, {"isAd"}) == true;
            if (auto years = parse_number(str(at(r, {"years"})), DecimalMark::Dot)) {
              b["yearsInBusiness"] = static_cast<long long>(*years);
            }
            if (b["categories"].empty() && at(r, {"categories"}).is_array())
              b["categories"] = at(r, {"categories"});
            break;
          }
        }
        places.push_back(b);
      }
      if (auto n = parse_number(str(at(out, {"count"})), DecimalMark::Dot)) {
        pagination["totalResults"] = static_cast<long long>(*n);
      }
      if (places.size() >= 30) pagination["nextPage"] = page + 1;
    }
    long long position = 0;
    for (json& b : places) b["position"] = ++position;
    if (places.empty()) {
      const bool none = pagination.contains("totalResults") && pagination["totalResults"] == 0;
      if (!none) {
        throw extraction_failed("could not find search results on the page",
                                "no listings at " + str(at(out, {"url"})));
      }
    }
    return {{"places", places}, {"pagination", pagination}};
  }

  bool has_content(const json& body) const override { return at(body, {"places"}).is_array(); }
};

}  // namespace

const Endpoint& search_endpoint() {
  return the_endpoint<SearchEndpoint>();
}

}  // namespace gleaner::extract::yellowpages
