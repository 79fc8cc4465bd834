// GET /scrape/estate/listing: one Zillow search results page. listing.js reads the page's Next.js
// data (`__NEXT_DATA__` → props.pageProps.searchPageState: cat1.searchResults.listResults and
// cat1.searchList) and, where a page has no such data, its property cards; this shapes them. The
// search is the one the site's search box makes: the keyword as `usersSearchTerm` and the filters
// in `searchQueryState`.

#include <map>

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/common/choices.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::zillow {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr const char* kSite = "https://www.zillow.com";

// One value this API takes and the `filterState` key of the site's searchQueryState it sets.
struct Choice {
  const char* name;
  const char* key;
};

// The search page's own filter names (searchQueryState.filterState), grouped as this API names
// them. The keys the fixture page's queryState shows are marked "seen"; the others are the site's
// published names for its filter panel (docs/endpoints/zillow/listing.md).
constexpr Choice kHomeTypes[] = {{"houses", "isSingleFamily"},      {"townhomes", "isTownhouse"},
                                 {"multiFamily", "isMultiFamily"},  {"condos", "isCondo"},
                                 {"lotsLand", "isLotLand"},         {"apartments", "isApartment"},
                                 {"manufactured", "isManufactured"}};
constexpr Choice kPublishOptions[] = {{"agentListed", "isForSaleByAgent"},
                                      {"ownerPosted", "isForSaleByOwner"},
                                      {"newConstruction", "isNewConstruction"},
                                      {"foreclosures", "isForSaleForeclosure"},
                                      {"auctions", "isAuction"},
                                      {"foreclosed", "isPreMarketForeclosure"},
                                      {"preForeclosures", "isPreMarketPreForeclosure"}};
constexpr Choice kStatuses[] = {{"comingSoon", "isComingSoon"},
                                {"acceptingBackupOffers", "isAcceptingBackupOffersSelected"},
                                {"pendingUnderContract", "isPendingListingsSelected"}};
constexpr Choice kTours[] = {{"openHouse", "isOpenHousesOnly"}, {"threeDTour", "is3dHome"}};
constexpr Choice kAmenities[] = {{"airConditioning", "hasAirConditioning"},
                                 {"pool", "hasPool"},
                                 {"waterfront", "isWaterfront"},
                                 {"acceptZillowApplications", "onlyRentalAcceptsApplications"},
                                 {"apartmentCommunity", "onlyRentalFeaturedMultiFamilyBuilding"},
                                 {"incomeRestricted", "onlyRentalIncomeRestricted"},
                                 {"inUnitLaundry", "onlyRentalInUnitLaundry"},
                                 {"onsiteParking", "onlyRentalParkingAvailable"}};
constexpr Choice kViews[] = {{"city", "isCityView"},
                             {"mountain", "isMountainView"},
                             {"park", "isParkView"},
                             {"water", "isWaterView"}};
constexpr Choice kPets[] = {{"largeDogs", "onlyRentalLargeDogsAllowed"},
                            {"smallDogs", "onlyRentalSmallDogsAllowed"},
                            {"cats", "onlyRentalCatsAllowed"}};
constexpr Choice kBasements[] = {{"finished", "isBasementFinished"},
                                 {"unfinished", "isBasementUnfinished"}};
constexpr Choice kSorts[] = {{"homesForYou", "globalrelevanceex"},
                             {"rentalPriority", "priorityscore"},
                             {"newest", "days"},
                             {"priceLowToHigh", "pricea"},
                             {"priceHighToLow", "priced"},
                             {"bedrooms", "beds"},
                             {"bathrooms", "baths"},
                             {"squareFeet", "size"},
                             {"lotSize", "lot"},
                             {"paymentHighToLow", "paymentd"},
                             {"paymentLowToHigh", "paymenta"},
                             {"verifiedSource", "featured"}};

using site_choices::names;

template <std::size_t N>
const char* key_of(const Choice (&choices)[N], const std::string& name) {
  return site_choices::named(choices, name).key;
}

struct Range {
  const char* param;  // "price" → price[min], price[max]
  const char* key;    // filterState key
  bool integer;
};
constexpr Range kRanges[] = {{"price", "price", false},     {"beds", "beds", false},
                             {"baths", "baths", false},     {"yearBuilt", "built", true},
                             {"lotSize", "lotSize", false}, {"squareFeet", "sqft", false}};

// Filters that apply to one listing type only.
struct Only {
  const char* param;
  const char* type;
};
constexpr Only kOnly[] = {{"listingPublishOptions", "forSale"},
                          {"propertyStatus", "forSale"},
                          {"pets", "forRent"},
                          {"moveInDate", "forRent"}};

void check_request(const ValidatedParams& p) {
  for (const Range& r : kRanges) site_choices::check_min_max(p, r.param);
  const std::string type = *p.string("type");
  for (const Only& o : kOnly) {
    if ((p.has(o.param) || !p.list(o.param).empty()) && type != o.type) {
      throw invalid_parameter(o.param, std::string(o.param) + " applies only to type=" + o.type);
    }
  }
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
        return r.integer ? Param::integer(std::move(name)).range(1800, 2100)
                         : Param::number(std::move(name)).range(0, std::nullopt);
      });
    }
    // The hosted service's clients' words (docs/api.md "Pointing a hosted-service client at
    // gleaner"), each standing for this API's own.
    list.push_back(Param::list("homeTypes")
                       .one_of(names(kHomeTypes))
                       .aliases({{"house", "houses"},
                                 {"townhome", "townhomes"},
                                 {"condo", "condos"},
                                 {"lot", "lotsLand"},
                                 {"apartment", "apartments"}}));
    list.push_back(Param::list("listingPublishOptions").one_of(names(kPublishOptions)));
    list.push_back(Param::list("propertyStatus")
                       .one_of(names(kStatuses))
                       .aliases({{"pendingAndUnderContract", "pendingUnderContract"}}));
    list.push_back(Param::list("tours")
                       .one_of(names(kTours))
                       .aliases({{"open", "openHouse"}, {"3d", "threeDTour"}}));
    list.push_back(Param::list("otherAmenities")
                       .one_of(names(kAmenities))
                       .aliases({{"ac", "airConditioning"}}));
    list.push_back(Param::list("views").one_of(names(kViews)));
    list.push_back(Param::list("pets")
                       .one_of(names(kPets))
                       .aliases({{"allowsLargeDogs", "largeDogs"},
                                 {"allowsSmallDogs", "smallDogs"},
                                 {"allowsCats", "cats"}}));
    list.push_back(Param::list("basement").one_of(names(kBasements)));
    list.push_back(Param::string("listingType")
                       .one_of({"byAgent", "byOwnerAndOther"})
                       .aliases({{"byOwner", "byOwnerAndOther"}}));
    list.push_back(Param::number("hoa").range(0, std::nullopt));
    list.push_back(Param::boolean("singleStoryOnly"));
    list.push_back(Param::boolean("hide55plusCommunities"));
    // Days, or the site's own words for its longer spans.
    list.push_back(Param::string("daysOnZillow")
                       .one_of({"1", "7", "14", "30", "90", "180", "365", "730", "1095"})
                       .aliases({{"6m", "180"}, {"12m", "365"}, {"24m", "730"}, {"36m", "1095"}}));
    list.push_back(Param::date("moveInDate"));
    list.push_back(Param::boolean("mustHaveGarage"));
    list.push_back(Param::integer("parkingSpotsMin").range(0, 10));
    list.push_back(Param::string("keywords").max_length(200));
    list.push_back(Param::integer("page").range(1, 20).default_value(1));
    return Parameters(std::move(list), {Rule::custom(check_request)});
  }();
  return params;
}

