#include "core/http_header.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace gleaner::http_header {
namespace {

struct Reserved {
  std::string_view name;
  std::string_view because;
};

constexpr std::string_view kFraming = "frames the message; it is set from the body we send";
constexpr std::string_view kHop = "is a hop-by-hop header of the connection we open";
constexpr std::array<Reserved, 9> kReserved{{
    {"Host", "routes the request; it is set from the URL"},
    {"Content-Length", kFraming},
    {"Transfer-Encoding", kFraming},
    {"Trailer", kFraming},
    {"Connection", kHop},
    {"Keep-Alive", kHop},
    {"Upgrade", kHop},
    {"TE", kHop},
    {"Expect", kHop},
}};

}  // namespace

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool valid_name(std::string_view name) {
  static constexpr std::string_view kSpecials = "!#$%&'*+-.^_`|~";
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || kSpecials.find(static_cast<char>(c)) != std::string_view::npos;
  });
}

bool valid_value(std::string_view value) {
  // RFC 9110 5.5: visible characters, obs-text, spaces and tabs; no other control character.
  return std::none_of(value.begin(), value.end(),
                      [](unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; });
}

std::string value_refused_because(std::string_view value) {
  for (unsigned char c : value) {
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      // Named by its code, never written out.
      char code[8];
      std::snprintf(code, sizeof code, "0x%02X", c);
      return std::string("contains a control character (") + code + ")";
    }
  }
  if (value.size() > kMaxCustomHeaderValue) {
    return "is " + std::to_string(value.size()) + " bytes long, more than the " +
           std::to_string(kMaxCustomHeaderValue) + " allowed";
  }
  return {};
}

bool from_proxy(std::string_view name) {
  return name.size() > 6 && same_name(name.substr(0, 6), "Proxy-");
}

std::string_view reserved_because(std::string_view name) {
  for (const Reserved& r : kReserved) {
    if (same_name(name, r.name)) return r.because;
  }
  if (from_proxy(name)) {
    return "is meant for a proxy on the way, and the gateway sets its own";
  }
  return {};
}

}  // namespace gleaner::http_header
