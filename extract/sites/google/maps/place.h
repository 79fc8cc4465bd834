#pragma once
// Shaping of Google Maps' own data into job rows (one row per place). Maps answers a search
// (`https://www.google.com/search?tbm=map&...`) and a place (`/maps/preview/place`, or the string
// at APP_INITIALIZATION_STATE[3][6] of a place page) with nested arrays, not objects, behind a
// `)]}'` line. The positions read here are those seen in the recorded responses
// (shared/fixtures/README.md, "Maps"); they are kept in this one file so they can be mended.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::extract::google::maps {

/// The body without the `)]}'` anti-JSON-hijacking line Maps puts first, parsed. Throws
/// Error(UpstreamError) when the rest is not JSON.
nlohmann::json parse_maps_body(std::string_view body);

/// A row from one business record (`[14]` of a search result, `[6]` of a place body): name,
/// categories, address, phone, website, rating, reviewCount, latitude, longitude, placeId,
/// openingHours, mapsUrl. Absent data is an absent key. None when the record has no name.
std::optional<nlohmann::json> place_from_business(const nlohmann::json& business);

/// One result of a tbm=map search answer: its place's row (place_from_business()) and what the
/// feed's card shows besides.
struct SearchResult {
  nlohmann::json row;
  std::string short_address;  ///< the card's address line ("N2 immeuble 34.av des FAR.FES MAROC")
  std::string open_state;     ///< the card's opening line ("Ouvert 24h/24")
  std::string kgmid;          ///< "/g/11g6blzg5x"
  std::string thumbnail;      ///< the place's first photo
  bool sponsored = false;     ///< an ad, listed where the feed shows it
};

/// The results of a tbm=map search answer, ads included, in the order the feed lists them. Reads
/// both layouts seen: results at [0][1][i][14] (gosom's answer, 2024-12), and at [64][i] (pages of
/// 2025-07 and 2025-08: a result's record at [1], an ad's at [5][15]).
std::vector<SearchResult> search_results(const nlohmann::json& search);

/// The places of a tbm=map search body, in the order listed (the rows of search_results()).
std::vector<nlohmann::json> places_from_search(const nlohmann::json& search);

/// The tbm=map search answer a Maps search page carries inline, as served (the string at
/// APP_INITIALIZATION_STATE[3][2], fr-MA and en-IN pages of 2025), parsed; null when it has none.
nlohmann::json search_answer_in_page(std::string_view html);

/// The address of the search answer a Maps search page names in its head for its scripts to
/// fetch (`<link rel="preload" as="fetch" href="/search?tbm=map&…">`, pages of 2026), absolute at
/// `page_url`; "" without one.
std::string search_answer_link(std::string_view html, const std::string& page_url);

/// The place of a place body (`/maps/preview/place`, APP_INITIALIZATION_STATE[3][6]).
std::optional<nlohmann::json> place_from_place_body(const nlohmann::json& place);

/// What identifies a place across searches: its place id, else its feature id, else name and
/// address. Rows with the same key are delivered once per job.
std::string place_key(const nlohmann::json& row);

/// A website as Maps gives it: direct, or through Google's own redirect, absolute in a rendered
/// page (`https://www.google.com/url?q=<target>&…`) or relative in the arrays of a page as served
/// (`/url?q=https://www.instagram.com/…&opi=…`, 2025): then its target.
std::string website_target(const std::string& url);

/// The public Maps URL of a place (Maps URLs API: search by name with the place id).
std::string maps_url(const std::string& name, const std::string& place_id);

}  // namespace gleaner::extract::google::maps