json value(json v) {
  return {{"value", std::move(v)}};
}

// searchQueryState's filterState for the request.
json filter_state(const ValidatedParams& p) {
  json f = json::object();
  const std::string type = *p.string("type");
  if (type == "forRent") {
    f["isForRent"] = value(true);
    for (const char* k : {"isForSaleByAgent", "isForSaleByOwner", "isNewConstruction",
                          "isComingSoon", "isAuction", "isForSaleForeclosure"}) {
      f[k] = value(false);
    }
  } else if (type == "sold") {
    f["isRecentlySold"] = value(true);
    for (const char* k : {"isForSaleByAgent", "isForSaleByOwner", "isNewConstruction",
                          "isComingSoon", "isAuction", "isForSaleForeclosure"}) {
      f[k] = value(false);
    }
  }
  if (auto sort = p.string("sort")) f["sortSelection"] = value(key_of(kSorts, *sort));
  for (const Range& r : kRanges) {
    json range = json::object();
    if (auto min = p.number(std::string(r.param) + "[min]")) range["min"] = *min;
    if (auto max = p.number(std::string(r.param) + "[max]")) range["max"] = *max;
    if (!range.empty()) f[r.key] = range;
  }
  // A list names what is wanted: every other choice of its group is turned off.
  auto exclusive = [&](const std::string& param, const auto& choices) {
    const auto wanted = p.list(param);
    if (wanted.empty()) return;
    for (const Choice& c : choices) {
      f[c.key] = value(std::find(wanted.begin(), wanted.end(), c.name) != wanted.end());
    }
  };
  exclusive("homeTypes", kHomeTypes);
  exclusive("listingPublishOptions", kPublishOptions);
  // The others only add conditions.
  auto additive = [&](const std::string& param, const auto& choices) {
    for (const std::string& name : p.list(param)) f[key_of(choices, name)] = value(true);
  };
  additive("propertyStatus", kStatuses);
  additive("tours", kTours);
  additive("otherAmenities", kAmenities);
  additive("views", kViews);
  additive("pets", kPets);
  additive("basement", kBasements);
  if (auto lt = p.string("listingType")) {
    const bool agent = *lt == "byAgent";
    f["isForSaleByAgent"] = value(agent);
    f["isForSaleByOwner"] = value(!agent);
    f["isNewConstruction"] = value(!agent);
    f["isForSaleForeclosure"] = value(!agent);
    f["isAuction"] = value(!agent);
  }
  if (auto hoa = p.number("hoa")) f["hoa"] = {{"max", *hoa}};
  if (p.boolean("singleStoryOnly").value_or(false)) f["singleStory"] = value(true);
  if (p.boolean("hide55plusCommunities").value_or(false)) f["ah"] = value(true);
  if (auto doz = p.string("daysOnZillow")) {
    // The filter panel's own values: days up to 90, then months (its definitions on the search
    // page: "6m" is -182 days, "12m" -365, ...).
    static const std::map<std::string, std::string> kMonths = {
        {"180", "6m"}, {"365", "12m"}, {"730", "24m"}, {"1095", "36m"}};
    const auto months = kMonths.find(*doz);
    f["doz"] = value(months == kMonths.end() ? *doz : months->second);
  }
  if (auto date = p.string("moveInDate")) f["rad"] = value(*date);
  if (p.boolean("mustHaveGarage").value_or(false)) f["hasGarage"] = value(true);
  if (auto spots = p.integer("parkingSpotsMin")) f["parkingSpots"] = {{"min", *spots}};
  if (auto words = p.string("keywords")) f["att"] = value(*words);
  return f;
}

