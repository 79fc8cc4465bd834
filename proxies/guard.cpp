#include "proxies/guard.h"

#include <idn2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/error.h"
#include "core/percent.h"

namespace gleaner::proxies {
namespace {

using AddressV4 = boost::asio::ip::address_v4;
using AddressV6 = boost::asio::ip::address_v6;

// First match wins, so a specific entry (a metadata address) comes before the range holding it.
struct V4Range {
  std::uint32_t network;
  int prefix;
  AddressKind kind;
};
constexpr std::uint32_t v4(unsigned a, unsigned b, unsigned c, unsigned d) {
  return (a << 24) | (b << 16) | (c << 8) | d;
}
constexpr std::array<V4Range, 21> kV4Ranges = {{
    {v4(169, 254, 169, 254), 32, AddressKind::Metadata},  // AWS, GCP, Azure, OCI, DigitalOcean
    {v4(100, 100, 100, 200), 32, AddressKind::Metadata},  // Alibaba Cloud
    {v4(168, 63, 129, 16), 32, AddressKind::Metadata},    // Azure wire server (a public address)
    {v4(0, 0, 0, 0), 8, AddressKind::Unspecified},
    {v4(127, 0, 0, 0), 8, AddressKind::Loopback},
    {v4(10, 0, 0, 0), 8, AddressKind::Private},
    {v4(172, 16, 0, 0), 12, AddressKind::Private},
    {v4(192, 168, 0, 0), 16, AddressKind::Private},
    {v4(169, 254, 0, 0), 16, AddressKind::LinkLocal},
    {v4(100, 64, 0, 0), 10, AddressKind::SharedCgnat},
    {v4(192, 0, 0, 0), 24, AddressKind::Reserved},     // IETF protocol assignments
    {v4(192, 0, 2, 0), 24, AddressKind::Reserved},     // TEST-NET-1
    {v4(198, 51, 100, 0), 24, AddressKind::Reserved},  // TEST-NET-2
    {v4(203, 0, 113, 0), 24, AddressKind::Reserved},   // TEST-NET-3
    {v4(198, 18, 0, 0), 15, AddressKind::Reserved},    // benchmarking
    {v4(192, 88, 99, 0), 24, AddressKind::Reserved},   // deprecated 6to4 relay anycast
    {v4(255, 255, 255, 255), 32, AddressKind::Broadcast},
    {v4(224, 0, 0, 0), 4, AddressKind::Multicast},
    {v4(240, 0, 0, 0), 4, AddressKind::Reserved},
    // Kept last: the only ranges that are not refused.
    {v4(0, 0, 0, 0), 1, AddressKind::Public},
    {v4(128, 0, 0, 0), 1, AddressKind::Public},
}};

struct V6Range {
  AddressV6::bytes_type network;
  int prefix;
  AddressKind kind;
};
AddressV6::bytes_type v6(const char* text) {
  return boost::asio::ip::make_address_v6(text).to_bytes();
}
// IPv6 ranges that do not embed an IPv4 address; those are unwrapped before this table is asked.
const std::vector<V6Range>& v6_ranges() {
  static const std::vector<V6Range> ranges = {
      {v6("::"), 128, AddressKind::Unspecified},
      {v6("::1"), 128, AddressKind::Loopback},
      {v6("fd00:ec2::254"), 128, AddressKind::Metadata},  // AWS over IPv6
      {v6("fc00::"), 7, AddressKind::Private},            // unique local
      {v6("fec0::"), 10, AddressKind::Private},           // deprecated site-local
      {v6("fe80::"), 10, AddressKind::LinkLocal},
      {v6("ff00::"), 8, AddressKind::Multicast},
      {v6("64:ff9b:1::"), 48, AddressKind::Private},  // local-use NAT64 (RFC 8215)
      {v6("2001::"), 32, AddressKind::Reserved},      // Teredo: the client address is obscured
      {v6("2001:db8::"), 32, AddressKind::Reserved},  // documentation
      {v6("3fff::"), 20, AddressKind::Reserved},      // documentation (RFC 9637)
      {v6("2001:10::"), 28, AddressKind::Reserved},   // ORCHID
      {v6("100::"), 64, AddressKind::Reserved},       // discard-only
      {v6("2000::"), 3, AddressKind::Public},         // global unicast; the rest is unallocated
  };
  return ranges;
}

bool in_prefix(const AddressV6::bytes_type& address, const AddressV6::bytes_type& network,
               int prefix) {
  for (int bit = 0; bit < prefix; bit += 8) {
    const int bits = prefix - bit < 8 ? prefix - bit : 8;
    const unsigned mask = (0xffu << (8 - bits)) & 0xffu;
    const auto i = static_cast<std::size_t>(bit / 8);
    if ((address[i] & mask) != (network[i] & mask)) return false;
  }
  return true;
}

AddressKind classify_v4(const AddressV4& address) {
  const std::uint32_t value = address.to_uint();
  for (const auto& range : kV4Ranges) {
    const std::uint32_t mask = range.prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - range.prefix);
    if ((value & mask) == (range.network & mask)) return range.kind;
  }
  return AddressKind::Reserved;  // unreachable: the last two ranges cover everything
}

AddressV4 v4_at(const AddressV6::bytes_type& b, std::size_t at) {
  return AddressV4(AddressV4::bytes_type{b[at], b[at + 1], b[at + 2], b[at + 3]});
}

// The IPv4 address an IPv6 address carries, for the forms that carry one a connection can reach.
std::optional<AddressV4> embedded_v4(const AddressV6& address) {
  const auto b = address.to_bytes();
  auto zero = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i)
      if (b[i] != 0) return false;
    return true;
  };
  if (address.is_v4_mapped()) return v4_at(b, 12);  // ::ffff:a.b.c.d
  if (zero(0, 8) && b[8] == 0xff && b[9] == 0xff && zero(10, 12))
    return v4_at(b, 12);  // ::ffff:0:a.b.c.d
  if (zero(0, 12) && !address.is_loopback() && !address.is_unspecified())
    return v4_at(b, 12);                                       // ::a.b.c.d
  if (in_prefix(b, v6("64:ff9b::"), 96)) return v4_at(b, 12);  // NAT64 well-known
  if (b[0] == 0x20 && b[1] == 0x02) return v4_at(b, 2);        // 6to4 2002:aabb:ccdd::
  return std::nullopt;
}

