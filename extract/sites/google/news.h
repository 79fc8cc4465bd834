#pragma once
// GET /scrape/search/news: Google News through its RSS feeds. Search, topic (with an optional
// section), publication (with an optional section), story (full coverage) and, with no parameter,
// the top headlines all answer with the same RSS 2.0 shape, read by news.js and shaped here.
#include "extract/endpoint.h"

#include <optional>
#include <string>
#include <string_view>

namespace gleaner::extract::google {

/// The news endpoint (one instance, listed in registry.cpp).
const Endpoint& news_endpoint();

/// An RFC 822 date as RSS writes it ("Tue, 14 Jul 2026 03:33:16 GMT", "... +0200") as ISO 8601
/// ("2026-07-14T03:33:16Z", "...+02:00"); nullopt when it is not one.
std::optional<std::string> rfc822_to_iso8601(std::string_view text);

}  // namespace gleaner::extract::google
