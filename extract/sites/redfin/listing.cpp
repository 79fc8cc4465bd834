#include "extract/sites/redfin/listing.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "core/log.h"
#include "extract/page_reader.h"
#include "extract/sites/common/choices.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/sites/redfin/property.h"
#include "extract/url.h"

namespace gleaner::extract::redfin {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr const char* kCom = "https://www.redfin.com";
constexpr const char* kCa = "https://www.redfin.ca";

enum Types : unsigned { kForSale = 1, kForRent = 2, kSold = 4, kAll = 7 };

unsigned type_bit(const std::string& type) {
  if (type == "forRent") return kForRent;
  if (type == "sold") return kSold;
  return kForSale;
}

std::string type_names(unsigned types) {
  std::string out;
  for (const auto& [bit, name] :
       {std::pair{kForSale, "forSale"}, {kForRent, "forRent"}, {kSold, "sold"}}) {
    if (!(types & bit)) continue;
    if (!out.empty()) out += " or ";
    out += "type=";
    out += name;
  }
  return out;
}

// One value this API takes and the `/filter/` item (or part of one) of the site it stands for.
// The values are the site's own names; docs/endpoints/redfin/listing.md lists which items were
// seen in real Redfin search URLs and which were not.
struct Choice {
  const char* name;
  const char* item;
  unsigned types = kAll;  // the listing types the value exists for
};

constexpr Choice kSorts[] = {{"lo-price", "lo-price"},
                             {"hi-price", "hi-price"},
                             {"lo-days", "lo-days", kForSale | kForRent},
                             {"hi-sqft", "hi-sqft"},
                             {"lo-dollarsqft", "lo-dollarsqft", kForSale | kSold},
                             {"hi-lot-sqft", "hi-lot-sqft", kForSale | kSold},
                             {"hi-sale-date", "hi-sale-date", kSold}};
constexpr Choice kHomeTypes[] = {{"house", "house"},
                                 {"condo", "condo"},
                                 {"townhouse", "townhouse"},
                                 {"multifamily", "multifamily", kForSale | kSold},
                                 {"land", "land", kForSale | kSold},
                                 {"manufactured", "manufactured", kForSale | kSold},
                                 {"other", "other", kForSale | kSold},
                                 {"apartment", "apartment", kForRent}};
constexpr Choice kCategories[] = {{"forsale", "forsale"},
                                  {"mlsfsbo", "mlsfsbo"},
                                  {"fsbo", "fsbo"},
                                  {"construction", "construction"}};
constexpr Choice kStatuses[] = {{"active", "active"},
                                {"comingsoon", "comingsoon"},
                                {"contingent", "contingent"},
                                {"pending", "pending"}};
constexpr Choice kTimeOnRedfin[] = {
    {"less-than-1d", "max-days-on-market=1d"},   {"less-than-3d", "max-days-on-market=3d"},
    {"less-than-1wk", "max-days-on-market=1wk"}, {"less-than-2wk", "max-days-on-market=2wk"},
    {"less-than-1mo", "max-days-on-market=1mo"}, {"more-than-1wk", "min-days-on-market=1wk"},
    {"more-than-2wk", "min-days-on-market=2wk"}, {"more-than-1mo", "min-days-on-market=1mo"},
    {"more-than-2mo", "min-days-on-market=2mo"}, {"more-than-3mo", "min-days-on-market=3mo"},
    {"more-than-6mo", "min-days-on-market=6mo"}};
constexpr Choice kSoldWithin[] = {{"1wk", "include=sold-1wk"}, {"1mo", "include=sold-1mo"},
                                  {"3mo", "include=sold-3mo"}, {"6mo", "include=sold-6mo"},
                                  {"1yr", "include=sold-1yr"}, {"2yr", "include=sold-2yr"},
                                  {"3yr", "include=sold-3yr"}, {"5yr", "include=sold-5yr"}};
constexpr Choice kMortgageTerms[] = {{"30-year-fixed", "30-year-fixed"},
                                     {"20-year-fixed", "20-year-fixed"},
                                     {"15-year-fixed", "15-year-fixed"},
                                     {"10-year-fixed", "10-year-fixed"},
                                     {"7-1-arm", "7-1-arm"},
                                     {"5-1-arm", "5-1-arm"}};
constexpr Choice kFinancing[] = {{"FHA", "financing-type=FHA"}, {"VA", "financing-type=VA"}};
constexpr Choice kPriceReduced[] = {{"1d", "price-reduced=1d"},
                                    {"3d", "price-reduced=3d"},
                                    {"1wk", "price-reduced=1wk"},
                                    {"2wk", "price-reduced=2wk"},
                                    {"1mo", "price-reduced=1mo"}};
constexpr Choice kOpenHouse[] = {{"anytime", "open-house-time=anytime"},
                                 {"this-weekend", "open-house-time=this-weekend"}};
constexpr Choice kFeatures[] = {{"air-conditioning", "air-conditioning"},
                                {"water-front", "water-front"},
                                {"has-view", "has-view"},
                                {"fireplace", "fireplace"},
                                {"washer-dryer", "washer-dryer"},
                                {"is-fixer", "is-fixer"},
                                {"primary-bed-on-main", "primary-bed-on-main"},
                                {"is-green", "is-green"},
                                {"accessible-home", "accessible-home"},
                                {"guest-house", "guest-house"},
                                {"has-elevator", "has-elevator"},
                                {"rv-parking", "rv-parking"},
                                {"has-att-fiber", "has-att-fiber"}};
constexpr Choice kPoolTypes[] = {{"private", "pool-type=private"},
                                 {"community", "pool-type=community"},
                                 {"either", "pool-type=either"},
                                 {"no-private", "pool-type=no-private"}};
constexpr Choice kBasements[] = {{"finished", "basement-type=finished"},
                                 {"unfinished", "basement-type=unfinished"},
                                 {"finished-or-unfinished", "basement-type=finished+unfinished"}};
constexpr Choice kRentalAmenities[] = {{"washer-dryer", "washer-dryer"},
                                       {"has-dishwasher", "has-dishwasher"},
                                       {"air-conditioning", "air-conditioning"},
                                       {"has-parking", "has-parking"},
                                       {"has-elevator", "has-elevator"}};
constexpr Choice kRentalTerms[] = {{"is-furnished", "is-furnished"}};
constexpr Choice kPets[] = {{"dogs-allowed", "dogs-allowed"}, {"cats-allowed", "cats-allowed"}};
constexpr Choice kSchoolTypes[] = {
    {"elementary", "elementary"}, {"middle", "middle"}, {"high", "high"}};

using site_choices::names;

template <std::size_t N>
const Choice& choice_of(const Choice (&choices)[N], const std::string& name) {
  return site_choices::named(choices, name);
}

// A bracketed range of this API and the site's min-/max- items.
struct Range {
  const char* param;  // "price" → price[min], price[max]
  const char* item;   // "price" → min-price=, max-price=
  const char* unit;   // written after the value ("-sqft"), or ""
  bool integer;
  unsigned types;
};
constexpr Range kRanges[] = {{"price", "price", "", false, kAll},
                             {"monthlyPayment", "monthly-payment", "", false, kForSale},
                             {"cost[pricePerSqft]", "price-per-sqft", "", false, kForSale | kSold},
                             {"beds", "beds", "", true, kAll},
                             {"forSaleSquareFeet", "sqft", "-sqft", false, kForSale | kSold},
                             {"forRentSquareFootage", "sqft", "-sqft", false, kForRent},
                             {"lotSize", "lot-size", "-sqft", false, kForSale | kSold},
                             {"yearBuilt", "year-built", "", true, kForSale | kSold},
                             {"stories", "stories", "", true, kForSale | kSold}};

// Single parameters that apply to some listing types only, by name or name prefix ("cost[").
struct Scope {
  const char* param;
  unsigned types;
};
constexpr Scope kScopes[] = {{"monthlyPayment[", kForSale},
                             {"cost[hoa]", kForSale | kSold},
                             {"cost[excludeLandLeases]", kForSale},
                             {"cost[maxPropertyTaxPerYear]", kForSale},
                             {"cost[acceptedFinancing]", kForSale},
                             {"cost[priceReduced]", kForSale},
                             {"listingType[", kForSale},
                             {"statusOptions", kForSale},
                             {"onlyWithDealOrPromotion", kForRent},
                             {"exclude55PlusCommunities", kForSale | kSold},
                             {"timeOnRedfin", kForSale},
                             {"soldWithinOption", kSold},
                             {"moveInDate", kForRent},
                             {"openHouseAndTour[openHouse]", kForSale},
                             {"openHouseAndTour[videoTour]", kForSale},
                             {"homeFeatures[", kForSale | kSold},
                             {"rentalAmenities", kForRent},
                             {"rentalOtherTerms", kForRent},
                             {"pets", kForRent}};

bool truthy(const ValidatedParams& p, const std::string& name) {
  return p.string(name).value_or("") == "true";
}

// "08/31/2030": a real calendar date.
bool real_date(const std::string& mm_dd_yyyy) {
  const int m = std::stoi(mm_dd_yyyy.substr(0, 2));
  const int d = std::stoi(mm_dd_yyyy.substr(3, 2));
  const int y = std::stoi(mm_dd_yyyy.substr(6, 4));
  return std::chrono::year_month_day{std::chrono::year{y}, std::chrono::month{unsigned(m)},
                                     std::chrono::day{unsigned(d)}}
      .ok();
}

// The listing types a given parameter applies to.
unsigned types_of(const std::string& name) {
  for (const Range& r : kRanges) {
    const std::string range = r.param;
    if (name == range + "[min]" || name == range + "[max]") return r.types;
  }
  for (const Scope& s : kScopes) {
    const std::string_view scope = s.param;
    if (name == scope || (scope.ends_with('[') && name.starts_with(scope))) return s.types;
  }
  return kAll;
}

void check_request(const ValidatedParams& p) {
  const std::string type = *p.string("type");
  const unsigned bit = type_bit(type);
  for (const Range& r : kRanges) site_choices::check_min_max(p, r.param);
  for (const auto& [name, value] : p.json().items()) {
    if (const unsigned types = types_of(name); !(types & bit)) {
      throw invalid_parameter(name, name + " applies only to " + type_names(types) +
                                        " (the site has no such filter for type=" + type + ")");
    }
  }
  const auto by_type = [&](const std::string& param, const auto& choices,
                           const std::vector<std::string>& values) {
    for (const std::string& v : values) {
      const Choice& c = choice_of(choices, v);
      if (!(c.types & bit)) {
        throw invalid_parameter(
            param, param + "=" + v + " exists only for " + type_names(c.types) + " on the site");
      }
    }
  };
  by_type("homeTypes", kHomeTypes, p.list("homeTypes"));
  if (auto sort = p.string("sort")) by_type("sort", kSorts, {*sort});
  if (auto date = p.string("moveInDate"); date && !real_date(*date)) {
    throw invalid_parameter("moveInDate", "moveInDate must be a real date, MM/DD/YYYY");
  }
  if (p.has("monthlyPayment[downPaymentPercent]") && p.has("monthlyPayment[downPaymentAmount]")) {
    throw Error(ErrorCode::ConflictingParameters,
                "give monthlyPayment[downPaymentPercent] or monthlyPayment[downPaymentAmount], "
                "not both")
        .with_parameter("monthlyPayment[downPaymentAmount]");
  }
}

Param flag(std::string name) {
  return Param::string(std::move(name)).one_of({"true", "false"});
}

const Parameters& listing_parameters() {
  static const Parameters params = [] {
    std::vector<Param> list = {
        Param::string("keyword").required().max_length(200),
        Param::string("type").required().one_of({"forSale", "forRent", "sold"}),
        Param::string("sort").one_of(names(kSorts)),
    };
    for (const Range& r : kRanges) {
      site_choices::add_min_max(list, r.param, [&](std::string name) {
        if (std::string_view(r.param) == "yearBuilt") {
          return Param::integer(std::move(name)).range(1800, 2100);
        }
        return r.integer ? Param::integer(std::move(name)).range(0, std::nullopt)
                         : Param::number(std::move(name)).range(0, std::nullopt);
      });
    }
    list.push_back(Param::number("monthlyPayment[interestRate]").range(0, 100));
    list.push_back(Param::number("monthlyPayment[insuranceRate]").range(0, 100));
    list.push_back(Param::number("monthlyPayment[downPaymentPercent]").range(0, 100));
    list.push_back(Param::number("monthlyPayment[downPaymentAmount]").range(0, std::nullopt));
    list.push_back(Param::string("monthlyPayment[mortgageTerm]").one_of(names(kMortgageTerms)));
    list.push_back(Param::number("cost[hoa]").range(0, std::nullopt));
    list.push_back(flag("cost[excludeLandLeases]"));
    list.push_back(Param::number("cost[maxPropertyTaxPerYear]").range(0, std::nullopt));
    list.push_back(Param::string("cost[acceptedFinancing]").one_of(names(kFinancing)));
    list.push_back(Param::string("cost[priceReduced]").one_of(names(kPriceReduced)));
    list.push_back(Param::list("homeTypes").one_of(names(kHomeTypes)));
    list.push_back(Param::number("baths").range(0, std::nullopt));
    list.push_back(Param::list("listingType[category]").one_of(names(kCategories)));
    list.push_back(flag("listingType[excludeShortSales]"));
    list.push_back(flag("listingType[redfinListingsOnly]"));
    list.push_back(Param::list("statusOptions").one_of(names(kStatuses)));
    list.push_back(flag("onlyWithDealOrPromotion"));
    list.push_back(flag("exclude55PlusCommunities"));
    list.push_back(Param::string("timeOnRedfin").one_of(names(kTimeOnRedfin)));
    list.push_back(Param::string("soldWithinOption").one_of(names(kSoldWithin)));
    list.push_back(
        Param::string("moveInDate").pattern(R"(\d{2}/\d{2}/\d{4})", "a date, MM/DD/YYYY"));
    list.push_back(Param::string("openHouseAndTour[openHouse]").one_of(names(kOpenHouse)));
    list.push_back(flag("openHouseAndTour[videoTour]"));
    list.push_back(Param::list("homeFeatures[options]").one_of(names(kFeatures)));
    list.push_back(Param::integer("homeFeatures[garageSpotsMin]").range(1, 5));
    list.push_back(Param::string("homeFeatures[poolType]").one_of(names(kPoolTypes)));
    list.push_back(Param::string("homeFeatures[basement]").one_of(names(kBasements)));
    list.push_back(Param::string("homeFeatures[keywordSearch]").max_length(200));
    list.push_back(Param::list("rentalAmenities").one_of(names(kRentalAmenities)));
    list.push_back(Param::list("rentalOtherTerms").one_of(names(kRentalTerms)));
    list.push_back(Param::list("pets").one_of(names(kPets)));
    list.push_back(Param::integer("schools[greatSchoolRating]").range(1, 10));
    list.push_back(Param::list("schools[schoolType]").one_of(names(kSchoolTypes)));
    list.push_back(flag("schools[includeUnratedSchools]"));
    for (const char* score : {"walkScore", "transitScore", "bikeScore"}) {
      list.push_back(Param::integer(std::string("transportScores[") + score + "]").range(1, 100));
    }
    list.push_back(Param::integer("page").range(1, 100).default_value(1));
    return Parameters(std::move(list), {Rule::custom(check_request)});
  }();
  return params;
}

// A number in full: 1.5 → "1.5", 1990 → "1990".
std::string plain(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

// A number as the site's filter URLs write it: 550000 → "550k", 2250000 → "2.25M", 750 → "750";
// a value those units cannot hold exactly (1234.5) is written in full.
std::string compact(double value) {
  auto fmt = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
  };
  auto exact = [](double v) { return std::fabs(v * 100 - std::round(v * 100)) < 1e-6; };
  if (value >= 1e6 && exact(value / 1e6)) return fmt(value / 1e6) + "M";
  if (value >= 1e3 && exact(value / 1e3)) return fmt(value / 1e3) + "k";
  return plain(value);
}

std::string joined(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const std::string& i : items) {
    if (!out.empty()) out += sep;
    out += i;
  }
  return out;
}

