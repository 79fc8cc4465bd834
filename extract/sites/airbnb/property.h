#pragma once
// GET /scrape/rentals/property: one Airbnb room (listing) page. property.js reads the page's
// sections (`data-section-id`: TITLE, OVERVIEW, BOOK_IT_SIDEBAR, REVIEWS, HOST_PROFILE,
// AMENITIES, DESCRIPTION, HIGHLIGHTS, HERO) and the OpenGraph tags; this shapes them.
#include "extract/endpoint.h"

namespace gleaner::extract::airbnb {

/// The property endpoint (registered by extract/sites/airbnb/CMakeLists.txt).
const Endpoint& property_endpoint();

}  // namespace gleaner::extract::airbnb
