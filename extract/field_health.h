#pragma once
// Field health: which documented fields (Endpoint::fields()) an answer carried. Counted per
// endpoint and field in /metrics (`gleaner_extract_field_total{endpoint,field,present}`), so an
// operator sees the day a site changes its layout and a field starts coming back empty.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gleaner::extract {

/// Whether `body` holds each of `fields` with a non-empty value (not null, not "", not an empty
/// list or object). A path is keys joined by '.', with "[]" after a list's key meaning "in at
/// least one of its items": "summary.price", "results[].rating.value".
std::vector<std::pair<std::string, bool>> field_presence(const nlohmann::json& body,
                                                         const std::vector<std::string>& fields);

}  // namespace gleaner::extract