AddressKind classify_v6(const AddressV6& address) {
  if (auto inner = embedded_v4(address)) return classify_v4(*inner);
  const auto bytes = address.to_bytes();
  for (const auto& range : v6_ranges())
    if (in_prefix(bytes, range.network, range.prefix)) return range.kind;
  return AddressKind::Reserved;
}

// ---- hosts (WHATWG URL "host parser") ----

std::vector<std::string_view> split_dots(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const auto dot = text.find('.', start);
    parts.push_back(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

// One part of an IPv4 literal: decimal, 0-prefixed octal or 0x-prefixed hex. nullopt when it is
// not a number or passes 2^32 (too big for any position, so the exact value does not matter).
std::optional<std::uint64_t> ipv4_number(std::string_view part) {
  if (part.empty()) return std::nullopt;
  int radix = 10;
  if (part.size() >= 2 && part[0] == '0' && (part[1] == 'x' || part[1] == 'X')) {
    radix = 16;
    part.remove_prefix(2);
  } else if (part.size() >= 2 && part[0] == '0') {
    radix = 8;
    part.remove_prefix(1);
  }
  std::uint64_t value = 0;
  for (char c : part) {
    const int digit = hex_digit_value(c);
    if (digit < 0 || digit >= radix) return std::nullopt;
    value = value * static_cast<unsigned>(radix) + static_cast<unsigned>(digit);
    if (value > 0xffffffffULL) return std::uint64_t{0x100000000ULL};
  }
  return value;
}

// WHATWG "ends in a number": such a host must be an IPv4 literal or it is invalid.
bool ends_in_number(std::vector<std::string_view> parts) {
  if (parts.back().empty()) {
    if (parts.size() == 1) return false;
    parts.pop_back();
  }
  const auto last = parts.back();
  if (last.empty()) return false;
  bool digits = true;
  for (char c : last) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (digits) return true;
  return (last.size() >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X')) &&
         ipv4_number(last).has_value();
}

std::optional<AddressV4> parse_ipv4(std::vector<std::string_view> parts) {
  if (parts.size() > 1 && parts.back().empty()) parts.pop_back();
  if (parts.size() > 4) return std::nullopt;
  std::vector<std::uint64_t> numbers;
  for (auto part : parts) {
    auto n = ipv4_number(part);
    if (!n) return std::nullopt;
    numbers.push_back(*n);
  }
  for (std::size_t i = 0; i + 1 < numbers.size(); ++i)
    if (numbers[i] > 255) return std::nullopt;
  const unsigned shift = 8 * static_cast<unsigned>(5 - numbers.size());
  if (numbers.back() >= (std::uint64_t{1} << shift)) return std::nullopt;
  std::uint64_t value = numbers.back();
  for (std::size_t i = 0; i + 1 < numbers.size(); ++i) value += numbers[i] << (8 * (3 - i));
  return AddressV4(static_cast<std::uint32_t>(value));
}

bool forbidden_in_name(unsigned char c) {
  static constexpr std::string_view kForbidden = "#%/:<>?@[\\]^|";
  return c <= 0x20 || c == 0x7f || kForbidden.find(static_cast<char>(c)) != std::string_view::npos;
}

// The part of IDNA (UTS #46 mapping) that can turn a name into an address: the full-width forms of
// ASCII (U+FF01..U+FF5E, "１２７．０．０．１") and the ideographic full stops (U+3002, U+FF61)
// become their ASCII characters, as browsers read them. The rest of IDNA only changes letters of
// names, which the resolver and the gateway see as the browser sends them (punycode).
std::string fold_width(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    const auto b1 = i + 2 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    const auto b2 = i + 2 < text.size() ? static_cast<unsigned char>(text[i + 2]) : 0;
    if (b0 == 0xEF && b1 == 0xBC && b2 >= 0x81 && b2 <= 0xBF) {  // U+FF01..U+FF3F
      out += static_cast<char>(0x20 + (b2 - 0x80));
    } else if (b0 == 0xEF && b1 == 0xBD && b2 >= 0x80 && b2 <= 0x9E) {  // U+FF40..U+FF5E
      out += static_cast<char>(0x60 + (b2 - 0x80));
    } else if ((b0 == 0xEF && b1 == 0xBD && b2 == 0xA1) ||
               (b0 == 0xE3 && b1 == 0x80 && b2 == 0x82)) {  // U+FF61, U+3002
      out += '.';
    } else {
      out += text[i];
      continue;
    }
    i += 2;
  }
  return out;
}

}  // namespace

AddressKind classify(const IpAddress& address) {
  return address.is_v4() ? classify_v4(address.to_v4()) : classify_v6(address.to_v6());
}

std::string_view kind_name(AddressKind kind) {
  switch (kind) {
    case AddressKind::Public: return "public";
    case AddressKind::Loopback: return "loopback";
    case AddressKind::Private: return "private";
    case AddressKind::LinkLocal: return "link-local";
    case AddressKind::SharedCgnat: return "cgnat";
    case AddressKind::Metadata: return "metadata";
    case AddressKind::Unspecified: return "unspecified";
    case AddressKind::Multicast: return "multicast";
    case AddressKind::Broadcast: return "broadcast";
    case AddressKind::Reserved: return "reserved";
  }
  return "reserved";
}

std::optional<Host> parse_host(std::string_view raw) {
  if (raw.empty()) return std::nullopt;
  if (raw.front() == '[') {
    if (raw.size() < 3 || raw.back() != ']') return std::nullopt;
    const std::string inner(raw.substr(1, raw.size() - 2));
    if (inner.find('%') != std::string::npos) return std::nullopt;  // zone ids are not URLs
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address_v6(inner, ec);
    if (ec) return std::nullopt;
    return Host{Host::Form::Ipv6, address.to_string(), IpAddress(address)};
  }
  std::string text = fold_width(percent_decode(raw));
  if (std::any_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
    // An internationalised name becomes what browsers send and resolvers know: its ASCII form
    // (UTS #46 non-transitional processing, as Chromium does: "Bücher.example" is
    // "xn--bcher-kva.example"). A name IDNA refuses is no host.
    char* ascii = nullptr;
    if (idn2_to_ascii_8z(text.c_str(), &ascii, IDN2_NONTRANSITIONAL | IDN2_NFC_INPUT) != IDN2_OK ||
        !ascii) {
      idn2_free(ascii);
      return std::nullopt;
    }
    text = ascii;
    idn2_free(ascii);
  }
  for (char& c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (forbidden_in_name(u)) return std::nullopt;
    if (u < 0x80) c = static_cast<char>(std::tolower(u));
  }
  const auto parts = split_dots(text);
  if (ends_in_number(parts)) {
    auto address = parse_ipv4(parts);
    if (!address) return std::nullopt;
    return Host{Host::Form::Ipv4, address->to_string(), IpAddress(*address)};
  }
  // An empty label ("a..b", "a.0..") can name nothing in DNS, and dropping one trailing dot of
  // "a.0.." would turn it into "a.0.", which ends in a number: refused, so a canonical name always
  // parses back to itself (found by tests/fuzz, fuzz_url).
  if (text.find("..") != std::string::npos) return std::nullopt;
  if (text.back() == '.') text.pop_back();
  if (text.empty() || text.front() == '.') return std::nullopt;
  return Host{Host::Form::Name, std::move(text), std::nullopt};
}

std::optional<AddressKind> name_kind(std::string_view name) {
  static constexpr std::string_view kLocalhost = "localhost";
  if (name == kLocalhost) return AddressKind::Loopback;
  if (name.size() > kLocalhost.size() + 1 && name.ends_with(kLocalhost) &&
      name[name.size() - kLocalhost.size() - 1] == '.')
    return AddressKind::Loopback;
  return std::nullopt;
}

std::optional<Authority> parse_authority(std::string_view authority, std::uint16_t default_port) {
  std::string_view host = authority;
  std::string_view port;
  bool has_port = false;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    const auto rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return std::nullopt;
      port = rest.substr(1);
      has_port = true;
    }
  } else if (const auto colon = authority.find(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    has_port = true;
  }
  std::uint16_t number = default_port;
  if (has_port && !port.empty()) {
    unsigned long value = 0;
    for (char c : port) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      value = value * 10 + static_cast<unsigned>(c - '0');
      if (value > 65535) return std::nullopt;
    }
    number = static_cast<std::uint16_t>(value);
  }
  if (number == 0) return std::nullopt;
  auto parsed = parse_host(host);
  if (!parsed) return std::nullopt;
  return Authority{std::move(*parsed), number};
}

