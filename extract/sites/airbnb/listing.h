#pragma once
// GET /scrape/rentals/listing: one page of an Airbnb stays search. listing.js reads the search
// answer the page embeds (`script#data-deferred-state` → niobeMinimalClientData → StaysSearch →
// data.presentation.explore.sections: the listings and the numbered pagination) and, without it,
// the page's schema.org list items; this shapes them. `nextPageToken` is the service's own: the
// search with the next page's offsets, enough on its own.
#include "extract/endpoint.h"

namespace gleaner::extract::airbnb {

/// The listing endpoint (registered by extract/sites/airbnb/CMakeLists.txt).
const Endpoint& listing_endpoint();

}  // namespace gleaner::extract::airbnb
