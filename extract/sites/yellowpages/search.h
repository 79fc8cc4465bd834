#pragma once
// GET /scrape/bizdir/search: one page of a Yellow Pages search, on yellowpages.com or the
// Australian directory yellowpages.com.au. search.js reads every listing's JSON-LD, the
// Australian directory's listing views, and the result blocks' markup (ads and years in business
// are only there); this shapes them in page order.
#include "extract/endpoint.h"

namespace gleaner::extract::yellowpages {

/// The search endpoint (registered by extract/sites/yellowpages/CMakeLists.txt).
const Endpoint& search_endpoint();

}  // namespace gleaner::extract::yellowpages
