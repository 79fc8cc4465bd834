// GET /scrape/travel/place: one Tripadvisor place (hotel, attraction, tour, restaurant or
// destination). place.js reads the page's schema.org JSON-LD (LodgingBusiness, Restaurant,
// TouristAttraction, Product/TouristTrip, the reviews it lists) and the ranking, rating
// histogram and amenities from the markup; this shapes them.

#include "core/error.h"
#include "extract/sites/common/clock.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/schema_org.h"
#include "extract/sites/common/text.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::tripadvisor {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// The site's language domains (the domain sets the language of the answer).
const std::vector<std::string>& domains() {
  static const std::vector<std::string> list = {
      "tripadvisor.com",    "tripadvisor.co.uk",  "tripadvisor.ca", "tripadvisor.com.au",
      "tripadvisor.in",     "tripadvisor.ie",     "tripadvisor.fr", "tripadvisor.de",
      "tripadvisor.es",     "tripadvisor.it",     "tripadvisor.nl", "tripadvisor.pt",
      "tripadvisor.com.br", "tripadvisor.com.mx", "tripadvisor.jp", "tripadvisor.se",
      "tripadvisor.dk",     "tripadvisor.at",     "tripadvisor.ch", "tripadvisor.be"};
  return list;
}

const Parameters& place_parameters() {
  static const Parameters params{
      {Param::string("placeId").required().pattern(
           "(g\\d{1,10}-)?d\\d{1,12}|g\\d{1,10}",
           "a place id: d<digits>, g<digits>-d<digits>, or g<digits> for a destination"),
       Param::string("domain").one_of(with_and_without_www(domains()))}};
  return params;
}

std::string host_of(const ValidatedParams& p) {
  std::string d = p.string("domain").value_or("tripadvisor.com");
  return d.starts_with("www.") ? d : "www." + d;
}

// The type of a place page, from the page the site settled on, else from its JSON-LD.
std::string type_of(const std::string& url, const json& place) {
  if (url.find("/Hotel_Review-") != std::string::npos) return "hotel";
  if (url.find("/Restaurant_Review-") != std::string::npos) return "restaurant";
  if (url.find("/AttractionProductReview-") != std::string::npos) return "tour";
  if (url.find("/Attraction_Review-") != std::string::npos) return "attraction";
  if (url.find("/Tourism-") != std::string::npos) return "destination";
  for (const char* t : {"LodgingBusiness", "Hotel"}) {
    if (schema_org::is_type(place, t)) return "hotel";
  }
  for (const char* t : {"Restaurant", "FoodEstablishment"}) {
    if (schema_org::is_type(place, t)) return "restaurant";
  }
  if (schema_org::is_type(place, "Product") || schema_org::is_type(place, "TouristTrip"))
    return "tour";
  if (schema_org::is_type(place, "TouristDestination") || schema_org::is_type(place, "City"))
    return "destination";
  return "attraction";
}

class PlaceEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "travel/place"; }
  std::int64_t default_cost() const override { return 10; }
  std::vector<std::string> fields() const override {
    return {"place.name",   "place.type",    "place.address", "place.location",
            "place.rating", "place.reviews", "place.ranking", "place.priceRange",
            "place.photos", "reviews[].text"};
  }
  const Parameters& parameters() const override { return place_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    const std::string id = *p.string("placeId");
    PageRequest request;
    // A destination is its Tourism page; any other place is asked for as a review page, which the
    // site redirects to the page of the place's own type (hotel, restaurant, attraction, tour).
    request.url = id.find('d') == std::string::npos
                      ? "https://" + host_of(p) + "/Tourism-" + id + ".html"
                      : "https://" + host_of(p) + "/Attraction_Review-" + id + ".html";
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& out, const ValidatedParams& p) const override {
    const json& place = at(out, {"place"});
    const json& nodes = at(out, {"nodes"});
    if (!place.is_object()) {
      throw extraction_failed("could not find the place's data on the page",
                              "no place JSON-LD at " + str(at(out, {"url"})));
    }
    const DecimalMark mark = decimal_mark_of(str(at(out, {"lang"})));
    json r = json::object();
    r["placeId"] = *p.string("placeId");
    // The JSON-LD's url is a path on some layouts (2018, 2019: "/Attraction_Review-…").
    std::string link = schema_org::text(place, "url");
    if (link.empty()) link = str(at(out, {"canonical"}));
    if (link.empty()) link = str(at(out, {"url"}));
    if (!link.empty()) link = absolute_url(str(at(out, {"url"})), link);
    r["type"] = type_of(
        link.find("tripadvisor") != std::string::npos ? link : str(at(out, {"url"})), place);
    r["name"] = schema_org::text(place, "name");
    r["link"] = link;
    if (json a = schema_org::address(at(place, {"address"}), nodes); a.is_object())
      r["address"] = a["full"];
    if (auto geo = schema_org::coordinates(at(place, {"geo"}), nodes)) {
      r["location"] = {{"latitude", geo->first}, {"longitude", geo->second}};
    }
    if (json rating = schema_org::rating(at(place, {"aggregateRating"}), nodes);
        rating.is_object()) {
      r["rating"] = rating["value"];
      if (rating.contains("count")) r["reviews"] = rating["count"];
    }
    if (std::string ranking = str(at(out, {"ranking"})); !ranking.empty()) r["ranking"] = ranking;
    if (std::string price = schema_org::text(place, "priceRange"); !price.empty())
      r["priceRange"] = price;
    json cuisines = json::array();
    const json& serves = at(place, {"servesCuisine"});
    for (const json& c : serves.is_array() ? serves : json::array({serves})) {
      if (std::string t = text(c); !t.empty()) cuisines.push_back(t);
    }
    // The JSON-LD's cuisines, phone and hours, else the markup's (the 2018 layout's JSON-LD has
    // none of them; its page shows all three).
    if (const json& shown = at(out, {"cuisines"}); cuisines.empty() && shown.is_array()) {
      cuisines = shown;
    }
    if (!cuisines.empty()) r["cuisines"] = cuisines;
    std::string phone = schema_org::text(place, "telephone");
    if (phone.empty()) phone = str(at(out, {"phone"}));
    if (!phone.empty()) r["phone"] = phone;
    json hours = schema_org::opening_hours(place, nodes);
    if (const json& shown = at(out, {"hours"}); hours.empty() && shown.is_array()) {
      hours = schema_org::opening_hours({{"openingHoursSpecification", shown}}, nodes);
    }
    if (!hours.empty()) r["openingHours"] = hours;
    std::string description = str(at(out, {"description"}));
    if (description.empty()) description = schema_org::text(place, "description");
    if (!description.empty()) r["description"] = description;
    if (const json& a = at(out, {"amenities"}); a.is_array() && !a.empty()) r["amenities"] = a;
    if (auto photos = schema_org::images(at(place, {"image"})); !photos.empty())
      r["photos"] = photos;
    // "Excellent 1,024", "Very good 152"... from 5 stars down. A row of a share ("Excellent 57%",
    // the older layouts' summary chart) is not a count: those rows are passed over.
    json histogram = json::object();
    int star = 5;
    for (const json& line : at(out, {"histogram"})) {
      if (star < 1) break;
      if (str(line).find('%') != std::string::npos) continue;
      if (auto n = parse_number(str(line), mark))
        histogram[std::to_string(star--)] = static_cast<long long>(*n);
    }
    if (histogram.size() == 5) r["ratingHistogram"] = histogram;
    const json reviews = schema_org::reviews(place, nodes, site_clock().now());
    json answer = {{"place", r}};
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

}  // namespace gleaner::extract::tripadvisor
