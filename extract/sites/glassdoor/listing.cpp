// GET /scrape/careers/listing: one page of a Glassdoor job search. listing.js reads the page's
// Apollo cache (`__NEXT_DATA__` → props.pageProps.apolloCache, ROOT_QUERY `jobListings(...)` →
// JobListingSearchResults) and, on pages of the older layout, the `li.jl` job cards; this shapes
// them. `nextPageToken` is the service's own: the search and its filters with the next page, so a
// token is enough on its own.

#include "core/error.h"
#include "core/regex.h"
#include "core/json_depth.h"
#include "extract/sites/common/clock.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::glassdoor {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// Glassdoor's country sites.
const std::vector<std::string>& domains() {
  static const std::vector<std::string> list = {
      "glassdoor.com",   "glassdoor.co.uk",  "glassdoor.ca",     "glassdoor.com.au",
      "glassdoor.co.in", "glassdoor.de",     "glassdoor.fr",     "glassdoor.ie",
      "glassdoor.nl",    "glassdoor.be",     "glassdoor.at",     "glassdoor.ch",
      "glassdoor.es",    "glassdoor.it",     "glassdoor.com.mx", "glassdoor.com.br",
      "glassdoor.sg",    "glassdoor.com.hk", "glassdoor.co.nz",  "glassdoor.com.ar"};
  return list;
}

// The sites' hosts for a second language of their country, taken as they are.
const std::vector<std::string>& language_hosts() {
  static const std::vector<std::string> list = {"de.glassdoor.ch", "fr.glassdoor.ch",
                                                "fr.glassdoor.be", "nl.glassdoor.be",
                                                "fr.glassdoor.ca"};
  return list;
}

// The search's own parameters: what a token carries and restores.
constexpr const char* kFilters[] = {"keyword",    "location",      "sort",      "domain",
                                    "datePosted", "radius",        "minSalary", "maxSalary",
                                    "minRating",  "easyApplyOnly", "remoteOnly"};

// The token: base64url of {"s": {the search's parameters}, "p": page, "c": the site's cursor}.
std::optional<json> decode_token(const std::string& token) {
  auto bytes = base64url_decode(token);
  if (!bytes) return std::nullopt;
  json t = parse_json_within_depth(*bytes);
  if (!t.is_object() || !t.contains("s") || !t["s"].is_object() || !t.contains("p") ||
      !t["p"].is_number_integer()) {
    return std::nullopt;
  }
  return t;
}

// The request's search: the token's, checked against what is given beside it, or the given one.
json search_of(const ValidatedParams& p) {
  json given = json::object();
  for (const char* name : kFilters) {
    if (p.has(name)) given[name] = p.json()[name];
  }
  auto token = p.string("nextPageToken");
  if (!token) return given;
  json saved = decode_token(*token)->at("s");
  for (const auto& [name, value] : given.items()) {
    if (saved.contains(name) && saved[name] != value) {
      throw conflicting_parameters(name, name + " differs from the search nextPageToken continues");
    }
    if (!saved.contains(name) && name != "sort") {
      throw conflicting_parameters(name,
                                   name + " was not part of the search nextPageToken continues");
    }
    saved[name] = value;
  }
  return saved;
}

void check_request(const ValidatedParams& p) {
  if (auto token = p.string("nextPageToken"); token && !decode_token(*token)) {
    throw invalid_parameter("nextPageToken", "nextPageToken is not a token this service gave");
  }
  const json search = search_of(p);
  if (!search.contains("keyword")) throw missing_parameter("keyword");
  if (!search.contains("location")) throw missing_parameter("location");
  if (search.contains("minSalary") && search.contains("maxSalary") &&
      search["maxSalary"].get<double>() <= search["minSalary"].get<double>()) {
    throw invalid_parameter("maxSalary", "maxSalary must be greater than minSalary");
  }
}

