#pragma once
// GET /scrape/search/finance: a Google Finance quote page. finance.js returns the page's `ds:`
// data blobs and what the classic layout's markup adds (prices and key stats as the page writes
// them, the titles of its "discover more" lists); this recognises each blob by its shape (so the
// newer layout, which keeps its data only in the blobs, reads the same) and shapes the quote
// summary, the graph of the requested window, key stats, the company, news, financial statements
// and related tickers, or `suggestions` when the ticker is unknown.
#include "extract/endpoint.h"

#include <string>

namespace gleaner::extract::google {

/// The finance endpoint (one instance, listed in registry.cpp).
const Endpoint& finance_endpoint();

/// Seconds since the epoch as local time at `offset_seconds` from UTC, ISO 8601
/// ("2026-04-27T20:48:10-03:00"; "Z" for offset 0).
std::string iso8601_at_offset(long long epoch_seconds, long long offset_seconds);

}  // namespace gleaner::extract::google
