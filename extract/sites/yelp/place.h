#pragma once
// GET /scrape/local/place: one Yelp business page (/biz/<alias or id>). place.js reads the page's
// schema.org JSON-LD (LocalBusiness or a subtype) and, from the markup, the name, categories, hours
// table, amenities and photos; this shapes them.
#include "extract/endpoint.h"

namespace gleaner::extract::yelp {

/// The place endpoint (registered by extract/sites/yelp/CMakeLists.txt).
const Endpoint& place_endpoint();

}  // namespace gleaner::extract::yelp