const Parameters& listing_parameters() {
  static const Parameters params{
      {Param::string("keyword").max_length(200), Param::string("location").max_length(200),
       Param::string("sort").one_of({"recent", "relevant"}),
       Param::string("domain").one_of(with_and_without_www(domains(), language_hosts())),
       Param::integer("datePosted").range(1, 365), Param::number("radius").range(0, 200),
       Param::number("minSalary").range(0, std::nullopt),
       Param::number("maxSalary").range(0, std::nullopt), Param::number("minRating").range(0, 5),
       Param::boolean("easyApplyOnly"), Param::boolean("remoteOnly"),
       Param::string("nextPageToken").max_length(2048)},
      {Rule::custom(check_request)}};
  return params;
}

std::string host_of(const json& search) {
  const std::string d = search.value("domain", std::string("glassdoor.com"));
  // A country's bare domain is served on www.; its language hosts (fr.glassdoor.ch) as named.
  return "https://" + (d.starts_with("glassdoor.") ? "www." + d : d);
}

std::string number_text(const json& v) {
  const double d = v.get<double>();
  if (d == static_cast<double>(static_cast<long long>(d)))
    return std::to_string(static_cast<long long>(d));
  std::string s = json(d).dump();
  return s;
}

std::string search_url(const json& search, long long page, const std::string& cursor) {
  UrlBuilder url(host_of(search) + "/Job/jobs.htm");
  url.add("sc.keyword", search["keyword"].get<std::string>());
  url.add("locKeyword", search["location"].get<std::string>());
  url.add("sortBy",
          search.value("sort", std::string("recent")) == "recent" ? "date_desc" : "relevance");
  if (search.contains("datePosted")) url.add("fromAge", number_text(search["datePosted"]));
  if (search.contains("radius")) url.add("radius", number_text(search["radius"]));
  if (search.contains("minSalary")) url.add("minSalary", number_text(search["minSalary"]));
  if (search.contains("maxSalary")) url.add("maxSalary", number_text(search["maxSalary"]));
  if (search.contains("minRating")) url.add("minRating", number_text(search["minRating"]));
  if (search.value("easyApplyOnly", false)) url.add("applicationType", "1");
  if (search.value("remoteOnly", false)) url.add("remoteWorkType", "1");
  if (page > 1) url.add("p", std::to_string(page));
  if (!cursor.empty()) url.add("pageCursor", cursor);
  return url.str();
}

std::string period_of(const std::string& pay_period) {
  const std::string p = lower(pay_period);
  if (p == "annual" || p == "yearly") return "year";
  if (p == "hourly") return "hour";
  if (p == "monthly") return "month";
  if (p == "weekly") return "week";
  if (p == "daily") return "day";
  return "";
}

json job_from_listing(const json& l, const std::string& origin) {
  json job = json::object();
  job["jobId"] = text(at(l, {"listingId"}));
  job["title"] = str(at(l, {"title"}));
  job["link"] = absolute_url(origin + "/", str(at(l, {"link"})));
  json company = {{"name", str(at(l, {"employer"}))}};
  if (const json& r = at(l, {"rating"}); r.is_number() && r.get<double>() > 0)
    company["rating"] = r;
  job["company"] = company;
  job["location"] = str(at(l, {"location"}));
  const json& pay = at(l, {"pay"});
  if (pay.is_object()) {
    json salary = json::object();
    if (const json& lo = at(pay, {"p10"}); lo.is_number()) salary["min"] = lo;
    if (const json& hi = at(pay, {"p90"}); hi.is_number()) salary["max"] = hi;
    if (std::string c = str(at(l, {"payCurrency"})); !c.empty()) salary["currency"] = c;
    if (std::string p = period_of(str(at(l, {"payPeriod"}))); !p.empty()) salary["period"] = p;
    if (!salary.empty()) job["salary"] = salary;
  }
  if (const json& age = at(l, {"ageInDays"}); age.is_number()) job["ageInDays"] = age;
  if (const json& easy = at(l, {"easyApply"}); easy.is_boolean()) job["easyApply"] = easy;
  return job;
}

