#pragma once
// GET /scrape/travel/place: one Tripadvisor place (hotel, attraction, tour, restaurant or
// destination). place.js reads the page's schema.org JSON-LD (LodgingBusiness, Restaurant,
// TouristAttraction, Product/TouristTrip, the reviews it lists) and the ranking, rating
// histogram and amenities from the markup; this shapes them.
#include "extract/endpoint.h"

namespace gleaner::extract::tripadvisor {

/// The place endpoint (registered by extract/sites/tripadvisor/CMakeLists.txt).
const Endpoint& place_endpoint();

}  // namespace gleaner::extract::tripadvisor
