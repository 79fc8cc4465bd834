#pragma once
// Percent-decoding (RFC 3986 `%XX`), for everything that reads URLs back: mailto: addresses,
// hosts, query values. Header-only: it is two small functions.
#include <string>
#include <string_view>

namespace gleaner {

/// The value of a hexadecimal digit, or -1.
constexpr int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// `text` with every valid `%XX` replaced by its byte; a '%' not followed by two hex digits stays
/// as it is. '+' stays '+' (it means a space only in form-encoded queries).
inline std::string percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_digit_value(text[i + 1]) >= 0 &&
        hex_digit_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit_value(text[i + 1]) * 16 + hex_digit_value(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace gleaner