std::string type_path(const std::string& type) {
  if (type == "forRent") return "/homes/for_rent/";
  if (type == "sold") return "/homes/recently_sold/";
  return "/homes/for_sale/";
}

std::optional<double> first_number(const std::string& text) {
  return parse_number(text, DecimalMark::Dot);
}

json from_result(const json& r) {
  json out = json::object();
  const json& home = at(r, {"hdpData", "homeInfo"});
  out["zpid"] = text(at(r, {"zpid"}));
  out["link"] = absolute_url(std::string(kSite) + "/", str(at(r, {"detailUrl"})));
  json address = json::object();
  std::string street = str(at(r, {"addressStreet"}));
  if (street.empty()) street = str(at(home, {"streetAddress"}));
  address["street"] = street;
  if (std::string c = str(at(r, {"addressCity"})); !c.empty()) address["city"] = c;
  if (std::string s = str(at(r, {"addressState"})); !s.empty()) address["state"] = s;
  if (std::string z = str(at(r, {"addressZipcode"})); !z.empty()) address["postalCode"] = z;
  out["address"] = address;
  std::string price = str(at(r, {"price"}));
  const json& units = at(r, {"units"});
  if (price.empty() && units.is_array() && !units.empty()) price = str(at(units, {0, "price"}));
  if (!price.empty()) out["price"] = price;
  if (const json& u = at(r, {"unformattedPrice"}); u.is_number()) {
    out["extractedPrice"] = u;
  } else if (auto n = first_number(price)) {
    out["extractedPrice"] = *n;
  }
  if (const json& b = at(r, {"beds"}); b.is_number()) out["beds"] = b;
  if (const json& b = at(r, {"baths"}); b.is_number()) out["baths"] = b;
  if (const json& a = at(r, {"area"}); a.is_number()) out["livingArea"] = a;
  if (const json& l = at(home, {"lotAreaValue"}); l.is_number()) {
    out["lotArea"] = {{"value", l}, {"unit", str(at(home, {"lotAreaUnit"}))}};
  }
  if (std::string t = str(at(home, {"homeType"})); !t.empty()) out["homeType"] = t;
  std::string status = str(at(r, {"statusText"}));
  if (status.empty()) status = str(at(r, {"statusType"}));
  out["status"] = status;
  if (at(r, {"isBuilding"}) == true) out["isBuilding"] = true;
  if (const json& d = at(home, {"daysOnZillow"}); d.is_number()) out["daysOnZillow"] = d;
  if (at(r, {"latLong", "latitude"}).is_number()) {
    out["location"] = {{"latitude", at(r, {"latLong", "latitude"})},
                       {"longitude", at(r, {"latLong", "longitude"})}};
  }
  if (std::string photo = str(at(r, {"imgSrc"})); !photo.empty()) out["photo"] = photo;
  if (std::string broker = str(at(r, {"brokerName"})); !broker.empty()) out["brokerName"] = broker;
  if (const json& z = at(home, {"zestimate"}); z.is_number()) out["zestimate"] = z;
  if (const json& z = at(home, {"rentZestimate"}); z.is_number()) out["rentZestimate"] = z;
  return out;
}

