#pragma once
// GET /scrape/google-light/serp: shape_light() turns light.js output into the documented JSON.
#include <nlohmann/json.hpp>

namespace gleaner::extract::google {

/// Shapes light.js output; positions continue from `start`.
nlohmann::json shape_light(const nlohmann::json& page, long long start);

}  // namespace gleaner::extract::google
