#pragma once
// GET /scrape/estate/listing: one Zillow search results page. listing.js reads the page's Next.js
// data (`__NEXT_DATA__` → props.pageProps.searchPageState: cat1.searchResults.listResults and
// cat1.searchList) and, where a page has no such data, its property cards; this shapes them. The
// search is the one the site's search box makes: the keyword as `usersSearchTerm` and the filters
// in `searchQueryState`.
#include "extract/endpoint.h"

namespace gleaner::extract::zillow {

/// The listing endpoint (registered by extract/sites/zillow/CMakeLists.txt).
const Endpoint& listing_endpoint();

}  // namespace gleaner::extract::zillow
