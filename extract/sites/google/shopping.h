#pragma once
// GET /scrape/google/shopping: shape_shopping() turns shopping.js output into the documented JSON.
#include <nlohmann/json.hpp>

#include "extract/sites/common/text.h"

namespace gleaner::extract::google {

/// Shapes shopping.js output; positions continue from offset `start`; numbers are read in the
/// page's language (`hl_mark` when the page names none).
nlohmann::json shape_shopping(const nlohmann::json& page, long long start, DecimalMark hl_mark);

}  // namespace gleaner::extract::google
