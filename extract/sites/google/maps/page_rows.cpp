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

/// A website link as the page gives it: direct, or through the site's own redirect
/// (`https://www.google.com/url?q=<target>&…`).
std::string website_of(const std::string& href) {
  static const Regex redirect(R"(^https?://www\.google\.[a-z.]+/url\?(?:.*&)?q=([^&]+))");
  RegexMatch m;
  if (redirect.search(href, m)) return percent_decode(m[1].str());
  return href;
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

std::vector<ListedPlace> places_from_listing(const json& listing) {
  std::vector<ListedPlace> rows;
  const json& places = listing.is_object() ? listing.value("places", json::array()) : json();
  if (!places.is_array()) return rows;
  for (const json& place : places) {
    if (!place.is_object()) continue;
    json row = json::object();
    put(row, "name", text_of(place, "name"));
    if (!row.contains("name")) continue;
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
    rows.push_back({std::move(row), std::move(link)});
  }
  return rows;
}

std::optional<json> row_from_place_page(const json& page) {
  if (!page.is_object() || !page.value("found", false)) return std::nullopt;
  json row = json::object();
  put(row, "name", text_of(page, "name"));
  if (!row.contains("name")) return std::nullopt;
  if (const json& categories = page.value("categories", json::array());
      categories.is_array() && !categories.empty()) {
    row["categories"] = categories;
  }
  put(row, "address", labelled_value(text_of(page, "address")));
  put(row, "phone", labelled_value(text_of(page, "phone")));
  put(row, "website", website_of(text_of(page, "website")));
  add_rating(row, text_of(page, "rating"));
  if (auto count = extract::parse_count(text_of(page, "reviews"))) row["reviewCount"] = *count;
  if (const json& hours = page.value("hours", json::array()); hours.is_array() && !hours.empty()) {
    row["openingHours"] = hours;
  }
  add_link_data(row, text_of(page, "url"));
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
  return row;
}

json merge_rows(json listing, const json& details) {
  for (const auto& [key, value] : details.items()) listing[key] = value;
  return listing;
}

}  // namespace gleaner::extract::google::maps
