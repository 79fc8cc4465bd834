#pragma once
// Rows from the rendered maps pages: what search.js and place.js read (labels as the page writes
// them, a place link's data segment) shaped into job rows (extract/sites/google/maps/place.h fields). Pure, so
// it is unit-tested on the scripts' recorded output.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::extract::google::maps {

/// Adds what a place link carries in its data segment: feature id (`!1s0x…:0x…`), latitude and
/// longitude (`!3d…!4d…`, else `@lat,lng`), place id (`!19s…`) and the mapsUrl that goes with it.
void add_link_data(nlohmann::json& row, std::string_view href);

/// One result of a results feed: what the list shows (name, category, short address, rating,
/// review count, the link's data) and the link to the place's page.
struct ListedPlace {
  nlohmann::json row;
  std::string link;
};

/// The results of a feed read by search.js, in the order listed; entries without a name are
/// left out.
std::vector<ListedPlace> places_from_listing(const nlohmann::json& listing);

/// The row of a place page read by place.js; nullopt when the page shows no place. Where the
/// page carried Maps' own arrays, they fill what the markup lacks.
std::optional<nlohmann::json> row_from_place_page(const nlohmann::json& page);

/// `listing` completed by `details`: what the place page shows wins, the list fills the rest.
nlohmann::json merge_rows(nlohmann::json listing, const nlohmann::json& details);

}  // namespace gleaner::extract::google::maps
