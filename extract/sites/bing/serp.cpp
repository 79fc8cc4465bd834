// GET /scrape/bing/serp: one Bing web results page. serp.js reads the organic results, ads,
// related searches and pager; this shapes them as the hosted service answers (keys absent when
// Bing does not show the block).

#include <cmath>
#include <optional>
#include <tuple>
#include <utility>

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/common/clock.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::bing {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

const Parameters& serp_parameters() {
  static const Parameters params{
      {Param::string("q").required().max_length(1024), Param::string("location").max_length(256),
       Param::string("lat").pattern("-?[0-9]{1,2}(\\.[0-9]+)?", "a latitude in degrees"),
       Param::string("lon").pattern("-?[0-9]{1,3}(\\.[0-9]+)?", "a longitude in degrees"),
       Param::string("mkt").one_of({"es-ar", "en-au", "de-at", "nl-be", "fr-be", "pt-br", "en-ca",
                                    "fr-ca", "es-cl", "da-dk", "fi-fi", "fr-fr", "de-de", "zh-hk",
                                    "en-in", "en-id", "it-it", "ja-jp", "ko-kr", "en-my", "es-mx",
                                    "nl-nl", "en-nz", "no-no", "zh-cn", "pl-pl", "en-ph", "ru-ru",
                                    "en-za", "es-es", "sv-se", "fr-ch", "de-ch", "zh-tw", "tr-tr",
                                    "en-gb", "en-us", "es-us"}),
       Param::string("cc").one_of({"ar", "au", "at", "be", "br", "ca", "cl", "dk", "fi",
                                   "fr", "de", "hk", "in", "id", "it", "jp", "kr", "my",
                                   "mx", "nl", "nz", "no", "cn", "pl", "pt", "ph", "ru",
                                   "sa", "za", "es", "se", "ch", "tw", "tr", "gb", "us"}),
       Param::string("safe").one_of({"off", "moderate", "strict"}),
       Param::string("safeSearch").one_of({"off", "moderate", "strict"}),
       Param::string("setLang").pattern("[A-Za-z]{2,3}([-_][A-Za-z]{2,4})?",
                                        "a language code (en, pt-br, zh-hant)"),
       Param::string("filters").max_length(512),
       Param::integer("first").range(1, 1000).default_value(1),
       Param::integer("count").range(1, 50),
       Param::string("deviceType").one_of({"desktop", "mobile", "tablet"})},
      {Rule::exclusive({"safe", "safeSearch"})}};
  return params;
}

std::string host_of(const std::string& url) {
  static const Regex kHost(R"(^[a-zA-Z][a-zA-Z0-9+.-]*://([^/?#:]+))");
  RegexMatch m;
  if (!kHost.search(url, m)) return {};
  std::string host = lower(m[1].str());
  if (host.starts_with("www.")) host = host.substr(4);
  return host;
}

// Bing's pages since about 2023 link a result through its own redirect,
// `https://www.bing.com/ck/a?!&&p=…&u=a1<the address in base64url>&ntb=1`: the result's link is
// the address inside. Any other link is kept as the page writes it.
std::string result_address(const std::string& link) {
  if (host_of(link) != "bing.com" || link.find("/ck/a?") == std::string::npos) return link;
  const std::string query = link.substr(link.find('?') + 1);
  for (std::size_t start = 0; start < query.size();) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string_view pair(query.data() + start, end - start);
    if (pair.starts_with("u=a1")) {
      if (auto decoded = base64url_decode(form_decode(pair.substr(4)));
          decoded && (decoded->starts_with("http://") || decoded->starts_with("https://"))) {
        return *decoded;
      }
    }
    start = end + 1;
  }
  return link;
}

std::optional<long long> total_results(const std::string& count_line) {
  std::optional<long long> total;
  for (double n : parse_numbers(count_line)) {
    if (n >= 0 && n < 1e18 && (!total || n > *total)) total = std::llround(n);
  }
  return total;
}

