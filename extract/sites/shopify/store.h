#pragma once
// What the Shopify endpoints share: a store's origin from the URL a client gives.
#include <string>

namespace gleaner::extract::shopify {

/// The store's origin: scheme, host and port of `url` (any path dropped). Throws
/// invalid_parameter naming `url` for an address the guard refuses (a private address, localhost,
/// anything but http(s)).
std::string origin_of(const std::string& url);

}  // namespace gleaner::extract::shopify
