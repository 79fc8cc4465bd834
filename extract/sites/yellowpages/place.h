#pragma once
// GET /scrape/bizdir/place: one business page of yellowpages.com (its `/mip/` pages). place.js
// reads the page's LocalBusiness JSON-LD and what only the markup shows (years in business,
// payment methods, e-mail, photos); this shapes them.
#include "extract/endpoint.h"

namespace gleaner::extract::yellowpages {

/// The place endpoint (registered by extract/sites/yellowpages/CMakeLists.txt).
const Endpoint& place_endpoint();

}  // namespace gleaner::extract::yellowpages
