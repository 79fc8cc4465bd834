#pragma once
// The HTTP client of POST /scrape/web's jsRendering: false road (libcurl): one GET, with the
// caller's headers, through an HTTP proxy (the egress gateway, which applies the address guard and
// the upstream proxies to every connection), redirects followed by hand so each hop is checked
// first, gzip/deflate/br/zstd decoded, a size cap and the request's deadline.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"

namespace gleaner::plain {

struct HttpProxy {
  std::string server;  ///< "http://127.0.0.1:<port>"
  std::string username;
  std::string password;
};

struct HttpRequest {
  std::string url;
  /// Sent as given ("Cookie" included); they replace the defaults of the same name.
  std::map<std::string, std::string> headers;
  std::optional<HttpProxy> proxy;
  /// Redirects followed at most (a longer chain is an UpstreamError).
  int max_redirects = 10;
  /// Bytes of (decoded) body kept; the rest is not read and `truncated` is set.
  std::size_t max_bytes = 20'000'000;
  /// Called with every URL before it is requested (the page and each redirect target): throws to
  /// refuse it (the address guard's check).
  std::function<void(const std::string& url)> before_hop;
};

struct HttpResponse {
  /// The URL finally answered (after redirects).
  std::string url;
  int status = 0;
  /// Of the final response; lower-case names, repeated headers joined with ", ".
  std::map<std::string, std::string> headers;
  std::string body;
  bool truncated = false;
};

/// Loads `request.url`. Throws gleaner::Error: Timeout at the deadline, UpstreamError for a
/// network, TLS or proxy failure (the message says which URL and why) and for more redirects than
/// allowed; whatever before_hop throws.
HttpResponse http_get(const HttpRequest& request, Deadline deadline);

/// The User-Agent sent unless the request's headers name one: a current desktop Chrome's, so the
/// site answers what it answers a browser.
inline constexpr const char* kDesktopUserAgent =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Safari/537.36";

}  // namespace gleaner::plain