template <std::size_t N>
std::string items_of(const Choice (&choices)[N], const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& v : values) out.emplace_back(choice_of(choices, v).item);
  return joined(out, "+");
}

// "06/01/2030" as the site's filter writes it: "6%2F1%2F2030".
std::string move_in_date(const std::string& mm_dd_yyyy) {
  const auto part = [&](std::size_t at) {
    return std::to_string(std::stoi(mm_dd_yyyy.substr(at, 2)));
  };
  return part(0) + "%2F" + part(3) + "%2F" + mm_dd_yyyy.substr(6, 4);
}

// The `{"value": …, "level": …}` nesting of the gis answer, or the plain value.
const json& value_of(const json& v) {
  if (v.is_object() && v.contains("value")) return v["value"];
  return v;
}

json from_home(const json& h, const std::string& origin, const std::string& currency, bool sold) {
  json out = json::object();
  if (const json& id = at(h, {"propertyId"}); id.is_number()) {
    out["propertyId"] = std::to_string(id.get<long long>());
  }
  if (const json& id = at(h, {"listingId"}); id.is_number()) {
    out["listingId"] = std::to_string(id.get<long long>());
  }
  if (std::string mls = str(value_of(at(h, {"mlsId"}))); !mls.empty()) out["mlsId"] = mls;
  if (std::string url = str(at(h, {"url"})); !url.empty()) out["link"] = origin + url;
  json address = json::object();
  address["street"] = str(value_of(at(h, {"streetLine"})));
  for (const auto& [key, from] : {std::pair{"city", "city"}, {"state", "state"}}) {
    if (std::string v = str(at(h, {from})); !v.empty()) address[key] = v;
  }
  std::string zip = str(at(h, {"zip"}));
  if (zip.empty()) zip = str(value_of(at(h, {"postalCode"})));
  if (!zip.empty()) address["postalCode"] = zip;
  out["address"] = address;
  if (const json& price = value_of(at(h, {"price"})); price.is_number()) {
    out["price"] = dollars(price.get<double>());
    out["extractedPrice"] = price;
    out["currency"] = currency;
  }
  for (const char* k : {"beds", "baths"}) {
    if (const json& v = at(h, {k}); v.is_number()) out[k] = v;
  }
  for (const auto& [key, from] : {std::pair{"sqft", "sqFt"},
                                  {"lotSize", "lotSize"},
                                  {"pricePerSqft", "pricePerSqFt"},
                                  {"hoa", "hoa"},
                                  {"yearBuilt", "yearBuilt"},
                                  {"stories", "stories"},
                                  {"daysOnMarket", "dom"}}) {
    if (const json& v = value_of(at(h, {from})); v.is_number()) out[key] = v;
  }
  if (std::string s = str(at(h, {"mlsStatus"})); !s.empty()) out["status"] = s;
  const json& ll = value_of(at(h, {"latLong"}));
  if (at(ll, {"latitude"}).is_number() && at(ll, {"longitude"}).is_number()) {
    out["location"] = {{"latitude", at(ll, {"latitude"})}, {"longitude", at(ll, {"longitude"})}};
  }
  if (std::string b = str(at(h, {"listingBroker", "name"})); !b.empty()) out["broker"] = b;
  if (sold) {
    if (std::string d = iso_date_of_ms(at(h, {"soldDate"})); !d.empty()) out["soldDate"] = d;
  }
  return out;
}

