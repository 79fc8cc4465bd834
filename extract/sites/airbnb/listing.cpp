// GET /scrape/rentals/listing: one page of an Airbnb stays search. listing.js reads the search
// answer the page embeds (`script#data-deferred-state` → niobeMinimalClientData → StaysSearch →
// data.presentation.explore.sections, or .staysSearch.results on pages of 2025: the listings and
// the numbered pagination) and, without it,
// the page's schema.org list items; this shapes them. `nextPageToken` is the service's own: the
// search with the next page's offsets, enough on its own.

#include <cstdio>

#include "core/error.h"
#include "core/json_depth.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::airbnb {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

constexpr const char* kBox[] = {"neLat", "neLng", "swLat", "swLng"};
constexpr const char* kSearch[] = {"location", "checkIn", "checkOut", "adults",
                                   "children", "infants", "pets",     "neLat",
                                   "neLng",    "swLat",   "swLng"};

// The token: base64url of {"s": the search's parameters, "o": items offset, "so": section offset}.
std::optional<json> decode_token(const std::string& token) {
  auto bytes = base64url_decode(token);
  if (!bytes) return std::nullopt;
  json t = parse_json_within_depth(*bytes);
  if (!t.is_object() || !t.contains("s") || !t["s"].is_object() || !t.contains("o") ||
      !t["o"].is_number_integer()) {
    return std::nullopt;
  }
  return t;
}

json search_of(const ValidatedParams& p) {
  json given = json::object();
  for (const char* name : kSearch) {
    if (p.has(name)) given[name] = p.json()[name];
  }
  auto token = p.string("nextPageToken");
  if (!token) return given;
  json saved = decode_token(*token)->at("s");
  for (const auto& [name, value] : given.items()) {
    if (!saved.contains(name) || saved[name] != value) {
      throw conflicting_parameters(name, name + " differs from the search nextPageToken continues");
    }
  }
  return saved;
}

void check_request(const ValidatedParams& p) {
  if (auto token = p.string("nextPageToken"); token && !decode_token(*token)) {
    throw invalid_parameter("nextPageToken", "nextPageToken is not a token this service gave");
  }
  const json s = search_of(p);
  int corners = 0;
  for (const char* c : kBox) corners += s.contains(c) ? 1 : 0;
  if (corners > 0 && corners < 4) {
    for (const char* c : kBox) {
      if (!s.contains(c)) {
        throw missing_parameter(c);
      }
    }
  }
  if (corners == 4) {
    if (s["neLat"].get<double>() <= s["swLat"].get<double>()) {
      throw invalid_parameter("neLat", "neLat must be north of swLat");
    }
    if (s["neLng"].get<double>() <= s["swLng"].get<double>()) {
      throw invalid_parameter("neLng", "neLng must be east of swLng");
    }
  } else if (!s.contains("location")) {
    throw missing_parameter("location");
  }
  if (!s.contains("checkIn")) throw missing_parameter("checkIn");
  if (s.contains("checkOut") &&
      s["checkOut"].get<std::string>() <= s["checkIn"].get<std::string>()) {
    throw invalid_parameter("checkOut", "checkOut must be after checkIn");
  }
}

const Parameters& listing_parameters() {
  static const Parameters params{
      {Param::string("location").max_length(200), Param::date("checkIn"), Param::date("checkOut"),
       Param::integer("adults").range(0, 16), Param::integer("children").range(0, 15),
       Param::integer("infants").range(0, 5), Param::integer("pets").range(0, 5),
       Param::number("neLat").range(-90, 90), Param::number("neLng").range(-180, 180),
       Param::number("swLat").range(-90, 90), Param::number("swLng").range(-180, 180),
       Param::string("nextPageToken").max_length(2048)},
      {Rule::custom(check_request)}};
  return params;
}

