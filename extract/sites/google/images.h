#pragma once
// GET /scrape/google/images: shape_images() turns images.js output into the documented JSON.
#include <nlohmann/json.hpp>

namespace gleaner::extract::google {

/// Shapes images.js output; positions continue from page `ijn` (100 a page).
nlohmann::json shape_images(const nlohmann::json& page, long long ijn);

}  // namespace gleaner::extract::google
