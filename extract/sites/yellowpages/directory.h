#pragma once
// What the Yellow Pages endpoints share: a business as the answer gives it, from the schema.org
// LocalBusiness JSON-LD the directory publishes for every listing, or from the Australian
// directory's listing view (`window.__INITIAL_STATE__.model.inAreaResultViews[]`).
#include <nlohmann/json.hpp>
#include <string>

namespace gleaner::extract::yellowpages {

/// {name, link, phone?, address? {street?, locality?, region?, postalCode?}, categories,
/// rating?, reviews?, website?, openingHours? [{day, hours}], location?} from a LocalBusiness
/// node (any subtype); `nodes` resolves references by @id. `origin` makes relative links absolute.
nlohmann::json business_from_json_ld(const nlohmann::json& node, const nlohmann::json& nodes,
                                     const std::string& origin);

/// The same shape from a listing view of yellowpages.com.au.
nlohmann::json business_from_au_view(const nlohmann::json& view);

}  // namespace gleaner::extract::yellowpages
