// GET /scrape/local/place: one Yelp business page (/biz/<alias or id>). place.js reads the page's
// schema.org JSON-LD (LocalBusiness or a subtype), the business in the page's state (pages served
// without that JSON-LD) and, from the markup, the name, categories, hours table, amenities and
// photos; this shapes them.

#include "core/error.h"
#include "extract/sites/common/clock.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/schema_org.h"
#include "extract/sites/common/text.h"
#include "extract/sites/yelp/site.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::yelp {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// "/biz/gary-danko-san-francisco" or "gary-danko-san-francisco" or a 22-character id → the id or
// alias alone.
std::string id_of(const std::string& place_id) {
  std::string id = place_id;
  if (id.starts_with("/biz/")) id = id.substr(5);
  return id;
}

const Parameters& place_parameters() {
  static const Parameters params{
      {Param::string("placeId").required().pattern("(/biz/)?[A-Za-z0-9_-]{1,150}",
                                                   "a Yelp business id or alias (or /biz/<alias>)"),
       domain_parameter()}};
  return params;
}

class PlaceEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "local/place"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"place.name",       "place.categories", "place.rating",  "place.reviews",
            "place.priceRange", "place.phone",      "place.address", "place.openingHours",
            "place.amenities",  "place.photos"};
  }
  const Parameters& parameters() const override { return place_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    PageRequest request;
    request.url = "https://" + host_of(p) + "/biz/" + path_encode(id_of(*p.string("placeId")));
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& out, const ValidatedParams& p) const override {
    const json& node = at(out, {"business"});
    const json& nodes = at(out, {"nodes"});
    // The business in the page's state: what a page served without the JSON-LD still carries.
    const json& state = at(out, {"state"});
    const std::string h1 = str(at(out, {"name"}));
    if (!node.is_object() && !state.is_object() && h1.empty()) {
      throw extraction_failed(
          "could not find the business's data on the page",
          "no LocalBusiness JSON-LD, no business in the state and no heading at " +
              str(at(out, {"url"})));
    }
    const std::string id = id_of(*p.string("placeId"));
    json place = json::object();
    place["id"] = id;
    std::string name = schema_org::text(node, "name");
    if (name.empty()) name = str(at(state, {"name"}));
    place["name"] = name.empty() ? h1 : name;
    place["link"] = "https://" + host_of(p) + "/biz/" + id;
    // The header's categories, else the state's, else the JSON-LD's cuisines.
    json categories = at(out, {"categories"}).is_array() ? at(out, {"categories"}) : json::array();
    if (categories.empty() && at(state, {"categories"}).is_array())
      categories = at(state, {"categories"});
    const json& serves = at(node, {"servesCuisine"});
    if (categories.empty()) {
      for (const json& c : serves.is_array() ? serves : json::array({serves})) {
        if (std::string t = text(c); !t.empty()) categories.push_back(t);
      }
    }
    place["categories"] = categories;
    if (json r = schema_org::rating(at(node, {"aggregateRating"}), nodes); r.is_object()) {
      place["rating"] = r["value"];
      if (r.contains("count")) place["reviews"] = r["count"];
    }
    if (!place.contains("rating") && at(state, {"rating"}).is_number())
      place["rating"] = at(state, {"rating"});
    if (!place.contains("reviews") && at(state, {"reviewCount"}).is_number_integer())
      place["reviews"] = at(state, {"reviewCount"});
    std::string price = schema_org::text(node, "priceRange");
    if (price.empty()) price = str(at(state, {"priceRange"}));
    if (!price.empty()) place["priceRange"] = price;
    std::string phone = schema_org::text(node, "telephone");
    if (phone.empty()) phone = str(at(state, {"phone"}));
    if (!phone.empty()) place["phone"] = phone;
    if (json a = schema_org::address(at(node, {"address"}), nodes); a.is_object()) {
      place["address"] = a["full"];
    } else if (const json& sa = at(state, {"address"}); sa.is_object()) {
      // The state's address in the JSON-LD's terms, so both read alike.
      std::string street;
      for (const json& line : at(sa, {"lines"})) {
        if (std::string l = str(line); !l.empty()) street += (street.empty() ? "" : ", ") + l;
      }
      const json postal = {{"streetAddress", street},
                           {"addressLocality", str(at(sa, {"city"}))},
                           {"addressRegion", str(at(sa, {"region"}))},
                           {"postalCode", str(at(sa, {"postalCode"}))},
                           {"addressCountry", str(at(sa, {"country"}))}};
      if (json a2 = schema_org::address(postal, nodes); a2.is_object())
        place["address"] = a2["full"];
    }
    if (auto geo = schema_org::coordinates(at(node, {"geo"}), nodes)) {
      place["location"] = {{"latitude", geo->first}, {"longitude", geo->second}};
    }
    json hours = json::array();
    for (const json& h : at(out, {"hours"}))
      hours.push_back({{"day", str(at(h, {"day"}))}, {"hours", str(at(h, {"hours"}))}});
    if (hours.empty()) {
      for (const json& h : schema_org::opening_hours(node, nodes)) {
        hours.push_back(
            {{"day", h["day"]},
             {"hours", h["opens"].get<std::string>() + "-" + h["closes"].get<std::string>()}});
      }
    }
    if (!hours.empty()) place["openingHours"] = hours;
    if (const json& a = at(out, {"amenities"}); a.is_array() && !a.empty()) place["amenities"] = a;
    // The health inspection's score the page shows among the amenities, as it shows it.
    if (std::string score = str(at(out, {"health", "score"})); !score.empty()) {
      place["healthScore"] = {{"label", str(at(out, {"health", "label"}))}, {"score", score}};
    }
    json photos = at(out, {"photos"}).is_array() ? at(out, {"photos"}) : json::array();
    if (photos.empty()) {
      for (const std::string& u : schema_org::images(at(node, {"image"}))) photos.push_back(u);
    }
    if (!photos.empty()) place["photos"] = photos;
    const json reviews = schema_org::reviews(node, nodes, site_clock().now());
    json answer = {{"place", place}};
    if (!reviews.empty()) answer["reviews"] = reviews;
    return answer;
  }

  bool has_content(const json& body) const override {
    return !str(at(body, {"place", "name"})).empty();
  }
};

}  // namespace

const Endpoint& place_endpoint() {
  return the_endpoint<PlaceEndpoint>();
}

}  // namespace gleaner::extract::yelp
