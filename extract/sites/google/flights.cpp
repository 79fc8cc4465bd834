// GET /scrape/google/flights (hosted.md #17): a Google Flights results page
// (`/travel/flights/search?tfs=...`, its search encoded by flights_tfs.h), read from the data the
// page draws its results from (flights.js, the `ds:1` blob); the filters the URL cannot carry
// verifiably are applied to what the page lists (docs/endpoints/google/flights.md).
#include "extract/sites/google/flights.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/error.h"
#include "core/json_depth.h"
#include "core/regex.h"
#include "extract/params.h"
#include "extract/sites/common/json_path.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/flights_tfs.h"
#include "extract/sites/google/protobuf.h"
#include "extract/sites/google/google.h"
#include "gleaner_site_endpoints.h"

namespace gleaner::extract::google {
namespace {

using nlohmann::json;
using site_json::at;
using site_json::str;

// An airport (IATA) or a place by kgmid; several joined by commas.
constexpr const char* kPlaces = "([A-Za-z]{3}|/[mg]/[0-9A-Za-z_]{2,})(,([A-Za-z]{3}|/[mg]/[0-9A-Za-z_]{2,}))*";
constexpr const char* kPlacesWords = "IATA airport codes (JFK) or location kgmids (/m/02_286), comma-joined";
constexpr const char* kAirports = "[A-Za-z]{3}(,[A-Za-z]{3})*";
constexpr const char* kAirlines = "[A-Za-z0-9]{2}(,[A-Za-z0-9]{2})*";
constexpr const char* kTimes = "[0-9]{1,2},[0-9]{1,2}(,[0-9]{1,2},[0-9]{1,2})?";

const std::vector<std::string>& currencies() {
  static const std::vector<std::string> codes = {
      "ALL", "DZD", "ARS", "AMD", "AWG", "AUD", "AZN", "BSD", "BHD", "BYN", "BMD", "BAM",
      "BRL", "GBP", "BGN", "XPF", "CAD", "CLP", "CNY", "COP", "CRC", "CUP", "CZK", "DKK",
      "DOP", "EGP", "EUR", "GEL", "HKD", "HUF", "ISK", "INR", "IDR", "IRR", "ILS", "JMD",
      "JPY", "JOD", "KZT", "KWD", "LBP", "MKD", "MYR", "MXN", "MDL", "MAD", "TWD", "NZD",
      "NOK", "OMR", "PKR", "PAB", "PEN", "PHP", "PLN", "QAR", "RON", "RUB", "SAR", "RSD",
      "SGD", "ZAR", "KRW", "SEK", "CHF", "THB", "TRY", "USD", "UAH", "VND", "AED"};
  return codes;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::vector<FlightsPlace> places_of(const std::string& ids) {
  std::vector<FlightsPlace> out;
  for (const std::string& id : split(ids, ',')) out.push_back(flights_place(id));
  return out;
}

// The legs of a multi-city trip: multiCityJson, a JSON array of {departureId, arrivalId, date,
// times?}, each checked as the top-level parameters are.
std::vector<FlightsLeg> multi_city_legs(const std::string& text) {
  const json legs = parse_json_within_depth(text);
  const auto bad = [](const std::string& why) {
    return invalid_parameter("multiCityJson", "'multiCityJson' must be " + why);
  };
  if (!legs.is_array() || legs.empty() || legs.size() > 6) {
    throw bad("a JSON array of one to six {departureId, arrivalId, date} objects");
  }
  static const Regex places(kPlaces);
  static const Regex date("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  std::vector<FlightsLeg> out;
  for (const json& l : legs) {
    if (!l.is_object()) throw bad("an array of objects");
    const std::string from = l.value("departureId", "");
    const std::string to = l.value("arrivalId", "");
    const std::string day = l.value("date", "");
    if (!places.full_match(from) || !places.full_match(to)) {
      throw bad("legs whose departureId and arrivalId are " + std::string(kPlacesWords));
    }
    if (!date.full_match(day)) throw bad("legs whose date is written YYYY-MM-DD");
    out.push_back({day, places_of(from), places_of(to), std::nullopt});
  }
  return out;
}

int cabin_of(const std::string& travel_class) {
  if (travel_class == "premiumEconomy") return 2;
  if (travel_class == "business") return 3;
  if (travel_class == "first") return 4;
  return 1;
}

std::optional<int> max_stops_of(const ValidatedParams& params) {
  const std::string stops = params.string("stops").value_or("");
  if (stops == "nonStop") return 0;
  if (stops == "oneStopOrFewer") return 1;
  if (stops == "twoStopsOrFewer") return 2;
  return std::nullopt;
}

FlightsSearch search_of(const ValidatedParams& params) {
  FlightsSearch s;
  const std::string type = params.string("type").value_or("roundTrip");
  const std::optional<int> stops = max_stops_of(params);
  if (type == "multiCity") {
    s.legs = multi_city_legs(params.string("multiCityJson").value_or(""));
    s.trip_type = 3;
  } else {
    const auto from = places_of(params.string("departureId").value_or(""));
    const auto to = places_of(params.string("arrivalId").value_or(""));
    s.legs.push_back({params.string("outboundDate").value_or(""), from, to, std::nullopt});
    if (type == "roundTrip") {
      s.legs.push_back({params.string("returnDate").value_or(""), to, from, std::nullopt});
      s.trip_type = 1;
    } else {
      s.trip_type = 2;
    }
  }
  for (FlightsLeg& leg : s.legs) leg.max_stops = stops;
  const auto count = [&](const char* name, long long fallback) {
    return params.integer(name).value_or(fallback);
  };
  for (long long i = 0; i < count("adults", 1); ++i) s.travellers.push_back(1);
  for (long long i = 0; i < count("children", 0); ++i) s.travellers.push_back(2);
  for (long long i = 0; i < count("infantsOnLap", 0); ++i) s.travellers.push_back(3);
  for (long long i = 0; i < count("infantsInSeat", 0); ++i) s.travellers.push_back(4);
  s.cabin = cabin_of(params.string("travelClass").value_or("economy"));
  return s;
}

// "[18, 45]" → "18:45"; "[21]" (the page leaves out zero minutes) → "21:00".
std::string clock_of(const json& hm) {
  if (!hm.is_array() || hm.empty() || !hm[0].is_number_integer()) return "";
  const int m = hm.size() > 1 && hm[1].is_number_integer() ? hm[1].get<int>() : 0;
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d:%02d", hm[0].get<int>(), m);
  return buf;
}

// "[2023, 6, 19]" and "[18, 45]" → "2023-06-19 18:45".
std::string time_of(const json& ymd, const json& hm) {
  if (!ymd.is_array() || ymd.size() < 3 || !ymd[0].is_number_integer()) return "";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", ymd[0].get<int>(), ymd[1].get<int>(),
                ymd[2].get<int>());
  const std::string clock = clock_of(hm);
  return clock.empty() ? std::string(buf) : std::string(buf) + " " + clock;
}

const char* cabin_name(const json& code) {
  if (!code.is_number_integer()) return "";
  switch (code.get<int>()) {
    case 1: return "Economy";
    case 2: return "Premium economy";
    case 3: return "Business";
    case 4: return "First";
    default: return "";
  }
}

std::string logo_of(const std::string& code) {
  return code.empty() ? "" : "https://www.gstatic.com/flights/airline_logos/70px/" + code + ".png";
}

void put_number(json& out, const char* key, const json& v) {
  if (v.is_number()) out[key] = v;
}

// One leg of an itinerary: [.., .., operator, from id, from name, to name, to id, .., departure
// [h, m], .., arrival [h, m], minutes, amenities, .., legroom, .., cabin, airplane, .., ..,
// departure [y, m, d], arrival [y, m, d], [airline code, number, .., airline], ...,
// emissions in grams at 31].
json leg_of(const json& leg) {
  json f = json::object();
  json from = json::object();
  put_text(from, "id", str(at(leg, {3})));
  put_text(from, "name", str(at(leg, {4})));
  put_text(from, "time", time_of(at(leg, {20}), at(leg, {8})));
  json to = json::object();
  put_text(to, "id", str(at(leg, {6})));
  put_text(to, "name", str(at(leg, {5})));
  put_text(to, "time", time_of(at(leg, {21}), at(leg, {10})));
  f["departureAirport"] = std::move(from);
  f["arrivalAirport"] = std::move(to);
  put_number(f, "duration", at(leg, {11}));
  const std::string code = str(at(leg, {22, 0}));
  put_text(f, "airline", str(at(leg, {22, 3})));
  put_text(f, "airlineLogo", logo_of(code));
  const std::string number = str(at(leg, {22, 1}));
  if (!code.empty() && !number.empty()) f["flightNumber"] = code + " " + number;
  put_text(f, "airplane", str(at(leg, {17})));
  put_text(f, "legroom", str(at(leg, {14})));
  put_text(f, "travelClass", cabin_name(at(leg, {16})));
  json extensions = json::array();
  if (const std::string op = str(at(leg, {2})); !op.empty()) {
    extensions.push_back("Operated by " + op);
  }
  if (const json& grams = at(leg, {31}); grams.is_number()) {
    extensions.push_back("Carbon emissions estimate: " +
                         std::to_string((grams.get<long long>() + 500) / 1000) + " kg");
  }
  if (!extensions.empty()) f["extensions"] = std::move(extensions);
  return f;
}

// One entry of the lists: [itinerary, [[null, price], price token], ...]; the itinerary is
// [airline code or "multi", [airline names], [legs], .., total minutes at 9, .., .., [layovers]
// at 13, ..., emissions at 22: [.., .., .., difference %, .., .., .., grams, typical grams]].
json itinerary_of(const json& entry, const std::string& trip) {
  const json& it = at(entry, {0});
  json item = json::object();
  json legs = json::array();
  if (const json& ls = at(it, {2}); ls.is_array()) {
    for (const json& l : ls) legs.push_back(leg_of(l));
  }
  item["flights"] = std::move(legs);
  json layovers = json::array();
  if (const json& ls = at(it, {13}); ls.is_array()) {
    for (const json& l : ls) {
      json lay = json::object();
      put_number(lay, "duration", at(l, {0}));
      put_text(lay, "name", str(at(l, {4})));
      put_text(lay, "id", str(at(l, {1})));
      layovers.push_back(std::move(lay));
    }
  }
  if (!layovers.empty()) item["layovers"] = std::move(layovers);
  put_number(item, "totalDuration", at(it, {9}));
  const json& em = at(it, {22});
  if (at(em, {7}).is_number()) {
    json c = json::object();
    put_number(c, "thisFlight", at(em, {7}));
    put_number(c, "typicalForThisRoute", at(em, {8}));
    put_number(c, "differencePercent", at(em, {3}));
    item["carbonEmissions"] = std::move(c);
  }
  put_number(item, "price", at(entry, {1, 0, 1}));
  item["type"] = trip;
  put_text(item, "airlineLogo", logo_of(str(at(it, {0}))));
  return item;
}

json places_of_leg(const json& list) {
  json out = json::array();
  if (!list.is_array()) return out;
  for (const json& p : list) {
    // [[IATA code or kgmid, kind], name, [city kgmid, city, [[image], [image]], ...],
    //  [lat, lng], country code, .., country]: an airport ("LHR", "Heathrow Airport", London)
    // or a place searched by kgmid ("/m/0845b", "Wrocław", Wrocław).
    json place = json::object();
    put_text(place, "id", str(at(p, {0, 0})));
    put_text(place, "name", str(at(p, {1})));
    put_text(place, "city", str(at(p, {2, 1})));
    put_text(place, "country", str(at(p, {6})));
    put_text(place, "countryCode", str(at(p, {4})));
    put_text(place, "image", str(at(p, {2, 2, 0, 0})));
    out.push_back(std::move(place));
  }
  return out;
}

std::string trip_name(const std::string& type) {
  if (type == "oneWay") return "One way";
  if (type == "multiCity") return "Multi-city";
  return "Round trip";
}

class FlightsEndpoint final : public Endpoint {
 public:
  std::string_view route() const override { return "google/flights"; }
  std::int64_t default_cost() const override { return 15; }
  std::vector<std::string> fields() const override {
    return {"bestFlights[].price", "bestFlights[].totalDuration", "bestFlights[].flights[].airline",
            "otherFlights[].price", "priceInsights.lowestPrice"};
  }

  const Parameters& parameters() const override {
    static const Parameters params = [] {
      std::vector<Param> p = {
          Param::string("departureId").required().pattern(kPlaces, kPlacesWords),
          Param::string("arrivalId").required().pattern(kPlaces, kPlacesWords),
          Param::date("outboundDate").required(),
          Param::date("returnDate"),
          Param::string("type").one_of({"roundTrip", "oneWay", "multiCity"}),
          Param::string("multiCityJson").max_length(4096),
          Param::string("gl").pattern(patterns::kTwoLetters, "a two-letter country code"),
          Param::string("hl").pattern(patterns::kGoogleLanguage, patterns::kGoogleLanguageWords),
          Param::string("currency").one_of(currencies()),
          Param::string("travelClass").one_of({"economy", "premiumEconomy", "business", "first"}),
          Param::boolean("showHidden"),
          Param::integer("adults").range(1, 9),
          Param::integer("children").range(0, 8),
          Param::integer("infantsInSeat").range(0, 8),
          Param::integer("infantsOnLap").range(0, 8),
          Param::string("sortBy").one_of(
              {"topFlights", "price", "departureTime", "arrivalTime", "duration", "emissions"}),
          Param::string("stops").one_of({"nonStop", "oneStopOrFewer", "twoStopsOrFewer"}),
          Param::string("includeAirlines").pattern(kAirlines, "comma-joined IATA airline codes"),
          Param::string("excludeAirlines").pattern(kAirlines, "comma-joined IATA airline codes"),
          Param::integer("bags").range(0, 9),
          Param::number("maxPrice").range(0, std::nullopt),
          Param::string("outboundTimes").pattern(kTimes, "2 or 4 hours such as 6,20 or 7,18,2,21"),
          Param::string("returnTimes").pattern(kTimes, "2 or 4 hours such as 6,20 or 7,18,2,21"),
          Param::boolean("lessEmissions"),
          Param::string("layoverDuration")
              .pattern("[0-9]{1,4}, ?[0-9]{1,4}", "minutes min,max such as 90,330"),
          Param::string("includeConnections").pattern(kAirports, "comma-joined IATA airport codes"),
          Param::string("excludeConnections").pattern(kAirports, "comma-joined IATA airport codes"),
          Param::integer("maxDuration").range(1, std::nullopt),
          Param::boolean("deepSearch"),
          Param::string("departureToken").max_length(4096),
          Param::string("bookingToken").max_length(4096),
      };
      std::vector<Rule> rules = {
          Rule::exclusive({"includeAirlines", "excludeAirlines"}),
          Rule::exclusive({"departureToken", "bookingToken"}),
          Rule::custom([](const ValidatedParams& v) {
            const std::string type = v.string("type").value_or("roundTrip");
            if (type == "roundTrip" && !v.has("returnDate")) throw missing_parameter("returnDate");
            if (type == "multiCity") {
              if (!v.has("multiCityJson")) throw missing_parameter("multiCityJson");
              multi_city_legs(*v.string("multiCityJson"));
            }
          }),
          // The page holds no token of the hosted service's form and none of its own that a
          // later request could redeem verifiably (flights.md): refused by name, never guessed.
          Rule::custom([](const ValidatedParams& v) {
            for (const char* name : {"departureToken", "bookingToken"}) {
              if (auto token = v.string(name)) {
                throw invalid_parameter(
                    name, std::string(name) + " '" + *token +
                              "' cannot be served: gleaner reads the results page of a search "
                              "and mints no tokens for its return legs or booking options");
              }
            }
          }),
      };
      return Parameters(std::move(p), std::move(rules));
    }();
    return params;
  }

  PageRequest build_request(const ValidatedParams& params) const override {
    UrlBuilder url("https://www.google.com/travel/flights/search");
    url.add("tfs", encode_flights_tfs(search_of(params)));
    if (auto currency = params.string("currency")) url.add("curr", *currency);
    if (auto hl = params.string("hl")) url.add("hl", language_tag(*hl));
    if (auto gl = params.string("gl")) url.add("gl", lower(*gl));
    PageRequest request;
    request.url = url.str();
    request.wait = WaitFor::load();
    return request;
  }

  json shape(const json& output, const ValidatedParams& params) const override {
    json body = shape_flights(output, params.string("type").value_or("roundTrip"));
    filter(body, params);
    return body;
  }

  bool has_content(const json& body) const override { return body.contains("bestFlights"); }

 private:
  // The filters applied to what the page lists (the page's own URL filters are not verified on
  // a real page): an itinerary that breaks one is left out.
  static void filter(json& body, const ValidatedParams& params) {
    const auto stops = max_stops_of(params);
    const auto max_price = params.number("maxPrice");
    const auto max_duration = params.integer("maxDuration");
    const auto include = params.string("includeAirlines");
    const auto exclude = params.string("excludeAirlines");
    const auto via = params.string("includeConnections");
    const auto not_via = params.string("excludeConnections");
    std::optional<std::pair<long long, long long>> layover;
    if (auto l = params.string("layoverDuration")) {
      const auto parts = split(*l, ',');
      layover = {std::stoll(parts[0]), std::stoll(parts[1])};
    }
    std::vector<long long> hours;
    if (auto t = params.string("outboundTimes")) {
      for (const std::string& h : split(*t, ',')) hours.push_back(std::stoll(h));
    }
    const auto listed = [](const std::optional<std::string>& list, const std::string& code) {
      for (const std::string& c : split(*list, ',')) {
        if (lower(c) == lower(code)) return true;
      }
      return false;
    };
    const auto hour_of = [](const json& airport) {
      const std::string time = airport.value("time", "");
      return time.size() >= 13 ? std::stoll(time.substr(11, 2)) : -1;
    };
    const auto keep = [&](const json& item) {
      const json& legs = item["flights"];
      if (stops && legs.size() > static_cast<std::size_t>(*stops) + 1) return false;
      if (max_price && item.contains("price") && item["price"].get<double>() > *max_price) return false;
      if (max_duration && item.value("totalDuration", 0LL) > *max_duration) return false;
      for (const json& leg : legs) {
        const std::string code = leg.value("flightNumber", "").substr(0, 2);
        if (include && !listed(include, code)) return false;
        if (exclude && listed(exclude, code)) return false;
      }
      for (const json& lay : item.value("layovers", json::array())) {
        const std::string id = lay.value("id", "");
        if (via && !listed(via, id)) return false;
        if (not_via && listed(not_via, id)) return false;
        const long long minutes = lay.value("duration", 0LL);
        if (layover && (minutes < layover->first || minutes > layover->second)) return false;
      }
      if (hours.size() >= 2 && !legs.empty()) {
        const long long dep = hour_of(legs.front()["departureAirport"]);
        if (dep < hours[0] || dep > hours[1]) return false;
        if (hours.size() == 4) {
          const long long arr = hour_of(legs.back()["arrivalAirport"]);
          if (arr < hours[2] || arr > hours[3]) return false;
        }
      }
      return true;
    };
    const std::string sort_by = params.string("sortBy").value_or("topFlights");
    for (const char* list : {"bestFlights", "otherFlights"}) {
      if (!body.contains(list)) continue;
      json kept = json::array();
      for (json& item : body[list]) {
        if (keep(item)) kept.push_back(std::move(item));
      }
      if (sort_by != "topFlights") {
        std::stable_sort(kept.begin(), kept.end(), [&](const json& a, const json& b) {
          return sort_key(a, sort_by) < sort_key(b, sort_by);
        });
      }
      body[list] = std::move(kept);
    }
  }

  // What sortBy orders an itinerary by (each list keeps its own, the page's order for
  // topFlights): its price, minutes, first departure or last arrival ("YYYY-MM-DD HH:MM" sorts
  // as text), or grams of CO2; an itinerary without it goes last.
  static std::pair<double, std::string> sort_key(const json& item, const std::string& by) {
    constexpr double kLast = 1e300;
    const auto number = [&](const json& v) { return v.is_number() ? v.get<double>() : kLast; };
    const json& legs = item["flights"];
    if (by == "price") return {number(item.value("price", json())), ""};
    if (by == "duration") return {number(item.value("totalDuration", json())), ""};
    if (by == "emissions") {
      return {number(item.value("carbonEmissions", json::object()).value("thisFlight", json())), ""};
    }
    if (legs.empty()) return {kLast, ""};
    if (by == "departureTime") return {0, legs.front()["departureAirport"].value("time", "~")};
    return {0, legs.back()["arrivalAirport"].value("time", "~")};  // arrivalTime
  }
};

}  // namespace

std::string flights_token_currency(const std::string& token) {
  std::string url_safe = token;
  for (char& c : url_safe) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  const auto bytes = base64url_decode(url_safe);
  if (!bytes) return "";
  const auto fields = read_protobuf(*bytes);
  if (!fields) return "";
  for (const ProtoField& f : *fields) {
    if (f.number != 3 || f.is_varint) continue;
    const auto money = read_protobuf(f.bytes);
    if (!money) continue;
    for (const ProtoField& m : *money) {
      if (m.number == 3 && !m.is_varint && m.bytes.size() == 3) return m.bytes;
    }
  }
  return "";
}

json shape_flights(const json& page, const std::string& type) {
  json body = json::object();
  if (!page.is_object() || !page.contains("best")) return body;
  const std::string trip = trip_name(type);
  std::string currency;
  for (const char* list : {"best", "other"}) {
    json items = json::array();
    if (const json& entries = at(page, {list}); entries.is_array()) {
      for (const json& e : entries) {
        items.push_back(itinerary_of(e, trip));
        if (currency.empty()) currency = flights_token_currency(str(at(e, {1, 1})));
      }
    }
    body[std::string(list) + "Flights"] = std::move(items);
  }
  put_text(body, "currency", currency);

  // [level (2 typical), [null, lowest], .., .., [null, typical low], [null, typical high], ..,
  //  .., .., .., [[[ms, price], ...]]]
  const json& ins = at(page, {"insights"});
  if (at(ins, {1, 1}).is_number()) {
    json p = json::object();
    p["lowestPrice"] = at(ins, {1, 1});
    const json& level = at(ins, {0});
    if (level.is_number_integer()) {
      static const char* kLevels[] = {"", "low", "typical", "high"};
      const int l = level.get<int>();
      if (l >= 1 && l <= 3) p["priceLevel"] = kLevels[l];
    }
    if (at(ins, {4, 1}).is_number() && at(ins, {5, 1}).is_number()) {
      p["typicalPriceRange"] = json::array({at(ins, {4, 1}), at(ins, {5, 1})});
    }
    json history = json::array();
    if (const json& h = at(ins, {10, 0}); h.is_array()) {
      for (const json& point : h) {
        if (at(point, {0}).is_number() && at(point, {1}).is_number()) {
          history.push_back({at(point, {0}).get<long long>() / 1000, at(point, {1})});
        }
      }
    }
    if (!history.empty()) p["priceHistory"] = std::move(history);
    body["priceInsights"] = std::move(p);
  }

  json airports = json::array();
  if (const json& legs = at(page, {"places"}); legs.is_array()) {
    for (const json& leg : legs) {
      airports.push_back({{"departure", places_of_leg(at(leg, {0}))},
                          {"arrival", places_of_leg(at(leg, {1}))}});
    }
  }
  body["airports"] = std::move(airports);
  return body;
}

const Endpoint& flights_endpoint() {
  return the_endpoint<FlightsEndpoint>();
}

}  // namespace gleaner::extract::google