json job_from_card(const json& c, const std::string& origin) {
  json job = json::object();
  job["jobId"] = str(at(c, {"listingId"}));
  job["title"] = str(at(c, {"title"}));
  job["link"] = absolute_url(origin + "/", str(at(c, {"link"})));
  json company = {{"name", str(at(c, {"employer"}))}};
  if (auto r = parse_number(str(at(c, {"rating"})), DecimalMark::Dot)) company["rating"] = *r;
  job["company"] = company;
  job["location"] = str(at(c, {"location"}));
  if (std::string s = str(at(c, {"salary"})); !s.empty()) {
    json salary = {{"text", s}};
    if (auto m = parse_money(s, DecimalMark::Dot)) {
      salary["min"] = m->min;
      if (m->max) salary["max"] = *m->max;
      if (!m->currency.empty()) salary["currency"] = m->currency;
      if (!m->period.empty()) salary["period"] = m->period;
    }
    job["salary"] = salary;
  }
  // "3 d", "24h", "30d+": the card's age.
  const std::string age = str(at(c, {"age"}));
  static const Regex kAge(R"((\d+)\s*(d|h))");
  RegexMatch m;
  if (kAge.search(age, m)) {
    const long long n = std::stoll(m[1]);
    job["ageInDays"] = m[2] == "h" ? 0 : n;
  }
  job["easyApply"] = at(c, {"easyApply"}) == true;
  return job;
}

class ListingEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "careers/listing"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {
        "searchInformation.totalResults", "jobs[].jobId",    "jobs[].title",  "jobs[].company.name",
        "jobs[].company.rating",          "jobs[].location", "jobs[].salary", "jobs[].ageInDays",
        "pagination.nextPageToken"};
  }
  const Parameters& parameters() const override { return listing_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    const json search = search_of(p);
    long long page = 1;
    std::string cursor;
    if (auto token = p.string("nextPageToken")) {
      const json t = *decode_token(*token);
      page = t["p"].get<long long>();
      cursor = t.value("c", std::string());
    }
    PageRequest request;
    request.url = search_url(search, page, cursor);
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& out, const ValidatedParams& p) const override {
    const json search = search_of(p);
    const std::string origin = host_of(search);
    long long page = 1;
    if (auto token = p.string("nextPageToken"))
      page = decode_token(*token)->at("p").get<long long>();
    json jobs = json::array();
    json info = json::object();
    const json& listings = at(out, {"listings"});
    if (listings.is_array()) {
      for (const json& l : listings) jobs.push_back(job_from_listing(l, origin));
      if (const json& total = at(out, {"total"}); total.is_number()) info["totalResults"] = total;
    } else {
      for (const json& c : at(out, {"cards"})) jobs.push_back(job_from_card(c, origin));
      if (auto n = parse_number(str(at(out, {"count"})), DecimalMark::Dot)) {
        info["totalResults"] = static_cast<long long>(*n);
      }
    }
    // An empty list only where the site's search results say there is nothing.
    if (jobs.empty() && !(listings.is_array() && at(out, {"searchFound"}) == true)) {
      throw extraction_failed("could not find search results on the page",
                              "no job listings and no job cards at " + str(at(out, {"url"})));
    }
    long long position = (page - 1) * 30;
    for (json& j : jobs) j["position"] = ++position;
    json pagination = json::object();
    // The next page: the site's cursor for it where it gives one, else the page number.
    std::string next_cursor;
    bool has_next = false;
    for (const json& c : at(out, {"cursors"})) {
      if (at(c, {"pageNumber"}).is_number() && at(c, {"pageNumber"}).get<long long>() == page + 1) {
        next_cursor = str(at(c, {"cursor"}));
        has_next = true;
      }
    }
    if (!listings.is_array() && info.contains("totalResults")) {
      has_next = info["totalResults"].get<long long>() > page * 30;
    }
    if (has_next && !jobs.empty()) {
      json token = {{"s", search}, {"p", page + 1}};
      if (!next_cursor.empty()) token["c"] = next_cursor;
      pagination["nextPageToken"] = base64url_encode(token.dump());
    }
    return {{"searchInformation", info}, {"jobs", jobs}, {"pagination", pagination}};
  }

  bool has_content(const json& body) const override { return at(body, {"jobs"}).is_array(); }
};

}  // namespace

const Endpoint& listing_endpoint() {
  return the_endpoint<ListingEndpoint>();
}

}  // namespace gleaner::extract::glassdoor
