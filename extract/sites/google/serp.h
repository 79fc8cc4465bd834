#pragma once
// GET /scrape/search/serp: a Google results page. serp.js reads the rendered page (organic
// results with sitelinks, ads, shopping units, People also ask, related searches, knowledge
// panel, top stories, hotel/local pack, result count, next page); shape_serp() turns that into
// the documented JSON (responses.md).
#include <optional>

#include <nlohmann/json.hpp>

#include "extract/endpoint.h"
#include "extract/sites/common/text.h"

namespace gleaner::extract::google {

/// The serp endpoint (one instance, listed in registry.cpp).
const Endpoint& serp_endpoint();

/// Shapes serp.js output. `start` is the result offset of the page (positions continue from it);
/// `hl_mark` the decimal mark of the request's `hl`, used when the page names no language of its
/// own (serp.js's `lang`, the page's `<html lang>`).
nlohmann::json shape_serp(const nlohmann::json& page, long long start,
                          DecimalMark hl_mark = DecimalMark::Unknown);

/// Google's AI answer as serp.js read it (`aiOverview` of its output: an AI Overview on a results
/// page, the answer of an AI Mode page), as {textBlocks, references} (hosted.md #11/#12); nothing
/// when the page shows none.
std::optional<nlohmann::json> shape_ai_answer(const nlohmann::json& page);

}  // namespace gleaner::extract::google
