// GET /scrape/zillow/property: one Zillow property page. property.js reads the property object of
// the page's property cache (`__NEXT_DATA__` → `gdpClientCache`); this shapes it as the hosted
// service answers (hosted.md #23).

#include <chrono>

#include "core/error.h"
#include "core/regex.h"
#include "core/time_text.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::zillow {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

const Regex& property_url() {
  static const Regex kUrl(
      R"(https://(?:www\.)?zillow\.com/homedetails/(?:[^/?#]+/)?([0-9]{1,12})_zpid/?(?:[?#].*)?)",
      {.ignore_case = true});
  return kUrl;
}

void check_url(const ValidatedParams& p) {
  if (!property_url().full_match(*p.string("url"))) {
    throw invalid_parameter("url",
                            "url must be a Zillow property page: "
                            "https://www.zillow.com/homedetails/<address>/<zpid>_zpid/");
  }
}

const Parameters& property_parameters() {
  static const Parameters params{
      {Param::string("url").required(), Param::boolean("extractAgentEmails").default_value(false)},
      {Rule::custom(check_url)}};
  return params;
}

// The keys of `from` whose value is not null, copied.
void copy_present(json& to, const json& from,
                  std::initializer_list<std::pair<const char*, const char*>> keys) {
  for (const auto& [out_key, in_key] : keys) {
    const json& v = at(from, {in_key});
    if (!v.is_null()) to[out_key] = v;
  }
}

