#pragma once
// Times as the API writes them. One function, so every response (GET /account, scraper jobs,
// webhooks) and every admin listing agree on the format.
#include <chrono>
#include <string>

namespace gleaner {

/// `t` in ISO 8601, UTC, whole seconds (fractions dropped): "2026-11-21T02:55:51Z".
std::string iso8601_utc(std::chrono::system_clock::time_point t);

}  // namespace gleaner
