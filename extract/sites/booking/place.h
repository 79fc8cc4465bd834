#pragma once
// GET /scrape/stays/place: one Booking.com property for a stay. place.js reads the page (JSON-LD
// Hotel, the visible review score, categories, facilities, house rules, photos, rooms); this
// shapes it. The stay's parameters are those of extract/sites/booking/stay.h.
#include "extract/endpoint.h"

namespace gleaner::extract::booking {

/// The place endpoint (registered by extract/sites/booking/CMakeLists.txt).
const Endpoint& place_endpoint();

}  // namespace gleaner::extract::booking