// The site answering a search page URL: redfin.ca pages are in Canadian dollars.
std::string origin_of(const std::string& url) {
  return url.starts_with(kCa) ? kCa : kCom;
}

json shape_search(const json& out, const ValidatedParams& p) {
  if (str(at(out, {"kind"})) != "search") {
    throw Error(ErrorCode::Internal, "shape() takes a search page reading",
                "the reading is of kind '" + str(at(out, {"kind"})) + "'");
  }
  const json& homes = at(out, {"homes"});
  if (!homes.is_array() && at(out, {"notFound"}) == true) {
    // The site's own "Page Not Found" page (a region it no longer has, a mistyped path).
    throw Error(ErrorCode::NotFound, "the place does not exist on the site",
                "the site answered its Page Not Found page at " + str(at(out, {"url"})));
  }
  if (!homes.is_array()) {
    throw extraction_failed("could not find search results on the page",
                            "no gis search answer at " + str(at(out, {"url"})));
  }
  if (const json& code = at(out, {"resultCode"}); code.is_number() && code != 0) {
    throw Error(ErrorCode::UpstreamError, "the site's search failed",
                "gis resultCode " + code.dump() + ": " + str(at(out, {"errorMessage"})));
  }
  const std::string origin = origin_of(str(at(out, {"url"})));
  const std::string currency = origin == kCa ? "CAD" : "USD";
  const bool sold = *p.string("type") == "sold";
  json properties = json::array();
  for (const json& h : homes) {
    json prop = from_home(h, origin, currency, sold);
    prop["position"] = static_cast<long long>(properties.size()) + 1;
    properties.push_back(std::move(prop));
  }
  json info = {{"keyword", *p.string("keyword")}, {"type", *p.string("type")}};
  json pagination = {{"currentPage", p.integer("page").value_or(1)}};
  return {{"searchInformation", info}, {"properties", properties}, {"pagination", pagination}};
}

