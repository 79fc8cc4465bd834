#pragma once
// What the Google search endpoints (serp, events) share: their common parameters, the host for a
// `domain`, the `uule` for a canonical location name, and the query parameters a person's browser
// sends for country, language and location.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "extract/endpoint.h"
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

/// Google's own parameters of a results page (num, filter, nfpr, safe, tbs, tbm, lr[], cr,
/// ludocid, lsig, kgmid, si), each checked against what Google takes. An endpoint that takes
/// only some keeps those by name.
std::vector<Param> page_params();
/// The same, kept to `names`.
std::vector<Param> page_params(std::initializer_list<std::string_view> names);
/// Appends those given, as Google takes them (several `lr` joined by '|').
void add_page_params(UrlBuilder& url, const ValidatedParams& params);

/// deviceType: `desktop` (default), `mobile` (Chrome on an Android phone) or `tablet` (Chrome on
/// an Android tablet; Google answers it with its desktop or its mobile layout).
Param device_param();
/// The browser profile's device for the request's deviceType.
BrowserProfile::Device device_of(const ValidatedParams& params);

/// Sets `key` to `value` only when the text is non-empty: absent data is an absent key.
void put_text(nlohmann::json& out, const char* key, const std::string& value);

}  // namespace gleaner::extract::google
