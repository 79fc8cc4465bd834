#pragma once
// GET /scrape/homes/listing: one page of a Redfin search, made the way the site's search box makes
// it. First the box's location autocomplete (`/stingray/do/location-autocomplete?location=…&v=2`)
// resolves `keyword` to a site URL; a place opens its region page with the filters as the site's
// `/filter/` segment and `page-N`, and listing.js reads the site's `gis` search answer the page was
// rendered with (`__reactServerState` data cache, `{}&&`-prefixed JSON, payload.homes[]); an
// address or a single home opens its property page, read as GET /scrape/homes/property reads it.
#include <string>

#include "extract/endpoint.h"

namespace gleaner::extract::redfin {

/// The listing endpoint (registered by extract/sites/redfin/CMakeLists.txt).
const Endpoint& listing_endpoint();

/// The location autocomplete request the search box sends for `keyword` (redfin.com).
std::string autocomplete_url(const std::string& keyword);

/// The search page for a region of the site: `origin` ("https://www.redfin.com"), the region's
/// path from the autocomplete answer ("/city/16163/WA/Seattle"), then the listing type's page,
/// the `/filter/` segment of the request's filters and `/page-N`.
std::string search_url(const std::string& origin, const std::string& region_path,
                       const ValidatedParams& params);

/// The `/filter/` segment's items for the request, in the order the URL carries them
/// ("property-type=house+condo", "min-price=500k", ...).
std::vector<std::string> filter_items(const ValidatedParams& params);

}  // namespace gleaner::extract::redfin
