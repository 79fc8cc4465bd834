#include "extract/sites/google/maps/place.h"

#include "core/error.h"
#include "core/json_depth.h"
#include "core/percent.h"
#include "core/regex.h"
#include "extract/sites/common/text.h"
#include "extract/url.h"

namespace gleaner::extract::google::maps {
namespace {

using nlohmann::json;

/// Positions in a business record, as seen in the recorded responses.
namespace at {
constexpr std::size_t kAddressLines = 2;
constexpr std::size_t kReviews = 4;  // [4][7] rating, [4][8] review count
constexpr std::size_t kRating = 7;
constexpr std::size_t kReviewCount = 8;
constexpr std::size_t kWebsite = 7;      // [7][0]
constexpr std::size_t kCoordinates = 9;  // [9][2] latitude, [9][3] longitude
constexpr std::size_t kLatitude = 2;
constexpr std::size_t kLongitude = 3;
constexpr std::size_t kFeatureId = 10;
constexpr std::size_t kName = 11;
constexpr std::size_t kCategories = 13;
constexpr std::size_t kHours = 34;  // [34][1]: [day, [ranges], ...] per day
constexpr std::size_t kFullAddress = 39;
constexpr std::size_t kPlaceId = 78;
constexpr std::size_t kPhones = 178;       // [178][0][0]
constexpr std::size_t kSearchResults = 1;  // search body [0][1][i][14] (2024)
constexpr std::size_t kResultBusiness = 14;
constexpr std::size_t kSearchEntries = 64;  // search body [64][i] (2025): a result's record at [1],
constexpr std::size_t kEntryBusiness = 1;   // an ad's at [5][15]
constexpr std::size_t kEntryAd = 5;
constexpr std::size_t kAdBusiness = 15;
constexpr std::size_t kOpenLine = 4;        // [34][4][4]: the card's opening line
constexpr std::size_t kOpenLineText = 4;
constexpr std::size_t kKgmid = 89;
constexpr std::size_t kPhotos = 72;         // [72][0][0][6][0]: the first photo's address
constexpr std::size_t kCardAddress = 82;    // [82][1]: the card's address line
constexpr std::size_t kIds = 227;           // [227][0]: feature id, -, -, kgmid, place id (an ad
constexpr std::size_t kIdsKgmid = 3;        // has its ids only there, 2025-07)
constexpr std::size_t kIdsPlaceId = 4;
constexpr std::size_t kPageState = 3;       // APP_INITIALIZATION_STATE[3][2]: the search answer
constexpr std::size_t kPageSearch = 2;
constexpr std::size_t kPlaceBusiness = 6;  // place body [6]
}  // namespace at

/// Where the JSON value that starts at `from` ends (one past it), strings and their escapes
/// skipped; npos when it does not end.
std::size_t end_of_json_value(std::string_view text, std::size_t from) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = from; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

/// The element at `path` if every step exists, else null.
const json& dig(const json& value, std::initializer_list<std::size_t> path) {
  static const json kNull;
  const json* cur = &value;
  for (std::size_t i : path) {
    if (!cur->is_array() || i >= cur->size()) return kNull;
    cur = &(*cur)[i];
  }
  return *cur;
}

void put_string(json& row, const char* key, const json& value) {
  if (value.is_string() && !value.get<std::string>().empty()) row[key] = value;
}

}  // namespace

std::string website_target(const std::string& url) {
  static const Regex redirect(R"(^(?:https?://www\.google\.[a-z.]+)?/url\?(?:.*&)?q=([^&]+))");
  RegexMatch m;
  if (redirect.search(url, m)) return percent_decode(m[1].str());
  return url;
}

json parse_maps_body(std::string_view body) {
  constexpr std::string_view kGuard = ")]}'";
  if (body.substr(0, kGuard.size()) == kGuard) body.remove_prefix(kGuard.size());
  json parsed = parse_json_within_depth(body);
  if (parsed.is_discarded()) {
    throw Error(ErrorCode::UpstreamError, "the maps site answered with something other than data",
                "maps response is not JSON");
  }
  return parsed;
}

std::optional<json> place_from_business(const json& b) {
  const json& name = dig(b, {at::kName});
  if (!name.is_string() || name.get<std::string>().empty()) return std::nullopt;
  json row = json::object();
  row["name"] = name;
  const json& categories = dig(b, {at::kCategories});
  if (categories.is_array()) {
    json list = json::array();
    for (const json& c : categories) {
      if (c.is_string()) list.push_back(c);
    }
    if (!list.empty()) row["categories"] = list;
  }
  const json& full = dig(b, {at::kFullAddress});
  if (full.is_string() && !full.get<std::string>().empty()) {
    row["address"] = full;
  } else if (const json& lines = dig(b, {at::kAddressLines}); lines.is_array()) {
    std::string joined;
    for (const json& line : lines) {
      if (!line.is_string()) continue;
      if (!joined.empty()) joined += ", ";
      joined += line.get<std::string>();
    }
    if (!joined.empty()) row["address"] = joined;
  }
  put_string(row, "phone", dig(b, {at::kPhones, 0, 0}));
  if (const json& site = dig(b, {at::kWebsite, 0}); site.is_string()) {
    put_string(row, "website", website_target(site.get<std::string>()));
  }
  if (const json& r = dig(b, {at::kReviews, at::kRating}); r.is_number()) row["rating"] = r;
  if (const json& n = dig(b, {at::kReviews, at::kReviewCount}); n.is_number_integer()) {
    row["reviewCount"] = n;
  }
  const json& lat = dig(b, {at::kCoordinates, at::kLatitude});
  const json& lng = dig(b, {at::kCoordinates, at::kLongitude});
  if (lat.is_number() && lng.is_number()) {
    row["latitude"] = lat;
    row["longitude"] = lng;
  }
  put_string(row, "placeId", dig(b, {at::kPlaceId}));
  if (!row.contains("placeId")) put_string(row, "placeId", dig(b, {at::kIds, 0, at::kIdsPlaceId}));
  put_string(row, "featureId", dig(b, {at::kFeatureId}));
  const json& days = dig(b, {at::kHours, 1});
  if (days.is_array()) {
    json hours = json::array();
    for (const json& day : days) {
      const json& label = dig(day, {0});
      const json& ranges = dig(day, {1});
      if (!label.is_string() || !ranges.is_array()) continue;
      json texts = json::array();
      for (const json& t : ranges) {
        if (t.is_string()) texts.push_back(t);
      }
      hours.push_back({{"day", label}, {"hours", texts}});
    }
    if (!hours.empty()) row["openingHours"] = hours;
  }
  if (row.contains("placeId")) {
    row["mapsUrl"] = maps_url(row["name"].get<std::string>(), row["placeId"].get<std::string>());
  }
  return row;
}

std::vector<SearchResult> search_results(const json& search) {
  std::vector<SearchResult> results;
  const auto add = [&](const json& business, bool sponsored) {
    std::optional<json> row = place_from_business(business);
    if (!row) return;
    SearchResult result;
    result.row = std::move(*row);
    const auto text = [](const json& value) {
      return value.is_string() ? value.get<std::string>() : std::string();
    };
    result.short_address = text(dig(business, {at::kCardAddress, 1}));
    result.open_state = text(dig(business, {at::kHours, at::kOpenLine, at::kOpenLineText}));
    result.kgmid = text(dig(business, {at::kKgmid}));
    if (result.kgmid.empty()) result.kgmid = text(dig(business, {at::kIds, 0, at::kIdsKgmid}));
    result.thumbnail = text(dig(business, {at::kPhotos, 0, 0, 6, 0}));
    result.sponsored = sponsored;
    results.push_back(std::move(result));
  };
  if (const json& entries = dig(search, {at::kSearchEntries}); entries.is_array()) {
    for (const json& entry : entries) {
      if (const json& ad = dig(entry, {at::kEntryAd, at::kAdBusiness}); ad.is_array()) {
        add(ad, true);
      } else {
        add(dig(entry, {at::kEntryBusiness}), false);
      }
    }
  }
  if (!results.empty()) return results;
  if (const json& listed = dig(search, {0, at::kSearchResults}); listed.is_array()) {
    for (const json& result : listed) add(dig(result, {at::kResultBusiness}), false);
  }
  return results;
}

std::vector<json> places_from_search(const json& search) {
  std::vector<json> places;
  for (SearchResult& result : search_results(search)) places.push_back(std::move(result.row));
  return places;
}

json search_answer_in_page(std::string_view html) {
  constexpr std::string_view kState = "APP_INITIALIZATION_STATE=";
  const std::size_t at_state = html.find(kState);
  if (at_state == std::string_view::npos) return nullptr;
  const std::size_t from = at_state + kState.size();
  const std::size_t end = end_of_json_value(html, from);
  if (end == std::string_view::npos) return nullptr;
  const json state = parse_json_within_depth(html.substr(from, end - from));
  const json& answer = dig(state, {at::kPageState, at::kPageSearch});
  if (!answer.is_string()) return nullptr;
  try {
    return parse_maps_body(answer.get<std::string>());
  } catch (const Error&) {
    return nullptr;
  }
}

std::string search_answer_link(std::string_view html, const std::string& page_url) {
  const std::size_t head_end = html.find("</head>");
  const std::string_view head = html.substr(0, head_end);
  static const Regex link(R"(<link\s[^>]*>)");
  static const Regex href(R"re(\shref="([^"]*)")re");
  static const Regex preload(R"(\srel="preload")");
  static const Regex fetched(R"(\sas="fetch")");
  for (const RegexMatch& tag : link.find_all(head)) {
    const std::string_view markup = tag[0].text;
    RegexMatch m;
    if (!preload.search(markup) || !fetched.search(markup) || !href.search(markup, m)) continue;
    const std::string target = extract::decode_basic_entities(m[1].text);
    if (target.starts_with("/search?tbm=map&")) return extract::absolute_url(page_url, target);
  }
  return "";
}

std::optional<json> place_from_place_body(const json& place) {
  return place_from_business(dig(place, {at::kPlaceBusiness}));
}

std::string place_key(const json& row) {
  if (row.contains("placeId")) return "place:" + row["placeId"].get<std::string>();
  if (row.contains("featureId")) return "feature:" + row["featureId"].get<std::string>();
  return "name:" + row.value("name", std::string()) + "|" + row.value("address", std::string());
}

std::string maps_url(const std::string& name, const std::string& place_id) {
  return "https://www.google.com/maps/search/?api=1&query=" + extract::path_encode(name) +
         "&query_place_id=" + extract::path_encode(place_id);
}

}  // namespace gleaner::extract::google::maps
