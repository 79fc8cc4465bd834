#pragma once
// GET /scrape/search/events: Google's events listing (`ibp=htl;events`, with `htichips` filters
// and `start`) and, where that page is not served, the events block of the plain results page.
// events.js reads event cards; shape_events() turns them into the documented JSON.
#include <nlohmann/json.hpp>

#include "extract/endpoint.h"

namespace gleaner::extract::google {

/// The events endpoint (one instance, listed in registry.cpp).
const Endpoint& events_endpoint();

/// Shapes events.js output; `start` is the offset the request asked for.
nlohmann::json shape_events(const nlohmann::json& page, long long start);

}  // namespace gleaner::extract::google
