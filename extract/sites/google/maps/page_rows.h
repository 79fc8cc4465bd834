#pragma once
// Rows from the rendered maps pages: what maps_search.js and maps_place.js read (labels as the
// page writes them, a place link's data segment) shaped into job rows (extract/sites/google/maps/
// place.h fields), and the same readings in the hosted service's shape (hosted.md #8 and #10) for
// GET /scrape/google-maps/search and /place. Pure, so it is unit-tested on the scripts' recorded
// output.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract/sites/google/maps/place.h"

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

/// One entry of a feed read by maps_search.js; nullopt without a name.
std::optional<ListedPlace> listed_place(const nlohmann::json& entry);

/// The results of a feed read by maps_search.js, in the order listed; entries without a name are
/// left out.
std::vector<ListedPlace> places_from_listing(const nlohmann::json& listing);

/// The row of a place page read by maps_place.js; nullopt when the page shows no place. Where the
/// page carried Maps' own arrays, they fill what the markup lacks.
std::optional<nlohmann::json> row_from_place_page(const nlohmann::json& page);

/// The Knowledge Graph id a place link carries: `!16s%2Fg%2F11g6blzg5x` → "/g/11g6blzg5x",
/// `!16zL20vMDJfNG1s` (base64) → "/m/02_4ml"; "" without one.
std::string kgmid_of(std::string_view href);

/// A feed entry in the hosted service's `localResults[]` shape (hosted.md #10): title, placeId,
/// dataId, kgmid, address, gpsCoordinates, rating, reviews, type, types, and what the card's
/// other lines show (openState, phone, description), thumbnail; `position` is the caller's.
/// nullopt without a name.
std::optional<nlohmann::json> local_result(const nlohmann::json& entry);

/// A result of the site's own search answer (search_results()) in the same `localResults[]` shape
/// and meanings as local_result() gives a card: `address` is the card's address line where the
/// answer has it (else the full address), `type` the first category; the answer says more than a
/// card in `types` (every category of the place), `website`, `thumbnail` (the place's first photo).
nlohmann::json local_result(const SearchResult& result);

/// A place page in the hosted service's `placeResults` shape (hosted.md #8): the fields of a
/// search result plus website, workingHours {days [{day, time}]}; `place_id`, the id the page
/// was asked for, stands where the page shows none. nullopt when the page shows no place.
std::optional<nlohmann::json> place_result(const nlohmann::json& page, const std::string& place_id);

/// `listing` completed by `details`: what the place page shows wins, the list fills the rest.
nlohmann::json merge_rows(nlohmann::json listing, const nlohmann::json& details);

}  // namespace gleaner::extract::google::maps