json shape_property(const json& output, const ValidatedParams& params) {
  const json& p = at(output, {"property"});
  if (!p.is_object()) {
    throw extraction_failed("could not find the property's data on the page",
                            at(output, {"hasNextData"}) == true
                                ? "__NEXT_DATA__ without a gdpClientCache property"
                            : at(output, {"hasApolloData"}) == true
                                ? "hdpApolloPreloadedData without an apiCache property"
                                : "no __NEXT_DATA__ or hdpApolloPreloadedData on the page");
  }
  json out = json::object();
  copy_present(out, p, {{"id", "zpid"}});
  const std::string hdp = str(at(p, {"hdpUrl"}));
  out["url"] = hdp.empty() ? *params.string("url") : absolute_url("https://www.zillow.com/", hdp);
  copy_present(out, p,
               {{"status", "homeStatus"},
                {"trueStatus", "keystoneHomeStatus"},
                {"homeType", "homeType"},
                {"price", "price"},
                {"currency", "currency"},
                {"lastSoldPrice", "lastSoldPrice"},
                {"beds", "bedrooms"},
                {"baths", "bathrooms"},
                {"yearBuilt", "yearBuilt"}});
  // The 2026 pages' first query (`ForSalePriorityQuery`) keeps the year in the listing's facts
  // only ("Built in 1998" on the page).
  if (!out.contains("yearBuilt"))
    copy_present(out, at(p, {"resoFacts"}), {{"yearBuilt", "yearBuilt"}});
  json area = json::object();
  copy_present(area, p,
               {{"livingArea", "livingArea"},
                {"livingAreaValue", "livingAreaValue"},
                {"livingAreaUnits", "livingAreaUnits"},
                {"livingAreaUnitsShort", "livingAreaUnitsShort"},
                {"lotSize", "lotSize"},
                {"lotAreaValue", "lotAreaValue"},
                {"lotAreaUnits", "lotAreaUnits"}});
  out["area"] = area;
  json address = json::object();
  copy_present(address, p,
               {{"street", "streetAddress"},
                {"city", "city"},
                {"state", "state"},
                {"zipcode", "zipcode"},
                {"county", "county"},
                {"country", "country"},
                {"countyFIPS", "countyFIPS"},
                {"undisclosed", "isUndisclosedAddress"}});
  if (std::string sub = str(at(p, {"address", "subdivision"})); !sub.empty()) {
    address["subdivision"] = sub;
  }
  if (std::string region = str(at(p, {"parentRegion", "name"})); !region.empty()) {
    address["parentRegion"] = region;
  }
  out["address"] = address;
  json geo = json::object();
  copy_present(geo, p, {{"latitude", "latitude"}, {"longitude", "longitude"}});
  out["geo"] = geo;
  out["description"] = str(at(p, {"description"}));
  std::string image = str(at(p, {"hiResImageLink"}));
  if (image.empty()) image = str(at(p, {"desktopWebHdpImageLink"}));
  if (!image.empty()) out["image"] = image;
  out["photos"] = at(p, {"photos"}).is_array() ? at(p, {"photos"}) : json::array();
  // The older pages (2020-2022) keep the day posted as a time in milliseconds, and a new home's
  // days on the site only as the page words them ("Time on Zillow 5 days").
  if (std::string day = iso_date_of_ms(at(p, {"datePosted"})); !day.empty()) {
    out["datePosted"] = day;
  }
  static const Regex kDays(R"((\d+) days?)");
  const std::string time_on_site = str(at(p, {"timeOnZillow"}));
  if (RegexMatch m; !at(p, {"daysOnZillow"}).is_number() && kDays.full_match(time_on_site, m)) {
    out["daysOnZillow"] = std::stoi(m[1].str());
  }
  copy_present(out, p,
               {{"mlsId", "mlsid"},
                {"datePosted", "datePostedString"},
                {"daysOnZillow", "daysOnZillow"},
                {"views", "pageViewCount"},
                {"saves", "favoriteCount"}});
  json fees = json::object();
  copy_present(fees, p, {{"monthlyHoaFee", "monthlyHoaFee"}});
  copy_present(fees, at(p, {"resoFacts"}),
               {{"hoaFee", "hoaFee"}, {"taxAnnualAmount", "taxAnnualAmount"}});
  out["fees"] = fees;
  json zestimate = json::object();
  copy_present(zestimate, p,
               {{"zestimate", "zestimate"},
                {"rentZestimate", "rentZestimate"},
                {"zestimateLowPercent", "zestimateLowPercent"},
                {"zestimateHighPercent", "zestimateHighPercent"}});
  out["zestimate"] = zestimate;
  const json& attribution = at(p, {"attributionInfo"});
  json agent = json::object();
  copy_present(agent, attribution,
               {{"agentName", "agentName"},
                {"brokerName", "brokerName"},
                {"agentPhoneNumber", "agentPhoneNumber"},
                {"brokerPhoneNumber", "brokerPhoneNumber"},
                {"buyerAgentName", "buyerAgentName"},
                {"buyerBrokerName", "buyerBrokerageName"}});
  // "Listed by: Rich Milam 0531918 210-844-8683, Texas Premier Realty 210-844-8683": the lines
  // the page shows, where the attribution has no phone numbers.
  for (const auto& [line, key] :
       {std::pair{"LISTING_AGENT", "agentPhoneNumber"}, {"BROKER", "brokerPhoneNumber"}}) {
    if (agent.contains(key)) continue;
    for (const json& by : at(p, {"listedBy"})) {
      if (str(at(by, {"id"})) != line) continue;
      for (const json& e : at(by, {"elements"})) {
        if (str(at(e, {"id"})) == "PHONE" && !str(at(e, {"text"})).empty()) {
          agent[key] = str(at(e, {"text"}));
        }
      }
    }
  }
  // The older pages' attribution is empty: the listing's brokerage (a new home's builder) and
  // the one who posted it are the page's `brokerageName` and `postingContact`.
  if (!agent.contains("brokerName")) copy_present(agent, p, {{"brokerName", "brokerageName"}});
  if (!agent.contains("agentName"))
    copy_present(agent, at(p, {"postingContact"}), {{"agentName", "name"}});
  out["agentInfo"] = agent;
  if (params.boolean("extractAgentEmails").value_or(false)) {
    json emails = json::array();
    if (std::string e = str(at(attribution, {"agentEmail"})); !e.empty()) emails.push_back(e);
    // Else the contact line the listing is attributed with ("800-933-1991 kimberlee@…"), which
    // 'Listed by' shows too.
    static const Regex kEmail(R"([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})");
    const std::string contact = str(at(attribution, {"listingAttributionContact"}));
    if (RegexMatch m; emails.empty() && kEmail.search(contact, m)) emails.push_back(m.str());
    out["agentEmails"] = emails;
  }
  json history = json::array();
  for (const json& h : at(p, {"priceHistory"})) {
    json one = json::object();
    copy_present(one, h, {{"date", "date"}, {"price", "price"}, {"event", "event"}});
    history.push_back(one);
  }
  out["priceHistory"] = history;
  json taxes = json::array();
  for (const json& t : at(p, {"taxHistory"})) {
    json one = json::object();
    if (const json& time = at(t, {"time"}); time.is_number()) {
      // Zillow keeps the tax year as a time in milliseconds; the answer gives its year.
      const std::string iso = iso8601_utc(
          std::chrono::system_clock::time_point(std::chrono::milliseconds(time.get<long long>())));
      one["year"] = std::stoi(iso.substr(0, 4));
    }
    copy_present(one, t, {{"taxPaid", "taxPaid"}, {"value", "value"}});
    taxes.push_back(one);
  }
  out["taxHistory"] = taxes;
  const json& reso = at(p, {"resoFacts"});
  json schools = json::object();
  for (const auto& [out_key, name_key, district_key] :
       std::initializer_list<std::tuple<const char*, const char*, const char*>>{
           {"elementarySchool", "elementarySchool", "elementarySchoolDistrict"},
           {"middleSchool", "middleOrJuniorSchool", "middleOrJuniorSchoolDistrict"},
           {"highSchool", "highSchool", "highSchoolDistrict"}}) {
    json s = json::object();
    copy_present(s, reso, {{"name", name_key}, {"district", district_key}});
    if (!s.empty()) schools[out_key] = s;
  }
  out["schools"] = schools;
  json nearby = json::array();
  for (const json& s : at(p, {"schools"})) {
    json one = json::object();
    copy_present(one, s,
                 {{"name", "name"},
                  {"rating", "rating"},
                  {"level", "level"},
                  {"grades", "grades"},
                  {"distance", "distance"},
                  {"link", "link"},
                  {"type", "type"}});
    nearby.push_back(one);
  }
  if (!nearby.empty()) out["nearbySchools"] = nearby;
  if (std::string parcel = str(at(p, {"parcelId"})); !parcel.empty()) {
    out["parcelData"] = {{"parcelId", parcel}};
  }
  copy_present(out, p,
               {{"listingSubTypes", "listingSubType"},
                {"foreclosureJudicialType", "foreclosureJudicialType"},
                {"downPaymentAssistance", "downPaymentAssistance"}});
  json reso_data = json::object();
  if (reso.is_object()) {
    for (const auto& [k, v] : reso.items()) {
      if (!v.is_null()) reso_data[k] = v;
    }
  }
  out["resoData"] = reso_data;
  return json{{"property", out}};
}

class PropertyEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "zillow/property"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"property.id",        "property.status",      "property.price", "property.address",
            "property.geo",       "property.beds",        "property.baths", "property.photos",
            "property.agentInfo", "property.priceHistory"};
  }
  const Parameters& parameters() const override { return property_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    const std::string url = *p.string("url");
    PageRequest request;
    // The page as its zpid names it; the address slug is Zillow's to redirect.
    request.url = url.substr(0, url.find_first_of("?#"));
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_property(output, params);
  }

  bool has_content(const json& body) const override {
    return at(body, {"property", "id"}).is_number() &&
           at(body, {"property", "address"}).is_object();
  }
};

}  // namespace

const Endpoint& property_endpoint() {
  return the_endpoint<PropertyEndpoint>();
}

}  // namespace gleaner::extract::zillow
