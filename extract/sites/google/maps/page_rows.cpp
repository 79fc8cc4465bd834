#include "extract/sites/google/maps/page_rows.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/percent.h"
#include "core/regex.h"
#include "extract/sites/common/text.h"
#include "extract/sites/google/maps/place.h"

namespace gleaner::extract::google::maps {
namespace {

using nlohmann::json;

std::string text_of(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string()
             ? extract::collapse_whitespace(it->get<std::string>())
             : std::string();
}

void put(json& row, const char* key, std::string value) {
  if (!value.empty()) row[key] = std::move(value);
}

/// "Address: 2800 E Observatory Rd, …" → "2800 E Observatory Rd, …" (the page labels each detail
/// for screen readers; the value follows the first ": ").
std::string labelled_value(const std::string& label) {
  const auto colon = label.find(": ");
  return extract::collapse_whitespace(colon == std::string::npos ? label : label.substr(colon + 2));
}

/// The rating and review count of a label such as "4.8 stars 91,790 Reviews" ("4,8 Sterne 91.790
/// Rezensionen"): its first number (a rating is out of 5) and the one after it, whatever the
/// words of the page's language around them.
void add_rating(json& row, const std::string& label) {
  const std::vector<double> numbers = extract::parse_numbers(label);
  if (numbers.empty() || numbers[0] > 5) return;
  row["rating"] = numbers[0];
  if (numbers.size() > 1 && numbers[1] >= 0) row["reviewCount"] = std::llround(numbers[1]);
}

/// "0690-402020", "(213) 473-0800", "+212 5 35 00 00 00": a phone number as a result card
/// prints it, whatever the language around it.
bool looks_like_phone(const std::string& text) {
  static const Regex phone(R"(^\+?[0-9 ().-]{6,20}$)");
  int digits = 0;
  for (char c : text) digits += (c >= '0' && c <= '9') ? 1 : 0;
  return digits >= 6 && phone.search(text);
}

/// A job row in the hosted service's names: title, placeId, dataId, address, gpsCoordinates,
/// rating, reviews, type, types, phone, website.
json hosted_fields(const json& row) {
  json out = json::object();
  const auto copy = [&](const char* from, const char* to) {
    if (const auto it = row.find(from); it != row.end()) out[to] = *it;
  };
  copy("name", "title");
  copy("placeId", "placeId");
  copy("featureId", "dataId");
  copy("address", "address");
  if (row.contains("latitude") && row.contains("longitude")) {
    out["gpsCoordinates"] = {{"latitude", row["latitude"]}, {"longitude", row["longitude"]}};
  }
  copy("rating", "rating");
  copy("reviewCount", "reviews");
  if (const auto it = row.find("categories"); it != row.end() && it->is_array() && !it->empty()) {
    out["type"] = (*it)[0];
    out["types"] = *it;
  }
  copy("phone", "phone");
  copy("website", "website");
  return out;
}

}  // namespace

void add_link_data(json& row, std::string_view href_view) {
  const std::string href(href_view);
  static const Regex feature(R"(!1s(0x[0-9a-fA-F]+:0x[0-9a-fA-F]+))");
  static const Regex coordinates(R"(!3d(-?\d+(?:\.\d+)?)!4d(-?\d+(?:\.\d+)?))");
  static const Regex at(R"(@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?))");
  static const Regex place_id(R"(!19s([^!?&/#]+))");
  RegexMatch m;
  if (feature.search(href, m)) row["featureId"] = m[1].str();
  if (coordinates.search(href, m) || at.search(href, m)) {
    row["latitude"] = std::stod(m[1].str());
    row["longitude"] = std::stod(m[2].str());
  }
  if (place_id.search(href, m)) row["placeId"] = percent_decode(m[1].str());
  if (row.contains("placeId") && row.contains("name")) {
    row["mapsUrl"] = maps_url(row["name"].get<std::string>(), row["placeId"].get<std::string>());
  }
}

std::optional<ListedPlace> listed_place(const json& place) {
  if (!place.is_object()) return std::nullopt;
  json row = json::object();
  put(row, "name", text_of(place, "name"));
  if (!row.contains("name")) return std::nullopt;
  // The first line of details is "<category> · <short address>" (the address may be absent).
  const json& lines = place.value("lines", json::array());
  if (lines.is_array() && !lines.empty() && lines[0].is_array() && !lines[0].empty()) {
    const json& parts = lines[0];
    if (parts[0].is_string()) row["categories"] = json::array({parts[0]});
    if (parts.size() >= 2 && parts.back().is_string()) put(row, "address", parts.back());
  }
  add_rating(row, text_of(place, "rating"));
  std::string link = text_of(place, "href");
  add_link_data(row, link);
  return ListedPlace{std::move(row), std::move(link)};
}

std::vector<ListedPlace> places_from_listing(const json& listing) {
  std::vector<ListedPlace> rows;
  const json& places = listing.is_object() ? listing.value("places", json::array()) : json();
  if (!places.is_array()) return rows;
  for (const json& place : places) {
    if (auto listed = listed_place(place)) rows.push_back(std::move(*listed));
  }
  return rows;
}

std::optional<json> row_from_place_page(const json& page) {
  if (!page.is_object() || !page.value("found", false)) return std::nullopt;
  json row = json::object();
  put(row, "name", text_of(page, "name"));
  if (const json& categories = page.value("categories", json::array());
      categories.is_array() && !categories.empty()) {
    row["categories"] = categories;
  }
  put(row, "address", labelled_value(text_of(page, "address")));
  put(row, "phone", labelled_value(text_of(page, "phone")));
  put(row, "website", website_target(text_of(page, "website")));
  add_rating(row, text_of(page, "rating"));
  if (auto count = extract::parse_count(text_of(page, "reviews"))) row["reviewCount"] = *count;
  if (const json& hours = page.value("hours", json::array()); hours.is_array() && !hours.empty()) {
    row["openingHours"] = hours;
  }
  add_link_data(row, text_of(page, "url"));
  // A page opened by another address (`?q=place_id:…`) keeps its own link for its script-less
  // version: the same data segment.
  if (!row.contains("featureId")) add_link_data(row, text_of(page, "selfLink"));
  // Maps' own arrays, where the page still has them, fill what the markup did not show.
  if (const auto it = page.find("appState"); it != page.end() && it->is_string()) {
    try {
      if (auto arrays = place_from_place_body(parse_maps_body(it->get<std::string>()))) {
        row = merge_rows(std::move(*arrays), row);
      }
    } catch (const Error&) {
      // Not the data we know: the markup's row stands.
    }
  }
  // A page without its panel (as served, before its scripts ran) is named by its arrays alone.
  if (!row.contains("name")) return std::nullopt;
  return row;
}

json merge_rows(json listing, const json& details) {
  for (const auto& [key, value] : details.items()) listing[key] = value;
  return listing;
}

std::string kgmid_of(std::string_view href_view) {
  const std::string href(href_view);
  static const Regex plain(R"(!16s([^!?&/#]+))");
  static const Regex encoded(R"(!16z([A-Za-z0-9_-]+))");
  RegexMatch m;
  if (plain.search(href, m)) {
    std::string id = percent_decode(m[1].str());
    if (id.starts_with("/")) return id;
  }
  if (encoded.search(href, m)) {
    if (auto id = base64url_decode(m[1].str()); id && id->starts_with("/")) return *id;
  }
  return "";
}

namespace {

/// What a result card shows besides its place's row.
struct Card {
  std::string kgmid;
  std::string open_state;
  std::string phone;
  std::string description;
  std::string thumbnail;
  bool sponsored = false;
};

/// The one `localResults[]` shaping of both roads: the row in the hosted service's names, then
/// what the card shows besides.
json card_result(const json& row, const Card& card) {
  json out = hosted_fields(row);
  for (const char* key : {"title", "type"}) {
    if (const auto it = out.find(key); it != out.end() && it->is_string()) {
      *it = extract::collapse_whitespace(it->get<std::string>());
    }
  }
  if (const auto it = out.find("types"); it != out.end() && it->is_array()) {
    for (json& type : *it) {
      if (type.is_string()) type = extract::collapse_whitespace(type.get<std::string>());
    }
  }
  put(out, "kgmid", card.kgmid);
  put(out, "openState", card.open_state);
  if (!out.contains("phone")) put(out, "phone", card.phone);
  put(out, "description", card.description);
  put(out, "thumbnail", card.thumbnail);
  if (card.sponsored) out["sponsored"] = true;
  return out;
}

}  // namespace

std::optional<json> local_result(const json& entry) {
  std::optional<ListedPlace> listed = listed_place(entry);
  if (!listed) return std::nullopt;
  Card card;
  card.kgmid = kgmid_of(listed->link);
  card.open_state = text_of(entry, "openState");
  // The lines after "<category> · <address>": when it opens and a phone number ("Ouvert 24h/24 ·
  // 0690-402020"), a line of its own describing the place ("World-class art collection").
  const json& lines = entry.value("lines", json::array());
  for (std::size_t i = 1; lines.is_array() && i < lines.size(); ++i) {
    if (!lines[i].is_array()) continue;
    std::vector<std::string> other;  // neither when it opens nor a phone number
    for (const json& part : lines[i]) {
      if (!part.is_string()) continue;
      const std::string text = extract::collapse_whitespace(part.get<std::string>());
      if (looks_like_phone(text)) {
        if (card.phone.empty()) card.phone = text;
      } else if (text != extract::collapse_whitespace(card.open_state)) {
        other.push_back(text);
      }
    }
    if (lines[i].size() == 1 && other.size() == 1 && card.description.empty()) {
      card.description = other[0];
    }
  }
  card.thumbnail = text_of(entry, "thumbnail");
  card.sponsored = entry.value("sponsored", false);
  return card_result(listed->row, card);
}

json local_result(const SearchResult& result) {
  json row = result.row;
  if (!result.short_address.empty()) row["address"] = result.short_address;
  Card card;
  card.kgmid = result.kgmid;
  card.open_state = extract::collapse_whitespace(result.open_state);
  card.thumbnail = result.thumbnail;
  card.sponsored = result.sponsored;
  return card_result(row, card);
}

std::optional<json> place_result(const json& page, const std::string& place_id) {
  std::optional<json> row = row_from_place_page(page);
  if (!row) return std::nullopt;
  json out = hosted_fields(*row);
  if (!out.contains("placeId") && !place_id.empty()) out["placeId"] = place_id;
  std::string kgmid = kgmid_of(text_of(page, "url"));
  if (kgmid.empty()) kgmid = kgmid_of(text_of(page, "selfLink"));
  put(out, "kgmid", kgmid);
  put(out, "openState", text_of(page, "openState"));
  if (const auto it = row->find("openingHours"); it != row->end() && it->is_array()) {
    json days = json::array();
    for (const json& day : *it) {
      std::string time;
      for (const json& range : day.value("hours", json::array())) {
        if (range.is_string()) time += (time.empty() ? "" : ", ") + range.get<std::string>();
      }
      days.push_back({{"day", day.value("day", "")}, {"time", time}});
    }
    out["workingHours"] = {{"days", std::move(days)}};
  }
  put(out, "thumbnail", text_of(page, "thumbnail"));
  return out;
}

}  // namespace gleaner::extract::google::maps