// A card of a page without the search state. Its address is written the way the site writes US
// addresses: "95 Saint, 95 Saint Alphonsus St, Roxbury Crossing, MA 02120" (street, city,
// "ST zip"), a building's with its name before a bar and without the zip ("Rockingham Glen | 30
// Rockingham Ave, West Roxbury, MA"). A home's card is named by its zpid ("zpid_2072000832"), a
// building's by where it stands ("zpid_42.264652--71.15673"), kept as its zpid as the search
// state keeps it, and read as its location.
json from_card(const json& c) {
  json out = json::object();
  std::string id = str(at(c, {"id"}));
  if (id.starts_with("zpid_")) id = id.substr(5);
  if (!id.empty()) out["zpid"] = id;
  static const Regex kLatLong(R"((-?\d{1,3}\.\d+)-(-?\d{1,3}\.\d+))");
  if (RegexMatch ll; kLatLong.full_match(id, ll)) {
    out["location"] = {{"latitude", std::stod(ll[1].str())}, {"longitude", std::stod(ll[2].str())}};
  }
  out["link"] = str(at(c, {"link"}));
  std::string full = str(at(c, {"address"}));
  if (const auto bar = full.find(" | "); bar != std::string::npos) full = full.substr(bar + 3);
  json address = json::object();
  static const Regex kUs(R"(^(.*),\s*([^,]+),\s*([A-Z]{2})(?:\s+(\d{5}))?$)");
  RegexMatch m;
  if (kUs.full_match(full, m)) {
    address = {{"street", m[1].str()}, {"city", m[2].str()}, {"state", m[3].str()}};
    if (m[4].matched) address["postalCode"] = m[4].str();
  } else {
    address["street"] = full;
  }
  out["address"] = address;
  if (at(c, {"building"}) == true) out["isBuilding"] = true;
  const std::string price = str(at(c, {"price"}));
  if (!price.empty()) {
    out["price"] = price;
    if (auto n = first_number(price)) out["extractedPrice"] = *n;
  }
  for (const json& d : at(c, {"details"})) {
    const std::string t = str(d);
    auto n = first_number(t);
    if (!n) continue;
    if (t.ends_with("bd") || t.ends_with("bds"))
      out["beds"] = *n;
    else if (t.ends_with("ba"))
      out["baths"] = *n;
    else if (t.ends_with("sqft"))
      out["livingArea"] = *n;
  }
  out["status"] = str(at(c, {"status"}));
  if (std::string photo = str(at(c, {"photo"})); !photo.empty()) out["photo"] = photo;
  return out;
}

