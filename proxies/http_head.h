#pragma once
// The head of an HTTP/1.x message (start line and header fields), as a forward proxy reads and
// rewrites it. Bodies are never parsed: the gateway passes them through as bytes.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gleaner::proxies {

/// Header fields in their order, names compared without regard to case.
class HeaderFields {
 public:
  /// The first value of `name`, or nullopt.
  std::optional<std::string> get(std::string_view name) const;
  void add(std::string name, std::string value);
  /// Removes every field named `name`.
  void remove(std::string_view name);
  /// Removes the hop-by-hop fields a proxy must not forward (RFC 9110 7.6.1): Connection and the
  /// fields it names, Keep-Alive, Proxy-Connection, Proxy-Authorization, Proxy-Authenticate, TE,
  /// Trailer, Upgrade.
  void remove_hop_by_hop();
  const std::vector<std::pair<std::string, std::string>>& all() const { return fields_; }
  /// "Name: value\r\n" for each field.
  std::string serialize() const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

struct RequestHead {
  std::string method;
  /// As sent: "host:port" for CONNECT, "http://host/path" from a proxy client.
  std::string target;
  std::string version = "HTTP/1.1";
  HeaderFields fields;
  /// The head with its final blank line.
  std::string serialize() const;
};

struct ResponseHead {
  std::string version = "HTTP/1.1";
  int status = 0;
  std::string reason;
  HeaderFields fields;
  std::string serialize() const;
};

/// Parses a head that ends with (and includes) the blank line. nullopt when it is malformed:
/// a bad start line, a field without a colon or with a folded continuation line.
std::optional<RequestHead> parse_request_head(std::string_view head);
std::optional<ResponseHead> parse_response_head(std::string_view head);

/// "Basic " + base64(username:password).
std::string basic_credentials(std::string_view username, std::string_view password);
/// The username and password of a "Basic ..." field value, or nullopt.
std::optional<std::pair<std::string, std::string>> parse_basic_credentials(std::string_view value);

}  // namespace gleaner::proxies