json shape_serp(const json& output, const ValidatedParams& params) {
  if (at(output, {"hasResults"}) != true) {
    throw extraction_failed("could not find the results list on the page", "no #b_results");
  }
  json out = json::object();
  json organic = json::array();
  const long long first = params.integer("first").value_or(1);
  for (const json& r : at(output, {"organic"})) {
    const std::string title = str(at(r, {"title"}));
    const std::string link = result_address(str(at(r, {"link"})));
    if (title.empty() || link.empty()) continue;
    json one = {{"position", first + static_cast<long long>(organic.size())},
                {"title", title},
                {"link", link}};
    if (std::string d = str(at(r, {"displayedLink"})); !d.empty()) one["displayedLink"] = d;
    one["source"] = host_of(link);
    std::string snippet = str(at(r, {"snippet"}));
    std::string date = str(at(r, {"date"}));
    if (date.empty()) {
      if (auto split = leading_listed_date(snippet)) std::tie(date, snippet) = *split;
    }
    if (!snippet.empty()) one["snippet"] = snippet;
    if (!date.empty()) one["date"] = date;
    organic.push_back(std::move(one));
  }
  out["organicResults"] = organic;

  json ads = json::array();
  for (const json& a : at(output, {"ads"})) {
    json one = {{"position", static_cast<long long>(ads.size()) + 1},
                {"blockPosition", str(at(a, {"blockPosition"}))},
                {"title", str(at(a, {"title"}))},
                {"link", str(at(a, {"link"}))}};
    const std::string displayed = str(at(a, {"displayedLink"}));
    if (!displayed.empty()) {
      one["displayedLink"] = displayed;
      one["source"] =
          host_of(displayed.find("://") == std::string::npos ? "https://" + displayed : displayed);
    }
    if (std::string d = str(at(a, {"description"})); !d.empty()) one["description"] = d;
    if (const json& s = at(a, {"sitelinks"}); s.is_array() && !s.empty()) one["sitelinks"] = s;
    ads.push_back(std::move(one));
  }
  if (!ads.empty()) out["ads"] = ads;

  json related = json::array();
  for (const json& r : at(output, {"related"})) {
    const std::string q = str(at(r, {"query"}));
    if (!q.empty()) related.push_back({{"query", q}, {"link", str(at(r, {"link"}))}});
  }
  if (!related.empty()) out["relatedSearches"] = related;

  json pagination = json::object();
  json others = json::object();
  for (const json& p : at(output, {"pages"})) {
    const std::string label = str(at(p, {"label"}));
    const std::string link = str(at(p, {"link"}));
    if (!link.empty() && parse_count(label)) others[label] = link;
  }
  // The pager's own number for this page: Bing's pages after the first start where the one
  // before ended (first=7 after six results is page 2), so `first` alone does not give it.
  const auto shown = parse_count(str(at(output, {"current"})));
  pagination["currentPage"] = shown ? *shown : (first - 1) / 10 + 1;
  if (std::string next = str(at(output, {"next"})); !next.empty()) pagination["next"] = next;
  if (!others.empty()) pagination["otherPages"] = others;
  out["pagination"] = pagination;
  // "77.100.000 results" (a Spanish-market page in English), "1’100’000 results" (Swiss), "About
  // 1,230,000 results"; after the first page "7-16 of 3 600 000 results": the total is the
  // largest number of the line, wherever the language puts it.
  if (auto total = total_results(str(at(output, {"count"})))) {
    out["searchInformation"] = {{"totalResults", *total}};
  }
  // "There are no results for …": the search found nothing, which is an answer, not a failure.
  if (at(output, {"noResults"}) == true && organic.empty()) {
    out["searchInformation"] = {{"totalResults", 0}};
  }
  return out;
}

class SerpEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "bing/serp"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"organicResults[].title",         "organicResults[].link", "organicResults[].snippet",
            "organicResults[].displayedLink", "relatedSearches",       "pagination"};
  }
  const Parameters& parameters() const override { return serp_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    UrlBuilder url("https://www.bing.com/search");
    url.add("q", *p.string("q"));
    if (auto first = p.integer("first"); first && *first > 1) {
      url.add("first", std::to_string(*first));
    }
    if (auto count = p.integer("count")) url.add("count", std::to_string(*count));
    if (auto mkt = p.string("mkt")) url.add("mkt", *mkt);
    if (auto cc = p.string("cc")) url.add("cc", *cc);
    if (auto lang = p.string("setLang")) url.add("setlang", *lang);
    const auto safe = p.string("safe") ? p.string("safe") : p.string("safeSearch");
    if (safe) url.add("adlt", *safe);
    if (auto filters = p.string("filters")) url.add("filters", *filters);
    PageRequest request;
    request.url = url.str();
    const std::string device = p.string("deviceType").value_or("desktop");
    if (device == "mobile") request.profile.device = BrowserProfile::Device::Mobile;
    if (device == "tablet") request.profile.device = BrowserProfile::Device::Tablet;
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_serp(output, params);
  }

  bool has_content(const json& body) const override {
    return !at(body, {"organicResults"}).empty() ||
           at(body, {"searchInformation", "totalResults"}) == 0;
  }
};

}  // namespace

const Endpoint& serp_endpoint() {
  return the_endpoint<SerpEndpoint>();
}

}  // namespace gleaner::extract::bing