std::string url_refused_because(std::string_view url) {
  if (url.size() > kMaxUrlLength) {
    return "the URL is " + std::to_string(url.size()) + " bytes long, more than the " +
           std::to_string(kMaxUrlLength) + " allowed";
  }
  for (std::size_t i = 0; i < url.size(); ++i) {
    const auto c = static_cast<unsigned char>(url[i]);
    if (c < 0x20 || c == 0x7f) {
      // Named by its code, never written out: the message goes back to the caller and to logs.
      char code[8];
      std::snprintf(code, sizeof code, "0x%02X", c);
      return std::string("the URL contains a control character (") + code + " at byte " +
             std::to_string(i + 1) + "); percent-encode it";
    }
  }
  return {};
}

UrlTarget parse_http_url(std::string_view raw, const std::string& parameter) {
  if (std::string why = url_refused_because(raw); !why.empty())
    throw invalid_parameter(parameter, why);
  // Browsers drop surrounding spaces.
  std::string url(raw);
  while (!url.empty() && url.front() == ' ') url.erase(url.begin());
  while (!url.empty() && url.back() == ' ') url.pop_back();

  std::size_t colon = 0;
  while (colon < url.size() && (std::isalnum(static_cast<unsigned char>(url[colon])) ||
                                url[colon] == '+' || url[colon] == '-' || url[colon] == '.'))
    ++colon;
  if (colon == 0 || colon == url.size() || url[colon] != ':' ||
      !std::isalpha(static_cast<unsigned char>(url[0])))
    throw invalid_parameter(parameter, "the URL must be an absolute http or https URL");
  std::string scheme = url.substr(0, colon);
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "http" && scheme != "https")
    throw invalid_parameter(parameter,
                            "only http and https URLs can be loaded, not " + scheme + ": URLs");

  // For http(s), browsers skip any run of slashes or back-slashes before the authority.
  std::size_t start = colon + 1;
  while (start < url.size() && (url[start] == '/' || url[start] == '\\')) ++start;
  const std::size_t end = url.find_first_of("/\\?#", start);
  std::string_view authority = std::string_view(url).substr(start, end - start);
  if (const auto at = authority.rfind('@'); at != std::string_view::npos)
    authority.remove_prefix(at + 1);
  auto parsed = parse_authority(authority, scheme == "https" ? 443 : 80);
  if (!parsed) throw invalid_parameter(parameter, "the URL has no valid host and port");
  return UrlTarget{std::move(scheme), std::move(parsed->host), parsed->port};
}