// The row of the autocomplete answer the search box opens: its exact match, else the first row.
json chosen_row(const json& reading) {
  if (const json& exact = at(reading, {"exactMatch"}); !str(at(exact, {"url"})).empty()) {
    return exact;
  }
  for (const json& section : at(reading, {"sections"})) {
    for (const json& row : at(section, {"rows"})) {
      if (!str(at(row, {"url"})).empty()) return row;
    }
  }
  return nullptr;
}

class ListingEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "homes/listing"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"properties[].propertyId", "properties[].mlsId",    "properties[].link",
            "properties[].address",    "properties[].price",    "properties[].beds",
            "properties[].baths",      "properties[].sqft",     "properties[].status",
            "properties[].location",   "pagination.currentPage"};
  }
  const Parameters& parameters() const override { return listing_parameters(); }

  // The first page a search loads: the search box's autocomplete for the keyword.
  PageRequest build_request(const ValidatedParams& p) const override {
    PageRequest request;
    request.url = autocomplete_url(*p.string("keyword"));
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_search(output, params);
  }

  // The search page's list is drawn by the site's scripts from the data the reading holds.
  bool data_without_text(const json& output) const override {
    return at(output, {"homes"}).is_array();
  }

  bool has_content(const json& body) const override {
    return at(body, {"properties"}).is_array() || at(body, {"property"}).is_object();
  }

  EndpointResult fetch(const ValidatedParams& params, TabSource& tabs,
                       Deadline deadline) const override {
    const PageRequest first = build_request(params);
    std::unique_ptr<Tab> tab = tabs.open(first.profile, deadline);
    const PageReading answer = read_page(*tab, first, script(), deadline);
    if (at(answer.data, {"parsed"}) != true) {
      throw extraction_failed("could not find the site's location search answer",
                              "no autocomplete JSON at " + answer.navigation.url);
    }
    const json row = chosen_row(answer.data);
    if (row.is_null()) {
      throw Error(ErrorCode::NotFound, "no place of the site matches the keyword",
                  "the autocomplete answer has no row for " + *params.string("keyword"));
    }
    const std::string origin = str(at(row, {"countryCode"})) == "CA" ? kCa : kCom;
    const std::string path = str(at(row, {"url"}));

    // An address or a single home: its property card, as homes/property reads it.
    if (parse_property_url(origin + path)) {
      const Endpoint& property = property_endpoint();
      const ValidatedParams pp = property.validate({{"url", origin + path}});
      EndpointResult card = read_step(property, *tab, property.build_request(pp), pp, deadline);
      json out = {{"searchInformation", {{"keyword", *params.string("keyword")}}},
                  {"property", std::move(card.body["property"])}};
      return {std::move(out), std::move(card.url)};
    }

    PageRequest search;
    search.url = search_url(origin, path, params);
    search.wait = WaitFor::load();
    return read_step(*this, *tab, search, params, deadline);
  }
};

}  // namespace

