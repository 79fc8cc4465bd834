#pragma once
// What the Google search endpoints (serp, events) share: their common parameters, the host for a
// `domain`, the `uule` for a canonical location name, and the query parameters a person's browser
// sends for country, language and location.
#include <string>
#include <string_view>
#include <vector>

#include "extract/params.h"
#include "extract/url.h"

namespace gleaner::extract::google {

/// q (required), location, uule, domain, gl, hl: as api.md declares them for serp and events.
std::vector<Param> search_params();
/// location and uule both name the place of the search: only one may be given.
Rule location_rule();

/// "https://www.google.com" for no domain, "https://www.google.co.uk" for `google.co.uk` (or
/// `www.google.co.uk`).
std::string origin(const ValidatedParams& params);

/// The `uule` value Google's own location setting sends for a canonical location name such as
/// "Austin,Texas,United States": "w+" + URL-safe base64 (no padding) of a small protobuf
/// {1: 2, 2: 32, 4: name} — bytes 08 02 10 20 22 <varint length> <name>. For names shorter than
/// 64 bytes this is the well-known "w+CAIQICI" + alphabet[length] + base64(name).
std::string uule_for_location(std::string_view canonical_name);

/// The plain results page for `q` with gl, hl and uule: origin/search?q=...&gl=..&hl=..&uule=..
/// (callers append what else they need, e.g. start).
UrlBuilder results_url(const ValidatedParams& params);

/// Appends gl, hl and uule (given, or computed from `location`) as the site writes them.
void add_locale(UrlBuilder& url, const ValidatedParams& params);

}  // namespace gleaner::extract::google
