#pragma once
// GET /scrape/google/immersive-product: what Shopping's `immersiveProductPageToken` names (the
// claims shopping.cpp signs into it) and the shaping of immersive_product.js output.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "extract/params.h"
#include "extract/sites/common/text.h"

namespace gleaner::extract::google {

/// The kind of the page tokens (extract/page_token.h) /scrape/google/immersive-product redeems.
inline constexpr std::string_view kImmersiveProductTokenKind = "google/immersive-product";

/// The claims of the token of Google's product page `product_id`, as the Shopping request with
/// `params` would open it: its id and the request's domain, gl, hl, uule or location.
nlohmann::json immersive_product_claims(const std::string& product_id,
                                        const ValidatedParams& params);

/// Shapes immersive_product.js output into {productResults}; numbers are read in the page's
/// language (`hl_mark` when the page names none).
nlohmann::json shape_immersive_product(const nlohmann::json& page, DecimalMark hl_mark);

}  // namespace gleaner::extract::google