std::string autocomplete_url(const std::string& keyword) {
  return UrlBuilder(std::string(kCom) + "/stingray/do/location-autocomplete")
      .add("location", keyword)
      .add("v", "2")
      .str();
}

std::vector<std::string> filter_items(const ValidatedParams& p) {
  std::vector<std::string> items;
  const std::string type = *p.string("type");
  const auto each = [&](const char* param, const auto& choices) {
    for (const std::string& v : p.list(param)) items.push_back(choice_of(choices, v).item);
  };
  if (auto sort = p.string("sort")) items.push_back("sort=" + *sort);
  if (auto types = p.list("homeTypes"); !types.empty()) {
    items.push_back("property-type=" + items_of(kHomeTypes, types));
  }
  for (const Range& r : kRanges) {
    for (const char* end : {"min", "max"}) {
      if (auto v = p.number(std::string(r.param) + "[" + end + "]")) {
        const std::string value = r.integer ? plain(*v) : compact(*v);
        items.push_back(std::string(end) + "-" + r.item + "=" + value + r.unit);
      }
    }
  }
  if (auto v = p.number("baths")) items.push_back("min-baths=" + plain(*v));
  if (auto v = p.number("monthlyPayment[interestRate]"))
    items.push_back("interest-rate=" + plain(*v));
  if (auto v = p.number("monthlyPayment[insuranceRate]"))
    items.push_back("insurance-rate=" + plain(*v));
  if (auto v = p.number("monthlyPayment[downPaymentPercent]"))
    items.push_back("down-payment-percent=" + plain(*v));
  if (auto v = p.number("monthlyPayment[downPaymentAmount]"))
    items.push_back("down-payment=" + compact(*v));
  if (auto v = p.string("monthlyPayment[mortgageTerm]"))
    items.push_back("mortgage-term=" + std::string(choice_of(kMortgageTerms, *v).item));
  if (auto v = p.number("cost[hoa]")) items.push_back("hoa=" + plain(*v));
  if (auto v = p.number("cost[maxPropertyTaxPerYear]"))
    items.push_back("max-property-tax=" + compact(*v));
  if (auto v = p.string("cost[acceptedFinancing]")) items.push_back(choice_of(kFinancing, *v).item);
  if (auto v = p.string("cost[priceReduced]")) items.push_back(choice_of(kPriceReduced, *v).item);
  if (auto c = p.list("listingType[category]"); !c.empty()) {
    items.push_back("include=" + items_of(kCategories, c));
  }
  if (type == "sold") {
    items.push_back(choice_of(kSoldWithin, p.string("soldWithinOption").value_or("3mo")).item);
  }
  if (auto s = p.list("statusOptions"); !s.empty()) {
    items.push_back("status=" + items_of(kStatuses, s));
  }
  if (auto v = p.string("timeOnRedfin")) items.push_back(choice_of(kTimeOnRedfin, *v).item);
  if (auto v = p.string("moveInDate")) items.push_back("move-in-date=" + move_in_date(*v));
  if (auto v = p.string("openHouseAndTour[openHouse]"))
    items.push_back(choice_of(kOpenHouse, *v).item);
  each("homeFeatures[options]", kFeatures);
  if (auto v = p.integer("homeFeatures[garageSpotsMin]"))
    items.push_back("min-parking=" + std::to_string(*v));
  if (auto v = p.string("homeFeatures[poolType]")) items.push_back(choice_of(kPoolTypes, *v).item);
  if (auto v = p.string("homeFeatures[basement]")) items.push_back(choice_of(kBasements, *v).item);
  if (auto v = p.string("homeFeatures[keywordSearch]"))
    items.push_back("remarks=" + path_encode(*v));
  each("rentalAmenities", kRentalAmenities);
  each("rentalOtherTerms", kRentalTerms);
  each("pets", kPets);
  if (auto v = p.integer("schools[greatSchoolRating]"))
    items.push_back("school-rating=" + std::to_string(*v));
  if (auto t = p.list("schools[schoolType]"); !t.empty()) {
    items.push_back("school-types=" + items_of(kSchoolTypes, t));
  }
  for (const auto& [param, item] : {std::pair{"transportScores[walkScore]", "walk-score"},
                                    {"transportScores[transitScore]", "transit-score"},
                                    {"transportScores[bikeScore]", "bike-score"}}) {
    if (auto v = p.integer(param)) items.push_back(std::string(item) + "=" + std::to_string(*v));
  }
  for (const auto& [param, item] :
       {std::pair{"cost[excludeLandLeases]", "exclude-land-lease"},
        {"listingType[excludeShortSales]", "exclude-short-sale"},
        {"listingType[redfinListingsOnly]", "redfin-listings-only"},
        {"onlyWithDealOrPromotion", "has-deal"},
        {"exclude55PlusCommunities", "exclude-age-restricted"},
        {"openHouseAndTour[videoTour]", "has-video-tour"},
        {"schools[includeUnratedSchools]", "include-unrated-schools"}}) {
    if (truthy(p, param)) items.push_back(item);
  }
  return items;
}

std::string search_url(const std::string& origin, const std::string& region_path,
                       const ValidatedParams& p) {
  std::string url = origin + region_path;
  while (url.ends_with('/')) url.pop_back();
  if (*p.string("type") == "forRent") url += "/apartments-for-rent";
  if (const auto items = filter_items(p); !items.empty()) url += "/filter/" + joined(items, ",");
  if (const long long page = p.integer("page").value_or(1); page > 1) {
    url += "/page-" + std::to_string(page);
  }
  return url;
}

const Endpoint& listing_endpoint() {
  return the_endpoint<ListingEndpoint>();
}

}  // namespace gleaner::extract::redfin
