#pragma once
// GET /scrape/stays/search: one page (25 results) of a Booking.com search. search.js reads the
// property cards (`[data-testid="property-card"]`) and the results heading; this shapes them. The
// stay's parameters are those of extract/sites/booking/stay.h.
#include "extract/endpoint.h"

namespace gleaner::extract::booking {

/// The search endpoint (registered by extract/sites/booking/CMakeLists.txt).
const Endpoint& search_endpoint();

}  // namespace gleaner::extract::booking