// "Mission District, San Francisco, CA" → "Mission-District--San-Francisco--CA", as the site
// writes a place in its search paths.
std::string place_slug(const std::string& location) {
  std::string out;
  for (std::size_t i = 0; i < location.size(); ++i) {
    if (location[i] == ',') {
      out += "--";
      while (i + 1 < location.size() && location[i + 1] == ' ') ++i;
    } else {
      out += location[i] == ' ' ? '-' : location[i];
    }
  }
  return path_encode(out);
}

std::string coordinate(const json& v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v.get<double>());
  std::string s = buf;
  while (s.ends_with("0")) s.pop_back();
  if (s.ends_with(".")) s.pop_back();
  return s;
}

class ListingEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "rentals/listing"; }
  std::int64_t default_cost() const override { return 5; }
  std::vector<std::string> fields() const override {
    return {"listings[].id",       "listings[].title",  "listings[].name",
            "listings[].location", "listings[].rating", "listings[].reviews",
            "listings[].price",    "listings[].photos", "pagination.nextPageToken"};
  }
  const Parameters& parameters() const override { return listing_parameters(); }

  PageRequest build_request(const ValidatedParams& p) const override {
    const json s = search_of(p);
    const bool box = s.contains("neLat");
    UrlBuilder url(box ? std::string("https://www.airbnb.com/s/homes")
                       : "https://www.airbnb.com/s/" + place_slug(s["location"]) + "/homes");
    if (s.contains("location")) url.add("query", s["location"].get<std::string>());
    url.add("checkin", s["checkIn"].get<std::string>());
    if (s.contains("checkOut")) url.add("checkout", s["checkOut"].get<std::string>());
    for (const char* g : {"adults", "children", "infants", "pets"}) {
      if (s.contains(g)) url.add(g, std::to_string(s[g].get<long long>()));
    }
    if (box) {
      url.add("ne_lat", coordinate(s["neLat"])).add("ne_lng", coordinate(s["neLng"]));
      url.add("sw_lat", coordinate(s["swLat"])).add("sw_lng", coordinate(s["swLng"]));
      url.add("search_by_map", "true");
    }
    if (auto token = p.string("nextPageToken")) {
      const json t = *decode_token(*token);
      url.add("items_offset", std::to_string(t["o"].get<long long>()));
      url.add("section_offset", std::to_string(t.value("so", 0LL)));
    }
    PageRequest request;
    request.url = url.str();
    request.wait = WaitFor::dom_content_loaded();
    return request;
  }

  json shape(const json& out, const ValidatedParams& p) const override {
    const json s = search_of(p);
    long long offset = 0;
    if (auto token = p.string("nextPageToken"))
      offset = decode_token(*token)->at("o").get<long long>();
    // Numbers as the page's language writes them: "4,93 (105)", "1.280 €" on airbnb.es.
    const DecimalMark mark = decimal_mark_of(str(at(out, {"lang"})));
    json listings = json::array();
    long long position = offset;
    for (const json& i : at(out, {"items"})) {
      const std::string id = text(at(i, {"id"}));
      json l = {
          {"position", ++position}, {"id", id}, {"link", "https://www.airbnb.com/rooms/" + id}};
      if (std::string t = str(at(i, {"title"})); !t.empty()) l["title"] = t;
      if (std::string n = str(at(i, {"name"})); !n.empty()) l["name"] = n;
      if (std::string r = str(at(i, {"roomTypeCategory"})); !r.empty()) l["roomType"] = r;
      if (at(i, {"lat"}).is_number())
        l["location"] = {{"latitude", at(i, {"lat"})}, {"longitude", at(i, {"lng"})}};
      if (const json& r = at(i, {"avgRating"}); r.is_number() && r.get<double>() > 0)
        l["rating"] = r;
      if (const json& n = at(i, {"reviewsCount"}); n.is_number()) l["reviews"] = n;
      if (!l.contains("rating")) {
        // Pages of 2023 on give the rating only as the card shows it: "4.98 (422)", "4,93 (105)"
        // on airbnb.es ("New" without).
        const std::vector<double> shown = parse_numbers(str(at(i, {"avgRatingLocalized"})), mark);
        if (shown.size() == 2 && shown[0] > 0 && shown[0] <= 5) {
          l["rating"] = shown[0];
          if (!l.contains("reviews")) l["reviews"] = static_cast<long long>(shown[1]);
        }
      }
      const json& line = at(i, {"priceLine"});
      if (line.is_object()) {
        std::string shown = str(at(line, {"discounted"}));
        if (shown.empty()) shown = str(at(line, {"price"}));
        const json& second = at(i, {"priceSecondary"});
        const auto total = parse_money(str(at(second, {"price"})), mark);
        if (auto money = parse_money(shown, mark)) {
          json price = {{"currency", money->currency}};
          // A second line is the stay's total ("$1,234 total", "640 € en total"): the first is
          // then the nightly price, whatever word qualifies it ("night", "noche").
          if (!total && str(at(line, {"qualifier"})).find("total") != std::string::npos) {
            price["total"] = shown;
            price["extractedTotal"] = money->min;
          } else {
            price["perNight"] = shown;
            price["extractedPerNight"] = money->min;
          }
          if (std::string o = str(at(line, {"original"})); !o.empty()) price["original"] = o;
          if (total && !price.contains("total")) {
            price["total"] = str(at(second, {"price"}));
            price["extractedTotal"] = total->min;
          }
          l["price"] = price;
        }
      }
      if (const json& ph = at(i, {"pictures"}); ph.is_array() && !ph.empty()) l["photos"] = ph;
      if (const json& b = at(i, {"badges"}); b.is_array() && !b.empty()) l["badges"] = b;
      listings.push_back(l);
    }
    if (!at(out, {"hasState"}).is_boolean() || at(out, {"hasState"}) == false) {
      // A page without the search answer: its marked-up list items, else its cards' room links.
      const json& marked = at(out, {"marked"});
      const bool any_marked = marked.is_array() && !marked.empty();
      for (const json& m : any_marked ? marked : at(out, {"linked"})) {
        const std::string url = str(at(m, {"url"}));
        json l = {{"position", ++position}, {"name", str(at(m, {"name"}))}};
        const auto rooms = url.find("/rooms/");
        if (rooms != std::string::npos) {
          std::string id = url.substr(rooms + 7);
          if (id.starts_with("plus/")) id = id.substr(5);  // the "Plus" rooms' links
          id = id.substr(0, id.find_first_of("?/"));
          l["id"] = id;
          l["link"] = "https://www.airbnb.com/rooms/" + id;
        }
        listings.push_back(l);
      }
    }
    const json& pg = at(out, {"pagination"});
    if (listings.empty() && !(pg.is_object() && text(at(pg, {"total"})) == "0")) {
      throw extraction_failed(
          "could not find search results on the page",
          "no StaysSearch listings and no list items at " + str(at(out, {"url"})));
    }
    json pagination = json::object();
    // The next page: the numbered pagination's page after the one read.
    for (const json& page : at(pg, {"pages"})) {
      const json& o = at(page, {"itemsOffset"});
      if (o.is_number() && o.get<long long>() > offset) {
        json token = {{"s", s},
                      {"o", o.get<long long>()},
                      {"so", at(page, {"sectionOffset"}).is_number()
                                 ? at(page, {"sectionOffset"}).get<long long>()
                                 : 0}};
        pagination["nextPageToken"] = base64url_encode(token.dump());
        break;
      }
    }
    return {{"listings", listings}, {"pagination", pagination}};
  }

  bool has_content(const json& body) const override { return at(body, {"listings"}).is_array(); }
};

}  // namespace

const Endpoint& listing_endpoint() {
  return the_endpoint<ListingEndpoint>();
}

}  // namespace gleaner::extract::airbnb
