#pragma once
// What a failed navigation's net error means, in words a caller can act on. Chromium reports a
// page that could not be loaded as `net::ERR_NAME_NOT_RESOLVED`, `net::ERR_CERT_DATE_INVALID`...;
// the API answers "the host name does not resolve (DNS)" and keeps the code in brackets.
#include <string>
#include <string_view>

namespace gleaner::browser {

/// "the host name does not resolve (DNS) (net::ERR_NAME_NOT_RESOLVED)"; for a code not known
/// here, "the page could not be loaded (net::ERR_...)".
std::string describe_net_error(std::string_view error_text);

}  // namespace gleaner::browser
