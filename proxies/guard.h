#pragma once
// The address guard: which network addresses a page, a redirect or a sub-resource may reach.
//
// A URL given by a caller may not reach the service's own network (spec/conventions.md
// "Security"): loopback, private, link-local, CGNAT and cloud-metadata addresses are refused,
// whatever name leads there. The guard classifies addresses; the egress gateway
// (proxies/gateway.h) resolves every name itself, asks the guard about each address and connects
// only to an address the guard allowed, so a name that resolves differently the second time (DNS
// rebinding) gains nothing. docs/security.md explains the whole arrangement.
#include <boost/asio/ip/address.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"

namespace gleaner::proxies {

using IpAddress = boost::asio::ip::address;

/// The kind of network an address belongs to. Everything but Public is refused by default.
enum class AddressKind {
  Public,
  Loopback,     ///< 127.0.0.0/8, ::1, and the names localhost and *.localhost
  Private,      ///< 10/8, 172.16/12, 192.168/16, fc00::/7, fec0::/10, 64:ff9b:1::/48
  LinkLocal,    ///< 169.254/16, fe80::/10
  SharedCgnat,  ///< 100.64.0.0/10 (carrier-grade NAT)
  Metadata,     ///< cloud metadata endpoints: 169.254.169.254, fd00:ec2::254, 100.100.100.200, ...
  Unspecified,  ///< 0.0.0.0/8, :: (Linux connects these to the local host)
  Multicast,    ///< 224/4, ff00::/8
  Broadcast,    ///< 255.255.255.255
  Reserved,     ///< documentation, benchmarking, 240/4, Teredo, unallocated IPv6, ...
};

/// The kind of `address`. IPv6 addresses that embed an IPv4 address (IPv4-mapped ::ffff:a.b.c.d,
/// IPv4-translated, IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16) are classified as the
/// embedded IPv4 address.
AddressKind classify(const IpAddress& address);
/// "public", "loopback", "private", "link-local", "cgnat", "metadata", ...
std::string_view kind_name(AddressKind kind);

/// A host as it appears in a URL or a proxy request, put in one canonical form.
struct Host {
  enum class Form { Name, Ipv4, Ipv6 };
  Form form = Form::Name;
  /// Lower case, percent-decoded, without brackets or a trailing dot; IPv4 literals in any form
  /// URLs allow (2130706433, 0177.0.0.1, 0x7f.1) rewritten dotted-decimal ("127.0.0.1"), IPv6
  /// literals in their compressed form ("::1").
  std::string text;
  /// Set for the two literal forms.
  std::optional<IpAddress> literal;
};

/// Parses a host the way browsers do (WHATWG URL host parsing): a name (an internationalised one
/// in its ASCII form, IDNA by libidn2: "bücher.example" is "xn--bcher-kva.example"), an IPv4
/// literal in any of the numeric forms, or a bracketed IPv6 literal. nullopt when it is none of
/// them (empty, forbidden characters, a name IDNA refuses, an IPv4-looking host out of range such
/// as 1.2.3.4.5).
std::optional<Host> parse_host(std::string_view host);

/// The kind a host *name* has without resolving it: Loopback for localhost and *.localhost
/// (browsers never look these up), nullopt for every other name.
std::optional<AddressKind> name_kind(std::string_view canonical_name);

/// The host and port of a proxy request ("host:port", "[::1]:443") or of a URL.
struct Authority {
  Host host;
  std::uint16_t port = 0;
};

/// Parses "host", "host:port" or "[v6]:port"; a missing or empty port is `default_port`. nullopt
/// when the host is invalid or the port is not a number in 1..65535.
std::optional<Authority> parse_authority(std::string_view authority, std::uint16_t default_port);

/// A page URL taken apart.
struct UrlTarget {
  /// "http" or "https".
  std::string scheme;
  Host host;
  /// The explicit port or the scheme's default.
  std::uint16_t port = 0;
};

/// The longest URL a caller may give (and a redirect may lead to): far above any page's real
/// address, and far below the request head the egress gateway reads (GatewayOptions
/// max_head_bytes), so that a URL is never refused by the gateway as if by the site.
inline constexpr std::size_t kMaxUrlLength = 16 * 1024;

/// Why `url` is refused before it is parsed, or empty: longer than kMaxUrlLength, or with a control
/// character (0x00-0x1F, 0x7F; a CR LF would end the request line it is sent in). The reason names
/// the character by its code and never quotes the URL.
std::string url_refused_because(std::string_view url);

/// Takes a URL apart the way browsers read it: surrounding spaces ignored, back-slashes read as
/// slashes, "http:host" read as "http://host". Throws gleaner::Error(InvalidParameter) naming
/// `parameter` when url_refused_because() says why, or when it is not an http(s) URL with a valid
/// host and port (file:, chrome:, data:, javascript:, ftp:, ws: ... are refused).
UrlTarget parse_http_url(std::string_view url, const std::string& parameter = "url");

/// `ref` (a Location header, a link) resolved against `base` (an absolute http(s) URL; empty when
/// `ref` must be absolute) as the URL Standard's basic URL parser does for http and https, which is
/// what Chromium does: "http:x/y" from an http page is relative (its sibling x/y) while
/// "https:host/y" is absolute, back-slashes are slashes, dot segments are applied. The result is
/// serialised as a browser sends it: scheme and host in lower case, the host in ASCII (IDNA), no
/// default port, characters outside URLs percent-encoded, no fragment. nullopt when it is not an
/// http(s) URL with a valid host.
std::optional<std::string> resolve_http_url(std::string_view base, std::string_view ref);

/// The message of every refusal the guard causes, so callers and tests can recognise it.
inline constexpr std::string_view kPrivateAddressMessage = "the URL resolves to a private address";

/// Decides which addresses may be reached.
class AddressGuard {
 public:
  /// `allow_private_addresses` lets loopback, private, link-local and CGNAT addresses through
  /// (tests, replay, a service meant for an internal network). Metadata, unspecified, multicast,
  /// broadcast and reserved addresses stay refused either way: no page ever needs them.
  explicit AddressGuard(bool allow_private_addresses = false)
      : allow_private_(allow_private_addresses) {}
  /// Entry `allow_private_addresses` (environment GLEANER_ALLOW_PRIVATE_ADDRESSES), default false.
  static AddressGuard from_config(const Config& config);

  bool allow_private_addresses() const { return allow_private_; }
  bool allows(AddressKind kind) const;
  bool allows(const IpAddress& address) const { return allows(classify(address)); }

  /// Checks a caller's page URL without resolving any name: the scheme (http or https only), the
  /// host's syntax, an IP literal in any form, localhost names. Throws
  /// gleaner::Error(InvalidParameter) naming `parameter`. Names that resolve to refused addresses
  /// are the gateway's to catch (Gateway::check_url resolves too).
  UrlTarget check_url(std::string_view url, const std::string& parameter = "url") const;

  /// Why `host`, which resolved to `addresses`, is refused ("resolves to 10.0.0.1 (private)"),
  /// or nullopt when every address is allowed.
  std::optional<std::string> refusal(const Host& host,
                                     const std::vector<IpAddress>& addresses) const;

 private:
  bool allow_private_;
};

}  // namespace gleaner::proxies
