#pragma once
// What a caller may put in the HTTP headers we send for them: the page fetch's `headers` and a
// webhook's `headers`. One place, so both answer the same way.
#include <cstddef>
#include <string>
#include <string_view>

namespace gleaner::http_header {

/// Header names compare without regard to case.
bool same_name(std::string_view a, std::string_view b);
/// A header name is a token (RFC 9110 5.1).
bool valid_name(std::string_view name);
/// Custom headers a caller may have sent on its behalf: at most this many...
inline constexpr std::size_t kMaxCustomHeaders = 50;
/// ...each value at most this long, so that what they add to a request head stays far below the
/// 8 KiB per line and 64 KiB per head that servers (and the egress gateway) accept.
inline constexpr std::size_t kMaxCustomHeaderValue = 4096;
/// A value is visible characters, spaces and tabs (RFC 9110 5.5): no CR, LF, NUL or other control
/// character (0x01-0x1F but tab, 0x7F), which receivers read differently or refuse.
bool valid_value(std::string_view value);
/// Why a caller's custom header value may not be sent, or empty when it may: it is not a
/// valid_value(), or it is longer than kMaxCustomHeaderValue bytes. Phrased to follow "its value".
std::string value_refused_because(std::string_view value);
/// A `Proxy-*` header: a proxy's, never the origin's.
bool from_proxy(std::string_view name);
/// Why a caller may not set this header, or empty when it may. These are the headers that frame
/// a message or route it (Host, Content-Length, Transfer-Encoding, Connection, Upgrade, TE,
/// Trailer, Keep-Alive, Expect, Proxy-*): set by hand they let a caller shape a smuggled request
/// towards a receiver, or fight what the browser and the gateway set themselves. Case-insensitive.
std::string_view reserved_because(std::string_view name);

}  // namespace gleaner::http_header
