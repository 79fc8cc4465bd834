#pragma once
// GET /scrape/careers/listing: one page of a Glassdoor job search. listing.js reads the page's
// Apollo cache (`__NEXT_DATA__` → props.pageProps.apolloCache, ROOT_QUERY `jobListings(...)` →
// JobListingSearchResults) and, on pages of the older layout, the `li.jl` job cards; this shapes
// them. `nextPageToken` is the service's own: the search and its filters with the next page, so a
// token is enough on its own.
#include <string>

#include "extract/endpoint.h"

namespace gleaner::extract::glassdoor {

/// The listing endpoint (registered by extract/sites/glassdoor/CMakeLists.txt).
const Endpoint& listing_endpoint();

}  // namespace gleaner::extract::glassdoor
