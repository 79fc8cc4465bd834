// GET /scrape/yelp/search: one Yelp search results page. search.js reads the business results of
// the page's embedded state (`react_root_props`), or of the markup on a page of the older layout
// drawn on the server; this splits them into ads and organic results and
// shapes them as the hosted service answers, with keys absent where the page leaves them empty.

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/sites/yelp/site.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::yelp {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// A page lists ten results; `start` goes in tens.
constexpr long long kPerPage = 10;

const Parameters& search_parameters() {
  static const Parameters params{
      {Param::string("keyword").required().max_length(1024),
       Param::string("location").required().max_length(1024), Param::string("l").max_length(512),
       Param::integer("start").range(0, 1000).multiple_of(kPerPage).default_value(0),
       domain_parameter()}};
  return params;
}

std::string search_url(const ValidatedParams& p, long long start) {
  UrlBuilder url("https://" + host_of(p) + "/search");
  url.add("find_desc", *p.string("keyword"));
  url.add("find_loc", *p.string("location"));
  if (start > 0) url.add("start", std::to_string(start));
  if (auto l = p.string("l")) url.add("l", *l);
  return url.str();
}

// An ad's link is Yelp's click counter (`/adredir?...&redirect_url=<business page>&signature=`):
// following it counts a click the advertiser pays for, so the answer gives the page it leads to
// (absolute: the page's other click counters lead to paths, `redirect_url=%2Fmtb_composer...`).
std::string business_url(const std::string& base, const std::string& href) {
  const std::string url = absolute_url(base, href);
  static const Regex kAdRedirect(R"(^https?://[^/?#]+/adredir\?(?:[^#]*&)?redirect_url=([^&#]*))");
  RegexMatch m;
  if (kAdRedirect.search(url, m)) return absolute_url(base, form_decode(m[1].str()));
  return url;
}

json categories_of(const std::string& base, const json& item) {
  json out = json::array();
  for (const json& c : at(item, {"categories"})) {
    const std::string title = str(at(c, {"title"}));
    if (title.empty()) continue;
    json one = {{"title", title}};
    if (std::string url = str(at(c, {"url"})); !url.empty()) one["url"] = absolute_url(base, url);
    out.push_back(std::move(one));
  }
  return out;
}

// The keys organic results and ads share: the business, its link, its rating and its photo.
json business_of(const std::string& base, const json& item) {
  json one = json::object();
  // A page of the older layout shown to a signed-in visitor gives no business id.
  if (std::string id = str(at(item, {"bizId"})); !id.empty()) one["placeId"] = id;
  const std::string url = business_url(base, str(at(item, {"businessUrl"})));
  one["url"] = url;
  // The state of 2018 gives no alias: the business page's address has it (/biz/<alias>).
  std::string alias = str(at(item, {"alias"}));
  static const Regex kAlias(R"(^https?://[^/?#]+/biz/([^/?#]+))");
  RegexMatch m;
  if (alias.empty() && kAlias.search(url, m)) alias = form_decode(m[1].str());
  one["placeAlias"] = alias;
  one["title"] = str(at(item, {"name"}));
  one["categories"] = categories_of(base, item);
  if (const json& r = at(item, {"rating"}); r.is_number()) one["rating"] = r;
  if (const json& n = at(item, {"reviewCount"}); n.is_number_integer()) one["reviews"] = n;
  if (std::string photo = str(at(item, {"photo"})); !photo.empty()) one["thumbnail"] = photo;
  return one;
}

json shape_search(const json& output, const ValidatedParams& p) {
  // The state's list, or (a page of the older server-drawn layout) the results of the markup.
  const bool markup = at(output, {"markup"}) == true;
  if (!markup && (at(output, {"hasState"}) != true || at(output, {"hasList"}) != true)) {
    throw extraction_failed("could not find the search results' data on the page",
                            at(output, {"hasState"}) == true
                                ? "react_root_props without searchPageProps' components"
                                : "no react_root_props in script[data-id=\"react-root-props\"]");
  }
  const long long start = p.integer("start").value_or(0);
  const std::string base = "https://" + host_of(p) + "/search";
  json organic = json::array();
  json ads = json::array();
  for (const json& item : at(output, {"items"})) {
    json one = business_of(base, item);
    if (at(item, {"isAd"}) == true) {
      if (std::string phone = str(at(item, {"phone"})); !phone.empty()) one["phone"] = phone;
      json highlights = json::array();
      for (const json& h : at(item, {"highlights"})) {
        if (std::string t = str(h); !t.empty()) highlights.push_back(t);
      }
      one["highlights"] = highlights;
      ads.push_back(std::move(one));
      continue;
    }
    json result = {{"position", start + static_cast<long long>(organic.size()) + 1}};
    result.update(one);
    if (std::string a = str(at(item, {"formattedAddress"})); !a.empty())
      result["streetAddress"] = a;
    if (std::string price = str(at(item, {"priceRange"})); !price.empty()) result["price"] = price;
    // With Yelp's [[HIGHLIGHT]] markers (hosted.md); without the space an excerpt may start with.
    if (std::string s = collapse_whitespace(str(at(item, {"snippet"}))); !s.empty())
      result["snippet"] = s;
    if (std::string all = str(at(item, {"allPhotosHref"})); !all.empty())
      result["allImagesUrl"] = absolute_url(base, all);
    organic.push_back(std::move(result));
  }

  json out = json::object();
  json information = {{"keyword", *p.string("keyword")}, {"location", *p.string("location")}};
  const json& total = at(output, {"totalResults"});
  if (total.is_number_integer()) information["totalResults"] = total;
  out["searchInformation"] = information;
  out["organicResults"] = organic;
  out["ads"] = ads;
  // Ten a page, unless the page says it shows more: its state's count a page (30 on a page of
  // 2018), or "Showing 1-30 of 539" (the older layout, to a visitor who chose 30); a last page's
  // shorter range says nothing of the others.
  long long per_page = kPerPage;
  if (const json& n = at(output, {"perPage"}); n.is_number_integer() && n.get<long long>() > 0)
    per_page = n.get<long long>();
  const json& shown_to = at(output, {"shownTo"});
  const json& shown_from = at(output, {"shownFrom"});
  if (shown_to.is_number_integer() && shown_from.is_number_integer() && total.is_number_integer() &&
      shown_to.get<long long>() < total.get<long long>()) {
    const long long n = shown_to.get<long long>() - shown_from.get<long long>() + 1;
    if (n > kPerPage && n % kPerPage == 0) per_page = n;
  }
  json pagination = {{"currentPage", start / per_page + 1}, {"perPage", per_page}};
  if (total.is_number_integer()) {
    const long long pages = (total.get<long long>() + per_page - 1) / per_page;
    pagination["totalPages"] = pages;
    if (start / per_page + 1 < pages) pagination["nextPageUrl"] = search_url(p, start + per_page);
  }
  out["pagination"] = pagination;
  return out;
}

class SearchEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "yelp/search"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"searchInformation.totalResults",
            "organicResults[].title",
            "organicResults[].rating",
            "organicResults[].reviews",
            "organicResults[].snippet",
            "organicResults[].thumbnail",
            "ads[].title",
            "ads[].rating",
            "ads[].reviews",
            "ads[].thumbnail"};
  }
  const Parameters& parameters() const override { return search_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    PageRequest request;
    request.url = search_url(p, p.integer("start").value_or(0));
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& p) const override {
    return shape_search(output, p);
  }

  // The results are drawn by Yelp's scripts from the state in `react-root-props`: a page that has
  // it is Yelp's, read or not (a wall page has none), and never a wall for showing no text.
  bool data_without_text(const json& output) const override {
    return at(output, {"hasScript"}) == true;
  }

  // Every results page lists businesses, ads or not; a page whose list we read empty is one we do
  // not know (no real page without results was seen).
  bool has_content(const json& body) const override {
    return !at(body, {"organicResults"}).empty() || !at(body, {"ads"}).empty();
  }
};

}  // namespace

const Endpoint& search_endpoint() {
  return the_endpoint<SearchEndpoint>();
}

}  // namespace gleaner::extract::yelp
