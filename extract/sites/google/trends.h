#pragma once
// GET /scrape/google-trends/search: the terms of `q`, and shape_trends() from what the endpoint
// read of its two documents (the explore answer, the widget data) to the documented JSON.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gleaner::extract::google {

/// The comma-separated terms of `q`, trimmed, empty ones left out.
std::vector<std::string> trends_terms(const std::string& q);

/// Shapes what the endpoint read ({explore, widget, status, data}) for `data_type` (timeseries,
/// geoMap, relatedTopics, relatedQueries); `terms` name the values in their order. Throws
/// UpstreamBlocked when the widget call was refused (429/403), UpstreamError on another HTTP error.
nlohmann::json shape_trends(const nlohmann::json& page, const std::string& data_type,
                            const std::vector<std::string>& terms);

}  // namespace gleaner::extract::google
