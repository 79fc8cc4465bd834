#pragma once
// ISO 3166-1 alpha-2 country codes: the one table of assigned codes that proxy configuration and
// the proxyCountry parameter are checked against.
#include <optional>
#include <string>
#include <string_view>

namespace gleaner::proxies {

/// The assigned code for `text` in upper case ("us" → "US"), or nullopt when `text` is not an
/// officially assigned ISO 3166-1 alpha-2 code (reserved codes such as "UK" or "EU" included).
std::optional<std::string> country_code(std::string_view text);

}  // namespace gleaner::proxies
