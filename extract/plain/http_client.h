#pragma once
// The service's one HTTP client (libcurl).
// - http_get(): POST /scrape/web's jsRendering: false road: one GET, with the caller's headers,
//   through an HTTP proxy (the egress gateway, which applies the address guard and the upstream
//   proxies to every connection), redirects followed by hand so each hop is checked first,
//   gzip/deflate/br/zstd decoded, a size cap and the request's deadline.
// - post_for_status(): the webhook deliveries (jobs/http_webhook_sender.h): one POST to whoever a
//   caller names, where only the answer's status counts; bounded in time and in bytes read.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
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

/// Loads `request.url` (taken as Chromium reads it, its host in ASCII) and the redirects it leads
/// to (their Location read as Chromium reads it, proxies::resolve_http_url). Throws
/// gleaner::Error: Timeout at the deadline, UpstreamError for a network, TLS or proxy failure (the
/// message says which URL and why), for more redirects than allowed and for a redirect to a URL
/// past proxies::kMaxUrlLength; Unavailable within about a second of the calling thread's work
/// being cancelled (core/cancel.h); whatever before_hop throws.
HttpResponse http_get(const HttpRequest& request, Deadline deadline);

/// A POST whose answer only counts by its status. Nothing is followed or bypassed: no proxy (not
/// even one the environment names), no redirect (a 3xx is the status), http and https only, TLS
/// 1.2 or later with the peer's certificate verified for the URL's host.
struct StatusPost {
  std::string url;
  /// Sent as given after Content-Type; a User-Agent among them replaces `user_agent`. Names are
  /// HTTP tokens and values have no CR or LF (the caller checks).
  std::map<std::string, std::string> headers;
  std::string content_type = "application/json";
  std::string user_agent;
  std::string body;
  /// The addresses to connect to for the URL's host (numeric, IPv6 without brackets) instead of
  /// resolving it: the addresses the caller checked. Empty: resolve as usual.
  std::vector<std::string> addresses;
  /// Asked with the numeric address of every connection before it is made; false refuses it
  /// (the request then fails as refused). Unset: every address.
  std::function<bool(const std::string& address)> may_connect;
  /// Bytes of the answer read at most while waiting for its final status line (interim 1xx
  /// answers included); the answer's headers after the status line and its body are never read.
  std::size_t max_answer_bytes = 4096;
};

/// Why post_for_status() failed.
struct PostFailure {
  enum class Kind {
    Timeout,  ///< the deadline passed first
    Refused,  ///< may_connect() refused every address
    Network,  ///< anything else: no connection, TLS, closed, not HTTP, no status in time
  };
  Kind kind = Kind::Network;
  std::string detail;  ///< in words: "the receiver closed the connection before answering", ...
};

/// The final status of `post`'s answer (>= 200), or why there is none. One deadline for the whole
/// attempt: resolving, connecting, TLS, sending and the status line. Never throws for what the
/// other side does.
std::variant<int, PostFailure> post_for_status(const StatusPost& post, Deadline deadline);

/// The User-Agent sent unless the request's headers name one: a current desktop Chrome's, so the
/// site answers what it answers a browser.
inline constexpr const char* kDesktopUserAgent =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Safari/537.36";

}  // namespace gleaner::plain
