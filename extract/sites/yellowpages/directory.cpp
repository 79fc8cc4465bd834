#include "extract/sites/yellowpages/directory.h"

#include "extract/sites/common/json_path.h"
#include "extract/sites/common/schema_org.h"
#include "extract/sites/common/text.h"

namespace gleaner::extract::yellowpages {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

json hours_of(const json& by_day) {
  // [{day, opens, closes}] → [{day, hours: "11:00-21:30"}], one entry a day (ranges joined).
  json out = json::array();
  for (const json& h : by_day) {
    const std::string range = str(at(h, {"opens"})) + "-" + str(at(h, {"closes"}));
    if (!out.empty() && out.back()["day"] == h["day"]) {
      out.back()["hours"] = out.back()["hours"].get<std::string>() + ", " + range;
    } else {
      out.push_back({{"day", h["day"]}, {"hours", range}});
    }
  }
  return out;
}

}  // namespace

json business_from_json_ld(const json& node, const json& nodes, const std::string& origin) {
  json b = json::object();
  b["name"] = schema_org::text(node, "name");
  if (std::string url = schema_org::text(node, "url"); !url.empty())
    b["link"] = absolute_url(origin + "/", url);
  if (std::string phone = schema_org::text(node, "telephone"); !phone.empty()) b["phone"] = phone;
  if (json a = schema_org::address(at(node, {"address"}), nodes); a.is_object()) {
    json address = json::object();
    for (const auto& [to, from] : {std::pair{"street", "streetAddress"},
                                   {"locality", "addressLocality"},
                                   {"region", "addressRegion"},
                                   {"postalCode", "postalCode"},
                                   {"country", "addressCountry"}}) {
      if (a.contains(from)) address[to] = a[from];
    }
    if (!address.empty()) b["address"] = address;
  }
  json categories = json::array();
  for (const char* key : {"additionalType", "servesCuisine", "category"}) {
    const json& v = at(node, {key});
    for (const json& c : v.is_array() ? v : json::array({v})) {
      if (std::string t = text(c); !t.empty() && t.find("://") == std::string::npos)
        categories.push_back(t);
    }
  }
  b["categories"] = categories;
  if (json r = schema_org::rating(at(node, {"aggregateRating"}), nodes); r.is_object()) {
    b["rating"] = r["value"];
    if (r.contains("count")) b["reviews"] = r["count"];
  }
  std::string website;
  for (const json& s : at(node, {"sameAs"}).is_array() ? at(node, {"sameAs"})
                                                       : json::array({at(node, {"sameAs"})})) {
    if (str(s).starts_with("http")) {
      website = str(s);
      break;
    }
  }
  if (!website.empty()) b["website"] = website;
  if (json hours = schema_org::opening_hours(node, nodes); !hours.empty())
    b["openingHours"] = hours_of(hours);
  if (auto geo = schema_org::coordinates(at(node, {"geo"}), nodes)) {
    b["location"] = {{"latitude", geo->first}, {"longitude", geo->second}};
  }
  if (auto photos = schema_org::images(at(node, {"image"})); !photos.empty()) b["photos"] = photos;
  if (std::string e = schema_org::text(node, "email"); !e.empty()) {
    b["email"] = e.starts_with("mailto:") ? e.substr(7) : e;
  }
  if (std::string d = schema_org::text(node, "description"); !d.empty()) b["description"] = d;
  return b;
}

json business_from_au_view(const json& v) {
  json b = json::object();
  b["name"] = str(at(v, {"name"}));
  if (std::string link = str(at(v, {"detailsLink"})); !link.empty()) b["link"] = link;
  if (std::string phone = str(at(v, {"callContactNumber", "displayValue"})); !phone.empty())
    b["phone"] = phone;
  const json& a = at(v, {"primaryAddress"});
  json address = json::object();
  if (std::string line = str(at(a, {"addressLine"})); !line.empty()) address["street"] = line;
  if (std::string s = str(at(a, {"suburb"})); !s.empty()) address["locality"] = s;
  if (std::string s = str(at(a, {"state"})); !s.empty()) address["region"] = s;
  if (std::string s = str(at(a, {"postCode"})); !s.empty()) address["postalCode"] = s;
  if (!address.empty()) b["address"] = address;
  json categories = json::array();
  if (std::string c = str(at(v, {"category", "name"})); !c.empty()) categories.push_back(c);
  b["categories"] = categories;
  const json& summary = at(v, {"averageRatings", "yellowReviewSummary"});
  if (auto r = parse_number(str(at(summary, {"displayRating"})), DecimalMark::Dot)) {
    b["rating"] = *r;
    if (const json& n = at(summary, {"reviewCount"}); n.is_number()) b["reviews"] = n;
  }
  for (const json& l : at(v, {"externalLinks"})) {
    if (std::string u = str(at(l, {"url"})); u.starts_with("http")) {
      b["website"] = u;
      break;
    }
  }
  if (std::string e = str(at(v, {"primaryEmail"})); !e.empty()) b["email"] = e;
  json hours = json::array();
  // The week in order (the view is keyed by day name).
  const json& by_day = at(v, {"openingHoursView", "openingHours"});
  for (const char* day : {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                          "Sunday", "Public Holidays"}) {
    std::string joined;
    for (const json& r : at(by_day, {day})) {
      if (str(r).empty() || str(r) == "Not provided") continue;
      joined += (joined.empty() ? "" : ", ") + str(r);
    }
    if (!joined.empty()) hours.push_back({{"day", day}, {"hours", joined}});
  }
  if (!hours.empty()) b["openingHours"] = hours;
  auto lat = parse_number(str(at(a, {"latitude"})), DecimalMark::Dot);
  auto lng = parse_number(str(at(a, {"longitude"})), DecimalMark::Dot);
  if (lat && lng && str(at(a, {"geoCodeGranularity"})) != "SUBURB") {
    b["location"] = {{"latitude", *lat}, {"longitude", *lng}};
  }
  if (std::string d = str(at(v, {"longDescriptor"})); !d.empty()) b["description"] = d;
  return b;
}

}  // namespace gleaner::extract::yellowpages
