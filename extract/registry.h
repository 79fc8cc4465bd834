#pragma once
// Every data endpoint of the service. The HTTP layer registers one GET route per entry; adding an
// endpoint is one line in registry.cpp and nothing else outside its own files.
#include <string_view>
#include <vector>

#include "extract/endpoint.h"

namespace gleaner::extract {

/// All endpoints, in a stable order (that of registry.cpp).
const std::vector<const Endpoint*>& all_endpoints();
/// The endpoint serving `path` ("/scrape/search/serp"), or nullptr.
const Endpoint* find_endpoint(std::string_view path);

}  // namespace gleaner::extract
