// GET /scrape/stays/place: one Booking.com property for a stay. place.js reads the page (JSON-LD
// Hotel, the visible review score, categories, facilities, house rules, photos, rooms); this
// shapes it. The stay's parameters are those of extract/sites/booking/stay.h.

#include "core/error.h"
#include "core/regex.h"
#include "extract/sites/booking/stay.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/schema_org.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::booking {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// A property page: https://www.booking.com/hotel/<country>/<name>[.<lang>].html, on the bare or
// www host only.
const Regex& property_url() {
  static const Regex kUrl(
      R"(https://(?:www\.)?booking\.com(/hotel/[a-z]{2}/[A-Za-z0-9._-]+?)(?:\.[a-z]{2}(?:-[a-z]{2})?)?\.html(?:[?#].*)?)");
  return kUrl;
}

const Parameters& place_parameters() {
  static const Parameters params = [] {
    std::vector<Param> list = {Param::string("url").required()};
    for (Param p : stay_params()) list.push_back(std::move(p));
    return Parameters(std::move(list),
                      {Rule::custom([](const ValidatedParams& p) {
                         if (!property_url().full_match(*p.string("url"))) {
                           throw invalid_parameter(
                               "url",
                               "url must be a property page of booking.com "
                               "(https://www.booking.com/hotel/<country>/<name>.html)");
                         }
                       }),
                       stay_rule()});
  }();
  return params;
}

std::optional<double> number_in(const std::string& text, DecimalMark mark) {
  return parse_number(text, mark);
}

json rating_of(const json& out, const json& hotel, DecimalMark mark) {
  if (at(out, {"noReviews"}) == true) return nullptr;
  json rating = json::object();
  // The visible block: "Scored 9.2", "9.2", "Rated wonderful", "Wonderful · 2,469 reviews".
  const json& lines = at(out, {"scoreLines"});
  for (const json& l : lines) {
    const std::string t = str(l);
    if (!rating.contains("score")) {
      if (auto n = number_in(t, mark); n && *n <= 10) rating["score"] = *n;
      continue;
    }
    if (const auto digit = t.find_first_of("0123456789"); digit != std::string::npos) {
      // "Wonderful · 2,469 reviews", "Wonderful 2,469 reviews" (or the count alone).
      std::string label = t.substr(0, digit);
      // Without the spaces and the middle dot (U+00B7) or no-break space (U+00A0) before the count.
      for (bool trimmed = true; trimmed;) {
        trimmed = false;
        if (label.ends_with(" ")) label.pop_back(), trimmed = true;
        if (label.ends_with("\xC2\xB7") || label.ends_with("\xC2\xA0"))
          label.resize(label.size() - 2), trimmed = true;
      }
      if (!label.empty()) rating["label"] = label;
      if (auto n = parse_number(t.substr(digit), mark))
        rating["reviews"] = static_cast<long long>(*n);
    } else if (!t.starts_with("Rated") && !t.starts_with("Scored") && !rating.contains("label")) {
      rating["label"] = t;
    }
  }
  // The JSON-LD where the page shows no block (its count can lag the visible one).
  const json ld = schema_org::rating(at(hotel, {"aggregateRating"}));
  if (!rating.contains("score") && ld.is_object()) rating["score"] = ld["value"];
  if (!rating.contains("reviews") && ld.is_object() && ld.contains("count")) {
    rating["reviews"] = ld["count"];
  }
  json categories = json::object();
  for (const json& c : at(out, {"categories"})) {
    const std::string label = str(at(c, {"label"}));
    if (auto v = number_in(str(at(c, {"value"})), mark); v && !label.empty())
      categories[label] = *v;
  }
  if (!categories.empty()) rating["categories"] = categories;
  if (!rating.contains("score")) return nullptr;
  return rating;
}

json rooms_of(const json& out, const std::string& currency_default, DecimalMark mark) {
  json rooms = json::array();
  for (const json& r : at(out, {"rooms"})) {
    json room = json::object();
    if (std::string id = str(at(r, {"roomId"})); !id.empty()) room["roomId"] = id;
    room["name"] = str(at(r, {"name"}));
    if (const json& beds = at(r, {"beds"}); beds.is_array() && !beds.empty()) room["beds"] = beds;
    json options = json::array();
    if (str(at(r, {"kind"})) == "availability") {
      json option = json::object();
      const std::string price = str(at(r, {"price"}));
      if (auto m = parse_money(price, mark, currency_default)) {
        option["price"] = price;
        option["extractedPrice"] = m->min;
        if (!m->currency.empty()) option["currency"] = m->currency;
      }
      if (auto occ = parse_number(str(at(r, {"occupancy"})), mark)) {
        option["maxOccupancy"] = static_cast<long long>(*occ);
      }
      for (const json& c : at(r, {"conditions"})) {
        const std::string t = str(c);
        const std::string l = lower(t);
        if (l.find("breakfast") != std::string::npos || l.find("meal") != std::string::npos ||
            l.find("board") != std::string::npos) {
          option["meals"] = t;
        } else if (l.find("cancel") != std::string::npos) {
          option["cancellation"] = t;
        } else if (l.find("prepay") != std::string::npos || l.find("pay ") != std::string::npos) {
          option["prepayment"] = t;
        }
      }
      if (auto left = parse_number(str(at(r, {"roomsLeft"})), mark)) {
        option["roomsLeft"] = static_cast<long long>(*left);
      }
      if (!option.empty()) options.push_back(option);
    } else if (const json& adults = at(r, {"adults"});
               adults.is_number() && adults.get<int>() > 0) {
      room["maxOccupancy"] = adults;
    }
    room["options"] = options;
    if (!room["name"].get<std::string>().empty()) rooms.push_back(room);
  }
  return rooms;
}