AddressGuard AddressGuard::from_config(const Config& config) {
  return AddressGuard(config.get_bool("allow_private_addresses", false));
}

bool AddressGuard::allows(AddressKind kind) const {
  switch (kind) {
    case AddressKind::Public: return true;
    case AddressKind::Loopback:
    case AddressKind::Private:
    case AddressKind::LinkLocal:
    case AddressKind::SharedCgnat: return allow_private_;
    default: return false;
  }
}

std::optional<std::string> AddressGuard::refusal(const Host& host,
                                                 const std::vector<IpAddress>& addresses) const {
  for (const auto& address : addresses) {
    const AddressKind kind = classify(address);
    if (allows(kind)) continue;
    const std::string what = address.to_string() + " (" + std::string(kind_name(kind)) + ")";
    return host.literal ? "is " + what : "resolves to " + what;
  }
  return std::nullopt;
}

UrlTarget AddressGuard::check_url(std::string_view url, const std::string& parameter) const {
  UrlTarget target = parse_http_url(url, parameter);
  std::optional<AddressKind> kind = target.host.literal
                                        ? std::optional(classify(*target.host.literal))
                                        : name_kind(target.host.text);
  if (kind && !allows(*kind))
    throw invalid_parameter(parameter, std::string(kPrivateAddressMessage));
  return target;
}

}  // namespace gleaner::proxies
