// GET /scrape/rentals/property: one Airbnb room (listing) page. property.js reads the page's
// sections (`data-section-id`: TITLE, OVERVIEW, BOOK_IT_SIDEBAR, REVIEWS, HOST_PROFILE,
// AMENITIES, DESCRIPTION, HIGHLIGHTS, HERO) and the OpenGraph tags; this shapes them.

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/common/clock.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::airbnb {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// A listing URL: /rooms/<id> or /rooms/plus/<id> (ids up to 19 digits) on Airbnb's sites.
const Regex& room_url() {
  static const Regex kUrl(
      R"(https://((?:www\.|[a-z]{2}\.)?airbnb\.(?:com|co\.uk|ca|fr|de|es|it|nl|ie|pt|be|ch|at|dk|se|no|fi|pl|gr|com\.au|co\.nz|com\.br|mx|com\.mx|co\.in|jp|com\.sg|com\.hk))(/rooms/(?:plus/)?(\d{1,19}))/?(?:\?([^#]*))?(?:#.*)?)");
  return kUrl;
}

const Parameters& property_parameters() {
  static const Parameters params{
      {Param::string("url").required()}, {Rule::custom([](const ValidatedParams& p) {
        if (!room_url().full_match(*p.string("url"))) {
          throw invalid_parameter(
              "url",
              "url must be an Airbnb listing URL (https://www.airbnb.com/rooms/<id> "
              "or /rooms/plus/<id>)");
        }
      })}};
  return params;
}

std::optional<double> number(const std::string& text) {
  return parse_number(text, DecimalMark::Dot);
}

json capacity_of(const std::string& text) {
  json capacity = json::object();
  static const Regex kPart(
      R"((\d+(?:\.\d+)?)\s+(?:private\s+|shared\s+)?(guests?|bedrooms?|beds?|baths?|bathrooms?)\b)",
      {.ignore_case = true});
  for (const RegexMatch& part : kPart.find_all(text)) {
    const double n = std::stod(part[1]);
    const std::string unit = lower(part[2].str());
    const char* key = unit.starts_with("guest")     ? "guests"
                      : unit.starts_with("bedroom") ? "bedrooms"
                      : unit.starts_with("bed")     ? "beds"
                                                    : "baths";
    if (capacity.contains(key)) continue;
    if (std::string(key) == "baths")
      capacity[key] = n;
    else
      capacity[key] = static_cast<long long>(n);
  }
  if (!capacity.contains("bedrooms") && lower(text).find("studio") != std::string::npos) {
    capacity["bedrooms"] = 0;
  }
  return capacity;
}

json rating_of(const json& out) {
  if (at(out, {"noReviews"}) == true) return nullptr;
  RegexMatch m;
  std::optional<double> overall;
  std::optional<long long> reviews;
  static const Regex kAria(R"(Rated\s+([\d.]+)\s+out of 5 from\s+([\d,]+)\s+reviews?)");
  static const Regex kStars(R"(([\d.]+)\s+out of 5 stars from\s+([\d,]+)\s+reviews?)");
  static const Regex kDot(R"(([\d]\.[\d]{1,2})\s*(?:·\s*|\()([\d,]+)\s+reviews?)");
  for (const json& b : at(out, {"titleButtons"})) {
    const std::string label = str(at(b, {"label"}));
    if (kAria.search(label, m)) {
      overall = std::stod(m[1]);
      reviews = static_cast<long long>(*number(m[2]));
    }
  }
  for (const std::string& t :
       {str(at(out, {"reviewsText"})), str(at(out, {"titleText"})), str(at(out, {"price"}))}) {
    if (overall) break;
    if (kStars.search(t, m) || kDot.search(t, m)) {
      overall = std::stod(m[1]);
      reviews = static_cast<long long>(*number(m[2]));
    }
  }
  if (!overall) return nullptr;
  json rating = {{"overall", *overall}, {"reviews", reviews.value_or(0)}};
  json categories = json::object();
  const std::string text = str(at(out, {"reviewsText"}));
  static const Regex kCategory(
      R"((Cleanliness|Accuracy|Communication|Location|Check-in|Value)\s+(\d[.,]\d))");
  for (const RegexMatch& category : kCategory.find_all(text)) {
    std::string v = category[2];
    std::replace(v.begin(), v.end(), ',', '.');
    if (!categories.contains(category[1].str())) categories[category[1].str()] = std::stod(v);
  }
  if (!categories.empty()) rating["categories"] = categories;
  return rating;
}

// The rating of the embedded answer: the overall score and count, and the six categories under
// the names the rendered page gives them in English (the answer's types, not its localised labels).
json state_rating(const json& state, DecimalMark mark) {
  const json& overall = at(state, {"rating"});
  if (!overall.is_number() || overall.get<double>() <= 0) return nullptr;
  json rating = {
      {"overall", overall},
      {"reviews", at(state, {"reviews"}).is_number_integer() ? at(state, {"reviews"}) : json(0)}};
  static constexpr std::pair<const char*, const char*> kNames[] = {
      {"CLEANLINESS", "Cleanliness"}, {"ACCURACY", "Accuracy"}, {"COMMUNICATION", "Communication"},
      {"LOCATION", "Location"},       {"CHECKIN", "Check-in"},  {"VALUE", "Value"}};
  json categories = json::object();
  for (const json& c : at(state, {"categories"})) {
    for (const auto& [type, name] : kNames) {
      if (str(at(c, {"type"})) != type) continue;
      if (auto v = parse_number(str(at(c, {"rating"})), mark)) categories[name] = *v;
    }
  }
  if (!categories.empty()) rating["categories"] = categories;
  return rating;
}

json shape_property(const json& out, const ValidatedParams& params) {
  RegexMatch m;
  const std::string url = *params.string("url");
  room_url().full_match(url, m);
  const std::string host_name = m[1];
  const std::string id = m[3];
  // The page's embedded answer (property.js `state`): what a page whose sections its scripts
  // draw shows only there, in the page's language. The rendered sections win where they say it.
  const json& state = at(out, {"state"});
  std::string title = str(at(out, {"title"}));
  if (title.empty()) title = str(at(state, {"title"}));
  if (title.empty()) {
    // The site answers a listing it no longer has with its home or search page.
    const std::string shown = str(at(out, {"url"}));
    if (!shown.empty() && shown.find("/rooms/") == std::string::npos) {
      throw Error(ErrorCode::NotFound, "the listing does not exist on the site",
                  "the site redirected to " + shown);
    }
    throw extraction_failed("could not find the listing on the page",
                            "no title section on " + shown);
  }
  json p = json::object();
  p["id"] = id;
  p["link"] = "https://" + (host_name.starts_with("www.") ? host_name : "www." + host_name) +
              "/rooms/" + id;
  p["title"] = title;
  const std::string heading = str(at(out, {"overviewHeading"}));
  static const Regex kHosted(R"(^(.*?)\s+hosted by\s+(.+)$)", {.ignore_case = true});
  std::string host;
  if (kHosted.full_match(heading, m)) {
    p["roomType"] = m[1].str();
    host = m[2].str();
  }
  // The location: the title section's button that names a place.
  for (const json& b : at(out, {"titleButtons"})) {
    const std::string t = str(at(b, {"text"}));
    if (str(at(b, {"label"})).empty() && t.find(',') != std::string::npos) {
      p["location"] = {{"name", t}, {"city", t.substr(0, t.find(','))}};
      break;
    }
  }
  if (!p.contains("roomType")) {
    if (std::string t = str(at(state, {"propertyType"})); !t.empty()) p["roomType"] = t;
  }
  if (!p.contains("location")) {
    if (std::string place = str(at(state, {"place"})); !place.empty()) {
      std::string city = str(at(state, {"city"}));
      p["location"] = {{"name", place},
                       {"city", city.empty() ? place.substr(0, place.find(',')) : city}};
    }
  }
  const std::string host_text = str(at(out, {"host"}));
  static const Regex kHostedBy(R"(Hosted by\s+(.+?)\s+(?:Joined|Superhost|$))");
  if (host.empty() && kHostedBy.search(host_text, m)) host = m[1].str();
  if (!host.empty()) {
    json h = {{"name", host}};
    h["superhost"] = host_text.find("Superhost") != std::string::npos ||
                     str(at(out, {"titleText"})).find("Superhost") != std::string::npos;
    static const Regex kJoined(R"(Joined in\s+([A-Za-z]+\s+\d{4}))");
    if (kJoined.search(host_text, m)) {
      if (auto d = parse_date(m[1].str(), site_clock().now())) h["since"] = d->substr(0, 7);
    }
    p["host"] = h;
  }
  if (host.empty() && !str(at(state, {"hostName"})).empty()) {
    p["host"] = {{"name", str(at(state, {"hostName"}))},
                 {"superhost", at(state, {"superhost"}) == true}};
  }
  static const Regex kPolicy(R"(Policy number:\s*([A-Za-z0-9-]+))");
  if (kPolicy.search(host_text, m)) p["policyNumber"] = m[1].str();
  std::string overview = str(at(out, {"overviewText"}));
  for (const json& i : at(out, {"overviewItems"})) overview += " · " + str(i);
  p["capacity"] = capacity_of(overview);
  if (!p["capacity"].contains("guests") && at(state, {"guests"}).is_number_integer()) {
    p["capacity"]["guests"] = at(state, {"guests"});
  }
  const std::string price_text = str(at(out, {"price"}));
  static const Regex kPerNight(R"((\S*\d[\d,.]*)\s+per night)");
  if (kPerNight.search(price_text, m)) {
    json price = {{"perNight", m[1].str()}};
    if (auto money = parse_money(m[1].str(), DecimalMark::Dot)) {
      price["extractedPerNight"] = money->min;
      price["currency"] = money->currency;
    }
    p["price"] = price;
  }
  json rating = rating_of(out);
  if (!rating.is_object()) rating = state_rating(state, decimal_mark_of(str(at(out, {"lang"}))));
  if (rating.is_object()) {
    p["rating"] = rating;
  } else {
    p["reviews"] = 0;
  }
  // A list the rendered page shows, else the embedded answer's.
  auto list = [&](const char* name) {
    const json& shown = at(out, {name});
    if (shown.is_array() && !shown.empty()) return shown;
    const json& kept = at(state, {name});
    return kept.is_array() ? kept : json::array();
  };
  p["amenities"] = list("amenities");
  std::string description = str(at(out, {"description"}));
  if (description.ends_with(" Show more")) description.resize(description.size() - 10);
  if (description.empty()) description = str(at(state, {"description"}));
  if (description.empty()) description = str(at(out, {"meta", "description"}));
  if (!description.empty()) p["description"] = description;
  p["photos"] = list("photos");
  if (json h = list("highlights"); !h.empty()) p["highlights"] = h;
  return {{"property", p}};
}

class PropertyEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "rentals/property"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"property.title",          "property.roomType",  "property.location",
            "property.host.name",      "property.capacity",  "property.price.perNight",
            "property.rating.overall", "property.amenities", "property.description",
            "property.photos"};
  }
  const Parameters& parameters() const override { return property_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    RegexMatch m;
    const std::string url = *p.string("url");
    room_url().full_match(url, m);
    const std::string host = m[1].str().starts_with("www.") ? m[1].str() : "www." + m[1].str();
    UrlBuilder page("https://" + host + m[2].str());
    // The stay the URL carries (dates and guests) is kept: the page prices it.
    const std::string query = m[4];
    for (const char* name : {"check_in", "check_out", "adults", "children", "infants", "pets"}) {
      static const Regex kValue(R"((?:^|&)([a-z_]+)=([^&]*))");
      for (const RegexMatch& value : kValue.find_all(query)) {
        if (value[1].text == name) page.add(name, form_decode(value[2].str()));
      }
    }
    PageRequest request;
    request.url = page.str();
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    return shape_property(output, params);
  }

  bool has_content(const json& body) const override {
    return !str(at(body, {"property", "title"})).empty();
  }
};

}  // namespace

const Endpoint& property_endpoint() {
  return the_endpoint<PropertyEndpoint>();
}

}  // namespace gleaner::extract::airbnb