json shape_place(const json& out, const ValidatedParams& params) {
  // The site sends a property it does not have (any more) to its search or home page.
  if (const std::string shown = str(at(out, {"url"}));
      !shown.empty() && shown.find("/hotel/") == std::string::npos) {
    throw Error(ErrorCode::NotFound, "the property does not exist on the site",
                "the site redirected to " + shown);
  }
  // Or answers its own page for a missing one at the property's address, 200 or 404.
  if (str(at(out, {"action"})) == "error404") {
    throw Error(ErrorCode::NotFound, "the property does not exist on the site",
                "the site's error404 page at " + str(at(out, {"url"})));
  }
  const json& hotel = at(out, {"jsonLd"});
  const std::string lang = str(at(out, {"lang"}));
  const DecimalMark mark = decimal_mark_of(lang);
  json property = json::object();
  if (std::string id = str(at(out, {"hotelId"})); !id.empty()) property["id"] = id;
  std::string name = schema_org::text(hotel, "name");
  if (name.empty()) name = str(at(out, {"name"}));
  property["name"] = name;
  std::string link = schema_org::text(hotel, "url");
  if (link.empty()) link = str(at(out, {"canonical"}));
  if (link.empty()) {
    RegexMatch m;
    const std::string url = *params.string("url");
    if (property_url().full_match(url, m)) link = "https://www.booking.com" + m[1].str() + ".html";
  }
  property["link"] = link;
  if (std::string type = str(at(hotel, {"@type"})); !type.empty()) property["type"] = type;
  if (auto stars = parse_number(str(at(out, {"stars"})), mark)) {
    property["stars"] = static_cast<long long>(*stars);
  }
  // Booking writes the full address as the JSON-LD streetAddress; the header shows the same.
  std::string address = schema_org::text(at(hotel, {"address"}), "streetAddress");
  if (address.empty()) address = str(at(out, {"address"}));
  if (!address.empty()) property["address"] = address;
  if (std::string ll = str(at(out, {"latlng"})); !ll.empty()) {
    const auto comma = ll.find(',');
    if (comma != std::string::npos) {
      property["location"] = {{"latitude", std::stod(ll.substr(0, comma))},
                              {"longitude", std::stod(ll.substr(comma + 1))}};
    }
  }
  std::string description = str(at(out, {"description"}));
  if (description.empty()) description = schema_org::text(hotel, "description");
  property["description"] = description;
  json photos = at(out, {"photos"}).is_array() ? at(out, {"photos"}) : json::array();
  if (photos.empty()) {
    for (const std::string& u : schema_org::images(at(hotel, {"image"}))) photos.push_back(u);
  }
  property["photos"] = photos;
  property["popularFacilities"] =
      at(out, {"popularFacilities"}).is_array() ? at(out, {"popularFacilities"}) : json::array();
  json rules = json::object();
  for (const json& r : at(out, {"houseRules"})) {
    const std::string label = str(at(r, {"label"}));
    const std::string value = str(at(r, {"value"}));
    if (label.empty() || value.empty()) continue;
    const std::string l = lower(label);
    std::string key = label;
    if (l == "check-in")
      key = "checkIn";
    else if (l == "check-out")
      key = "checkOut";
    rules[key] = value;
  }
  if (!rules.empty()) property["houseRules"] = rules;
  if (json rating = rating_of(out, hotel, mark); rating.is_object()) property["rating"] = rating;
  if (const json& loc = at(out, {"locationScore"}); loc.is_object()) {
    json score = json::object();
    if (auto s = parse_number(str(at(loc, {"score"})), mark)) score["score"] = *s;
    if (auto n = parse_number(str(at(loc, {"reviews"})), mark)) {
      score["reviews"] = static_cast<long long>(*n);
    }
    if (!score.empty()) property["locationScore"] = score;
  }

  json answer = json::object();
  answer["property"] = property;
  answer["stay"] = stay_of(params);
  const std::string currency = params.string("currency").value_or("");
  answer["rooms"] = rooms_of(out, currency == "hotelCurrency" ? "" : currency, mark);
  return answer;
}

class PlaceEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "stays/place"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"property.name",
            "property.address",
            "property.location",
            "property.description",
            "property.photos",
            "property.popularFacilities",
            "property.houseRules",
            "property.rating.score",
            "property.rating.reviews",
            "property.rating.categories",
            "rooms[].name",
            "rooms[].options"};
  }
  const Parameters& parameters() const override { return place_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    RegexMatch m;
    const std::string url = *p.string("url");
    property_url().full_match(url, m);
    // The property's page without a language suffix; the language goes in `lang`.
    UrlBuilder page("https://www.booking.com" + m[1].str() + ".html");
    add_stay(page, p);
    PageRequest request;
    request.url = page.str();
    if (auto language = p.string("language"))
      request.profile.headers["Accept-Language"] = language_tag(*language);
    // The property is in the server-rendered page; the page's scripts only rewrite parts of it.
    request.profile.run_scripts = false;
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    if (!output.is_object()) {
      throw extraction_failed("could not find the property's data on the page",
                              "place.js returned no object");
    }
    return shape_place(output, params);
  }

  bool has_content(const json& body) const override {
    return !str(at(body, {"property", "name"})).empty();
  }
};

}  // namespace

const Endpoint& place_endpoint() {
  return the_endpoint<PlaceEndpoint>();
}

}  // namespace gleaner::extract::booking
