// GET /scrape/stays/search: one page (25 results) of a Booking.com search. search.js reads the
// property cards (`[data-testid="property-card"]`) and the results heading; this shapes them. The
// stay's parameters are those of extract/sites/booking/stay.h.

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/booking/stay.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::booking {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr int kPerPage = 25;

// The filter arrays and the `nflt` key each one's values go under. Values are the site's own
// filter ids, as its filter panel writes them into the URL (ht_id=204 for hotels, class=4 for
// four stars, review_score=80 for "Very good: 8+", mealplan=1 for breakfast included...).
struct FilterGroup {
  const char* param;
  const char* key;
};
constexpr FilterGroup kFilters[] = {
    {"propertyType", "ht_id"},
    {"rating", "class"},
    {"reviewScore", "review_score"},
    {"distanceFromCenter", "distance"},
    {"propertyAccessibility", "accessible_facilities"},
    {"meals", "mealplan"},
    {"facilities", "hotelfacility"},
    {"roomFacilities", "roomfacility"},
    {"roomAccessibility", "accessible_room_facilities"},
    {"bedPreference", "tdb"},
    {"reservationPolicy", "fc"},
    {"travelGroup", "travelling_with"},
    {"onlinePayment", "pmt"},
};

// The sort menu, as this API names it, and the site's `order` value.
constexpr std::pair<const char*, const char*> kSorts[] = {
    {"topPicks", "popularity"},
    {"homesAndApartmentsFirst", "upsort_bh"},
    {"priceLowest", "price"},
    {"priceHighest", "price_from_high_to_low"},
    {"bestReviewed", "review_score_and_price"},
    {"starsHighest", "class"},
    {"starsLowest", "class_asc"},
    {"distanceFromCenter", "distance_from_search"}};

std::vector<std::string> sort_names() {
  std::vector<std::string> out;
  for (const auto& [name, value] : kSorts) out.emplace_back(name);
  return out;
}

void check_search(const ValidatedParams& p) {
  const auto min = p.number("price[min]");
  const auto max = p.number("price[max]");
  if (min && max && *max <= *min) {
    throw invalid_parameter("price[max]", "price[max] must be greater than price[min]");
  }
}

const Parameters& search_parameters() {
  static const Parameters params = [] {
    std::vector<Param> list = {Param::string("keyword").required().max_length(200),
                               Param::string("sort").one_of(sort_names())};
    for (Param p : stay_params()) list.push_back(std::move(p));
    list.push_back(Param::number("price[min]").range(10, std::nullopt));
    list.push_back(Param::number("price[max]").range(20, std::nullopt));
    list.push_back(Param::integer("bedrooms").range(0, 20));
    list.push_back(Param::integer("bathrooms").range(0, 20));
    for (const FilterGroup& f : kFilters) {
      list.push_back(
          Param::list(f.param).pattern("[A-Za-z0-9_-]{1,32}", "a filter id of the site"));
    }
    list.push_back(Param::integer("page").range(1, 40).default_value(1));
    return Parameters(std::move(list), {stay_rule(), Rule::custom(check_search)});
  }();
  return params;
}

// The site's `nflt` value: "key=value" items joined by ';'.
std::string nflt_of(const ValidatedParams& p) {
  std::vector<std::string> items;
  if (p.has("price[min]") || p.has("price[max]")) {
    const std::string currency = p.string("currency").value_or("USD") == "hotelCurrency"
                                     ? "USD"
                                     : p.string("currency").value_or("USD");
    auto whole = [](double v) { return std::to_string(static_cast<long long>(v)); };
    items.push_back("price=" + currency + "-" +
                    (p.has("price[min]") ? whole(*p.number("price[min]")) : "min") + "-" +
                    (p.has("price[max]") ? whole(*p.number("price[max]")) : "max") + "-1");
  }
  if (auto b = p.integer("bedrooms"))
    items.push_back("entire_place_bedroom_count=" + std::to_string(*b));
  if (auto b = p.integer("bathrooms")) items.push_back("min_bathrooms=" + std::to_string(*b));
  for (const FilterGroup& f : kFilters) {
    for (const std::string& v : p.list(f.param)) items.push_back(std::string(f.key) + "=" + v);
  }
  std::string out;
  for (const std::string& i : items) out += (out.empty() ? "" : ";") + i;
  return out;
}

std::string score_label(const std::string& line) {
  std::string l = line;
  const auto digit = l.find_first_of("0123456789");
  if (digit != std::string::npos) l = l.substr(0, digit);
  // The label and the count joined by a dot, "Muy bien · 532 comentarios" (the mobile site).
  static constexpr std::string_view kDot = "\u00b7";
  while (!l.empty()) {
    if (l.back() == ' ') {
      l.pop_back();
    } else if (l.ends_with(kDot)) {
      l.resize(l.size() - kDot.size());
    } else {
      break;
    }
  }
  return l;
}

json result_of(const json& c, DecimalMark mark, const std::string& currency_default) {
  json r = json::object();
  r["name"] = str(at(c, {"title"}));
  std::string link = str(at(c, {"link"}));
  r["link"] = link.substr(0, link.find('?'));
  static const Regex kHotel(R"(/hotel/[a-z]{2}/([^./?]+))");
  RegexMatch m;
  if (kHotel.search(link, m)) r["id"] = m[1].str();
  if (std::string a = str(at(c, {"address"})); !a.empty()) r["address"] = a;
  if (std::string d = str(at(c, {"distance"})); !d.empty()) r["distanceFromCenter"] = d;
  // The score block's lines: "Scored 9.0" (for screen readers) and the visible "9.0", the label
  // "Wonderful" and the count "150 reviews" (the two may also share a line). Read by their form
  // and order, never their words, so a page in any language reads: the first number is the
  // score, a line that starts with a number and goes on in words is the count, the first line
  // without a digit is the label ("Puntuación: 9,0", "Fantástico", "1.234 comentarios").
  std::string combined;  // "Wonderful 150 reviews": the label before the count
  for (const json& line : at(c, {"scoreLines"})) {
    const std::string t = str(line);
    const auto digit = t.find_first_of("0123456789");
    if (digit == std::string::npos) {
      if (!t.empty() && !r.contains("reviewScoreLabel")) r["reviewScoreLabel"] = t;
      continue;
    }
    if (!r.contains("reviewScore")) {
      if (auto n = parse_number(t, mark); n && *n <= 10) r["reviewScore"] = *n;
      continue;
    }
    const bool words_after = t.find_first_not_of("0123456789.,  ", digit) != std::string::npos;
    if (digit == 0 && words_after) {
      if (auto n = parse_count(t, mark)) r["reviews"] = *n;
    } else if (digit > 0 && words_after && combined.empty()) {
      combined = t;
    }
  }
  if (!combined.empty()) {
    if (!r.contains("reviews")) {
      if (auto n = parse_count(combined.substr(combined.find_first_of("0123456789")), mark)) {
        r["reviews"] = *n;
      }
    }
    if (std::string label = score_label(combined);
        !label.empty() && !r.contains("reviewScoreLabel")) {
      r["reviewScoreLabel"] = label;
    }
  }
  if (auto stars = parse_number(str(at(c, {"stars"})), mark))
    r["stars"] = static_cast<long long>(*stars);
  if (std::string unit = str(at(c, {"unit"})); !unit.empty()) r["room"] = unit;
  if (const json& beds = at(c, {"beds"}); beds.is_array() && !beds.empty()) r["beds"] = beds;
  if (const json& p = at(c, {"policies"}); p.is_array() && !p.empty()) r["policies"] = p;
  const std::string price = str(at(c, {"price"}));
  if (auto money = parse_money(price, mark, currency_default)) {
    json pr = {{"total", price}, {"extractedTotal", money->min}, {"currency", money->currency}};
    const std::string original = str(at(c, {"originalPrice"}));
    if (auto o = parse_money(original, mark, currency_default)) {
      pr["original"] = original;
      pr["extractedOriginal"] = o->min;
    }
    const std::string night = str(at(c, {"nightPrice"}));
    if (auto n = parse_money(night, mark, currency_default)) {
      pr["perNight"] = night;
      pr["extractedPerNight"] = n->min;
    }
    if (std::string taxes = str(at(c, {"taxes"})); !taxes.empty()) pr["taxes"] = taxes;
    if (std::string n = str(at(c, {"nights"})); !n.empty()) pr["for"] = n;
    r["price"] = pr;
  }
  if (std::string photo = str(at(c, {"photo"})); !photo.empty()) r["photo"] = photo;
  return r;
}

class SearchEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "stays/search"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"searchInformation.totalResults",
            "results[].name",
            "results[].link",
            "results[].address",
            "results[].distanceFromCenter",
            "results[].reviewScore",
            "results[].reviews",
            "results[].price",
            "results[].room",
            "results[].policies"};
  }
  const Parameters& parameters() const override { return search_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    UrlBuilder url("https://www.booking.com/searchresults.html");
    url.add("ss", *p.string("keyword"));
    add_stay(url, p);
    if (const long long page = p.integer("page").value_or(1); page > 1) {
      url.add("offset", std::to_string((page - 1) * kPerPage));
    }
    if (const std::string nflt = nflt_of(p); !nflt.empty()) url.add("nflt", nflt);
    if (auto sort = p.string("sort")) {
      for (const auto& [name, value] : kSorts) {
        if (*sort == name) url.add("order", value);
      }
    }
    PageRequest request;
    request.url = url.str();
    // The cards are in the server-rendered page; the page's scripts only rewrite them.
    request.profile.run_scripts = false;
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& out, const ValidatedParams& p) const override {
    const DecimalMark mark = decimal_mark_of(str(at(out, {"lang"})));
    const std::string currency = p.string("currency").value_or("");
    const long long page = p.integer("page").value_or(1);
    json results = json::array();
    long long position = (page - 1) * kPerPage;
    for (const json& c : at(out, {"cards"})) {
      json r = result_of(c, mark, currency == "hotelCurrency" ? "" : currency);
      if (str(at(r, {"name"})).empty()) continue;
      r["position"] = ++position;
      results.push_back(r);
    }
    json info = {{"destination", *p.string("keyword")}};
    const std::string heading = str(at(out, {"heading"}));
    if (!heading.empty()) {
      info["totalResultsText"] = heading;
      if (auto n = parse_number(heading, mark)) info["totalResults"] = static_cast<long long>(*n);
    }
    if (results.empty()) {
      // A results page whose search box holds no destination, with neither a count nor a card,
      // is no search at all: the site dropped the one asked for (the page it serves a client it
      // takes for a robot, "b_agent_is_robot": true).
      if (!info.contains("totalResults") && at(out, {"destination"}).is_string() &&
          str(at(out, {"destination"})).empty()) {
        throw Error(
            ErrorCode::UpstreamBlocked, "the site answered without running the search",
            "a results page without a destination, a count or a card at " + str(at(out, {"url"})));
      }
      // "No properties found" with a count of 0 is the site saying so; anything else is not.
      if (!(info.contains("totalResults") && info["totalResults"] == 0)) {
        throw extraction_failed("could not find search results on the page",
                                "no property cards at " + str(at(out, {"url"})));
      }
    }
    json pagination = {{"currentPage", page}};
    if (info.contains("totalResults") && info["totalResults"].get<long long>() > page * kPerPage) {
      pagination["nextPage"] = page + 1;
    }
    return {{"searchInformation", info}, {"results", results}, {"pagination", pagination}};
  }

  bool has_content(const json& body) const override { return at(body, {"results"}).is_array(); }
};

}  // namespace

const Endpoint& search_endpoint() {
  return the_endpoint<SearchEndpoint>();
}

}  // namespace gleaner::extract::booking
