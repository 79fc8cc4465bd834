#pragma once
// GET /scrape/google-light/serp: shape_light() turns what the endpoint reads on the basic page
// (light.cpp's reader of its markup) into the documented JSON.
#include <nlohmann/json.hpp>

#include "extract/tab.h"

namespace gleaner::extract::google {

/// The basic page's own texts (organic results with their displayed link, snippet and sitelinks,
/// related searches, the next page, the no-results notice), read from `page`'s markup on either
/// road: what read_document() answers.
nlohmann::json read_light_page(const Document& page);

/// Shapes the basic page's texts as read_document() reads them; positions continue from `start`.
nlohmann::json shape_light(const nlohmann::json& page, long long start);

}  // namespace gleaner::extract::google