json shape_listing(const json& out, const ValidatedParams& p) {
  const long long page = p.integer("page").value_or(1);
  json properties = json::array();
  const json& results = at(out, {"results"});
  if (results.is_array()) {
    for (const json& r : results) properties.push_back(from_result(r));
  } else {
    for (const json& c : at(out, {"cards"})) properties.push_back(from_card(c));
  }
  long long position = 0;
  for (json& prop : properties) prop["position"] = ++position;

  const json& list = at(out, {"list"});
  json info = {{"keyword", *p.string("keyword")}, {"type", *p.string("type")}};
  if (const json& total = at(list, {"totalResultCount"}); total.is_number()) {
    info["totalResults"] = total;
  } else if (auto shown = parse_count(str(at(out, {"countText"})), DecimalMark::Dot)) {
    // A page without the state: the list header's "9,316 rentals available".
    info["totalResults"] = *shown;
  }
  json pagination = {{"currentPage", page}};
  if (const json& pages = at(list, {"totalPages"}); pages.is_number()) {
    pagination["totalPages"] = pages;
    if (page < pages.get<long long>()) pagination["nextPage"] = page + 1;
  } else if (at(list, {"pagination", "nextUrl"}).is_string()) {
    pagination["nextPage"] = page + 1;
  }
  if (properties.empty()) {
    // Zillow says "No matching results" with a total of 0 in its state; anything else without
    // results is not a page we can read as empty.
    if (!(info.contains("totalResults") && info["totalResults"] == 0)) {
      throw extraction_failed("could not find search results on the page",
                              "no search state and no property cards at " + str(at(out, {"url"})));
    }
  }
  return {{"searchInformation", info}, {"properties", properties}, {"pagination", pagination}};
}

class ListingEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "estate/listing"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"searchInformation.totalResults",
            "properties[].zpid",
            "properties[].address",
            "properties[].price",
            "properties[].beds",
            "properties[].baths",
            "properties[].livingArea",
            "properties[].status",
            "properties[].location",
            "properties[].photo",
            "pagination.currentPage"};
  }
  const Parameters& parameters() const override { return listing_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    json state = {{"usersSearchTerm", *p.string("keyword")},
                  {"filterState", filter_state(p)},
                  {"isListVisible", true}};
    if (const long long page = p.integer("page").value_or(1); page > 1) {
      state["pagination"] = {{"currentPage", page}};
    }
    PageRequest request;
    request.url = UrlBuilder(std::string(kSite) + type_path(*p.string("type")))
                      .add("searchQueryState", state.dump())
                      .str();
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_listing(output, params);
  }

  bool has_content(const json& body) const override { return at(body, {"properties"}).is_array(); }
};

}  // namespace

const Endpoint& listing_endpoint() {
  return the_endpoint<ListingEndpoint>();
}

}  // namespace gleaner::extract::zillow
