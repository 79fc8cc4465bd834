#include "extract/sites/redfin/property.h"

#include <chrono>
#include <cmath>
#include <tuple>

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/schema_org.h"
#include "extract/sites/common/text.h"

namespace gleaner::extract::redfin {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

const Parameters& property_parameters() {
  static const Parameters params{
      {Param::string("url").required()}, {Rule::custom([](const ValidatedParams& p) {
        if (!parse_property_url(*p.string("url"))) {
          throw invalid_parameter("url",
                                  "url must be a property page of redfin.com or redfin.ca "
                                  "(https://www.redfin.com/<state>/<city>/<address>/home/<id>)");
        }
      })}};
  return params;
}

std::string amenity(const json& out, std::initializer_list<const char*> headers) {
  for (const json& a : at(out, {"main", "selectedAmenities"})) {
    const std::string header = str(at(a, {"header"}));
    for (const char* h : headers) {
      if (header == h) return str(at(a, {"content"}));
    }
  }
  return {};
}

// The listing's agents and the buyer's, each with the numbers and e-mail the page gives for them:
// the agent's own where its data carries one, else the agent card's contact ("Contact listing
// agent … 214-683-8177", an e-mail link) or the MLS's listing agent number, matched by name; the
// brokerage's number ("Contact: 940-549-8555", "Listing provided courtesy of: Rennie & Associates
// Realty Ltd. (604-681-8898)") for the agents of the MLS's listing brokerage.
json agents_of(const json& out) {
  const json& mls = at(out, {"disclaimer"});
  const json& card = at(out, {"contact"});
  const bool card_shown = at(card, {"doNotShowAgentContactInfo"}) != true;
  json agents = json::array();
  for (const auto& [key, role] :
       {std::pair{"listingAgents", "listing"}, {"buyingAgents", "buying"}}) {
    const bool listing = std::string_view(role) == "listing";
    for (const json& a : at(out, {"main", key})) {
      const std::string name = str(at(a, {"agentInfo", "agentName"}));
      if (name.empty()) continue;
      json agent = {{"name", name}, {"role", role}};
      const std::string brokerage = str(at(a, {"brokerName"}));
      if (!brokerage.empty()) agent["brokerage"] = brokerage;
      std::string phone;
      for (const char* k : {"agentPhone", "phoneNumber"}) {
        if (std::string ph = str(at(a, {"agentInfo", k})); !ph.empty()) phone = ph;
      }
      std::string email = str(at(a, {"agentInfo", "agentEmail"}));
      if (listing && card_shown && str(at(card, {"contactName"})) == name) {
        if (phone.empty()) phone = str(at(card, {"contactPhoneNumber"}));
        if (email.empty()) email = str(at(card, {"contactEmail"}));
      }
      if (listing && phone.empty() && str(at(mls, {"listingAgentName"})) == name)
        phone = str(at(mls, {"listingAgentNumber"}));
      if (!phone.empty()) agent["phone"] = phone;
      if (!email.empty()) agent["email"] = email;
      if (std::string b = str(at(mls, {"listingBrokerNumber"}));
          listing && !b.empty() && !brokerage.empty() &&
          str(at(mls, {"listingBrokerName"})) == brokerage) {
        agent["brokeragePhone"] = b;
      }
      agents.push_back(agent);
    }
  }
  return agents;
}

json shape_property(const json& out, const ValidatedParams& params) {
  const PropertyUrl asked = *parse_property_url(*params.string("url"));
  const json& address = at(out, {"address"});
  const json& ld = at(out, {"jsonLd"});
  if (!address.is_object() && !ld.is_object()) {
    if (at(out, {"hasState"}) == true) {
      throw Error(ErrorCode::NotFound, "the property does not exist on the site",
                  "the page's data has no property");
    }
    throw extraction_failed("could not find the property's data on the page",
                            "no __reactServerState and no JSON-LD listing");
  }
  // Saved pages can carry another listing's state than their URL says: never mix two homes.
  const json& id = at(out, {"initial", "propertyId"});
  if (id.is_number() && std::to_string(id.get<long long>()) != asked.property_id) {
    throw Error(ErrorCode::UpstreamError, "the site showed another property than the one asked for",
                "asked " + asked.property_id + ", the page's data is " + id.dump());
  }
  // The page's currency is its site's, whatever the JSON-LD claims (redfin.ca writes USD there).
  const std::string currency = asked.domain == "redfin.ca" ? "CAD" : "USD";

  json p = json::object();
  p["propertyId"] = asked.property_id;
  if (const json& l = at(out, {"initial", "listingId"}); l.is_number())
    p["listingId"] = std::to_string(l.get<long long>());
  std::string mls = str(at(out, {"initial", "mlsId"}));
  if (mls.empty()) mls = str(at(out, {"main", "mlsId"}));
  if (!mls.empty()) p["mlsId"] = mls;
  p["link"] = "https://www." + asked.domain + asked.path;

  // The JSON-LD's home: a listing's mainEntity, else the node itself (a sold home's page).
  const json& home = at(ld, {"mainEntity"}).is_object() ? at(ld, {"mainEntity"}) : ld;
  const json ld_address = schema_org::address(at(home, {"address"}));
  json addr = json::object();
  std::string street = str(at(address, {"streetAddress", "assembledAddress"}));
  const std::string unit_type = str(at(address, {"streetAddress", "unitType"}));
  const std::string unit = str(at(address, {"streetAddress", "unitValue"}));
  if (!unit.empty() && street.find(unit) == std::string::npos) {
    street += " " + (unit_type.empty() ? std::string("Unit") : unit_type) + " " + unit;
  }
  if (street.empty()) street = str(at(ld_address, {"streetAddress"}));
  if (street.empty()) street = str(at(ld, {"name"}));
  addr["street"] = street;
  for (const auto& [key, from, ld_from] : {std::tuple{"city", "city", "addressLocality"},
                                           {"state", "state", "addressRegion"},
                                           {"postalCode", "zip", "postalCode"},
                                           {"country", "countryCode", "addressCountry"}}) {
    std::string v = str(at(address, {from}));
    if (v.empty()) v = str(at(ld_address, {ld_from}));
    if (!v.empty()) addr[key] = v;
  }
  p["address"] = addr;

  double price = 0;
  if (const json& a = at(address, {"priceInfo", "amount"}); a.is_number()) {
    price = a.get<double>();
  } else if (auto offer = schema_org::number(at(ld, {"offers"}), "price")) {
    price = *offer;
  }
  if (price > 0) {
    p["price"] = dollars(price);
    p["extractedPrice"] = price;
  }
  p["currency"] = currency;
  // A sold home's page heads it "SOLD ON SEP 4, 2025" where its data's status is the MLS's
  // "Closed": the page's word, and the day.
  if (str(at(address, {"status", "longerDefinitionToken"})) == "sold") {
    p["status"] = "Sold";
    if (std::string day = str(at(out, {"soldDay"})); day.size() == 10) {
      p["soldDate"] = day;
    } else if (std::string utc = iso_date_of_ms(at(address, {"soldDate"})); !utc.empty()) {
      p["soldDate"] = utc;
    }
  } else if (std::string s = str(at(address, {"status", "displayValue"})); !s.empty()) {
    p["status"] = s;
  }
  for (const auto& [k, ld_key] :
       {std::pair{"beds", "numberOfBedrooms"}, {"baths", "numberOfBathroomsTotal"}}) {
    if (const json& v = at(address, {k}); v.is_number()) {
      p[k] = v;
    } else if (auto n = schema_org::number(home, ld_key)) {
      p[k] = *n;
    }
  }
  if (const json& v = at(address, {"sqFt", "value"}); v.is_number()) {
    p["sqft"] = v;
  } else if (auto n = schema_org::number(at(home, {"floorSize"}), "value")) {
    p["sqft"] = *n;
  }
  if (const json& v = at(address, {"lotSize"}); v.is_number()) p["lotSize"] = v;
  const json& basic = at(out, {"publicRecords", "basicInfo"});
  if (const json& v = at(address, {"yearBuilt"}); v.is_number())
    p["yearBuilt"] = v;
  else if (const json& b = at(basic, {"yearBuilt"}); b.is_number())
    p["yearBuilt"] = b;
  else if (auto y = schema_org::number(home, "yearBuilt"))
    p["yearBuilt"] = *y;
  std::string type = amenity(out, {"Property Type"});
  if (type.empty()) type = str(at(basic, {"propertyTypeName"}));
  if (!type.empty()) p["propertyType"] = type;
  if (std::string hoa = amenity(out, {"HOA Dues", "Maintenance Fee", "Strata Fee"}); !hoa.empty()) {
    p["hoa"] = hoa;
    if (auto m = parse_money(hoa, DecimalMark::Dot, currency)) p["extractedHoa"] = m->min;
  }
  std::string description;
  for (const json& r : at(out, {"remarks"})) {
    if (!description.empty()) description += "\n\n";
    description += str(r);
  }
  if (description.empty()) description = schema_org::text(ld, "description");
  if (!description.empty()) p["description"] = description;

  json features = json::object();
  for (const json& g : at(out, {"features"})) {
    const std::string group = str(at(g, {"group"}));
    json items = json::array();
    for (const json& e : at(g, {"entries"})) {
      std::string values;
      for (const json& v : at(e, {"values"})) {
        if (str(v).empty()) continue;
        if (!values.empty()) values += ", ";
        values += str(v);
      }
      if (values.empty()) continue;
      const std::string name = str(at(e, {"name"}));
      items.push_back(name.empty() ? values : name + ": " + values);
    }
    if (!group.empty() && !items.empty()) features[group] = items;
  }
  if (!features.empty()) p["features"] = features;
  if (const json& h = at(out, {"highlights"}); h.is_array() && !h.empty()) p["highlights"] = h;
  p["photos"] = at(out, {"photos"}).is_array() ? at(out, {"photos"}) : json::array();
  if (p["photos"].empty()) {
    for (const std::string& url : schema_org::images(at(home, {"image"})))
      p["photos"].push_back(url);
    if (p["photos"].empty()) {
      for (const std::string& url : schema_org::images(at(ld, {"image"})))
        p["photos"].push_back(url);
    }
  }
  const json& ll = at(out, {"initial", "latLong"}).is_object() ? at(out, {"initial", "latLong"})
                                                               : at(address, {"latLong"});
  if (at(ll, {"latitude"}).is_number() && at(ll, {"longitude"}).is_number()) {
    p["location"] = {{"latitude", at(ll, {"latitude"})}, {"longitude", at(ll, {"longitude"})}};
  } else if (auto geo = schema_org::coordinates(at(home, {"geo"}))) {
    p["location"] = {{"latitude", geo->first}, {"longitude", geo->second}};
  }
  json history = json::array();
  for (const json& e : at(out, {"history"})) {
    // The day in the home's time zone, as the page shows it; else the UTC day.
    std::string date = str(at(e, {"localDate"}));
    if (date.size() != 10) date = iso_date_of_ms(at(e, {"eventDate"}));
    json event = {{"date", date}, {"event", str(at(e, {"eventDescription"}))}};
    if (const json& pr = at(e, {"price"}); pr.is_number()) event["price"] = pr;
    // A home listed on two MLSs has each one's history: "FMLS #7652074", "GAMLS #10607853".
    if (std::string source = str(at(e, {"source"})); !source.empty()) {
      const std::string id = str(at(e, {"sourceId"}));
      event["source"] = id.empty() ? source : source + " #" + id;
    }
    history.push_back(event);
  }
  if (!history.empty()) p["priceHistory"] = history;
  json taxes = json::array();
  for (const json& t : at(out, {"publicRecords", "allTaxInfo"})) {
    json row = json::object();
    if (const json& y = at(t, {"rollYear"}); y.is_number()) row["year"] = y;
    if (const json& v = at(t, {"taxesDue"}); v.is_number()) row["taxes"] = v;
    if (const json& v = at(t, {"taxableLandValue"}); v.is_number()) row["landValue"] = v;
    if (const json& v = at(t, {"taxableImprovementValue"}); v.is_number())
      row["improvementValue"] = v;
    if (!row.empty()) taxes.push_back(row);
  }
  if (!taxes.empty()) p["taxHistory"] = taxes;
  json schools = json::array();
  for (const json& s : at(out, {"schools"})) {
    json school = {{"name", str(at(s, {"name"}))}};
    // The GreatSchools rating the page shows ("6/10"); a school without one shows none, whatever
    // its parents' rating.
    if (const json& r = at(s, {"greatSchoolsRating"}); r.is_number()) school["rating"] = r;
    if (std::string g = str(at(s, {"gradeRanges"})); !g.empty() && g != "N/A") school["grades"] = g;
    if (auto d = parse_number(str(at(s, {"distanceInMiles"})), DecimalMark::Dot))
      school["distance"] = *d;
    if (!school["name"].get<std::string>().empty()) schools.push_back(school);
  }
  if (!schools.empty()) p["schools"] = schools;
  p["agents"] = agents_of(out);
  if (const json& v = at(out, {"avm", "predictedValue"}); v.is_number()) {
    p["estimate"] = {{"value", v}, {"currency", currency}};
  }
  return {{"property", p}};
}

class PropertyEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "homes/property"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"property.address.street", "property.price",    "property.beds",
            "property.baths",          "property.sqft",     "property.mlsId",
            "property.description",    "property.features", "property.photos",
            "property.priceHistory",   "property.schools",  "property.agents"};
  }
  const Parameters& parameters() const override { return property_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    const PropertyUrl u = *parse_property_url(*p.string("url"));
    PageRequest request;
    request.url = "https://www." + u.domain + u.path;
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_property(output, params);
  }

  bool has_content(const json& body) const override {
    return !str(at(body, {"property", "address", "street"})).empty();
  }
};

}  // namespace

// "$2,098,000": the amount as the site writes it.
std::string dollars(double amount) {
  std::string digits = std::to_string(std::llround(amount));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return "$" + out;
}

std::optional<PropertyUrl> parse_property_url(const std::string& url) {
  static const Regex kUrl(
      R"(https://(?:www\.)?redfin\.(com|ca)(/[A-Za-z]{2}/[^/?#]+/[^/?#]+(?:/unit-[^/?#]+)?/home/(\d{1,12}))/?(?:[?#].*)?)");
  RegexMatch m;
  if (!kUrl.full_match(url, m)) return std::nullopt;
  return PropertyUrl{"redfin." + m[1].str(), m[2].str(), m[3].str()};
}

const Endpoint& property_endpoint() {
  return the_endpoint<PropertyEndpoint>();
}

}  // namespace gleaner::extract::redfin
