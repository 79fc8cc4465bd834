#pragma once
// The request interception hook: every request a leased page makes can be paused (DevTools Fetch
// domain) and handed to a chain of Interceptors, which continue it, fail it, or answer it
// themselves. Blocking resource types, answering from a replay archive and refusing private
// addresses are all Interceptors.
//
// Order: the pool's own interceptors first, then the lease's (ContextOptions::interceptors), then
// the pool's replay archive when one is configured, which always answers. The first decision wins;
// when nobody decides the request continues to the network.
#include <map>
#include <optional>
#include <string>
#include <variant>

namespace gleaner::browser {

/// One paused request, as an Interceptor sees it.
struct InterceptedRequest {
  std::string url;
  std::string method;
  /// DevTools resource type: Document, Stylesheet, Image, Media, Font, Script, XHR, Fetch, ...
  std::string resource_type;
  std::map<std::string, std::string> headers;
  /// A document request of any frame (the page itself or an iframe).
  bool is_navigation = false;
  /// A document request of the page's top frame: the page being loaded or one of its redirects.
  bool is_main_frame = false;
};

/// Send the request on unchanged.
struct Continue {};
/// Fail the request as if the network had: `reason` is a DevTools Network.ErrorReason such as
/// "BlockedByClient", "AccessDenied", "AddressUnreachable", "ConnectionRefused".
struct Fail {
  std::string reason = "BlockedByClient";
};
/// Answer the request without the network.
struct Fulfill {
  int status = 200;
  std::map<std::string, std::string> headers;
  std::string body;
};
using Decision = std::variant<Continue, Fail, Fulfill>;

/// Which requests an Interceptor is asked about.
enum class InterceptScope {
  AllRequests,  ///< every request: page, sub-resources, XHR
  Documents,    ///< only document requests (top frame and iframes, redirects included)
};

/// Decides what happens to paused requests. decide() runs on a small executor of the browser, off
/// the DevTools thread, and may block briefly (e.g. to resolve a name); it may be called from
/// several threads at once, so implementations must be thread-safe.
class Interceptor {
 public:
  virtual ~Interceptor() = default;
  /// A decision, or nullopt to leave it to the next interceptor.
  virtual std::optional<Decision> decide(const InterceptedRequest& request) = 0;
  /// Narrower is cheaper: when every interceptor of a page only wants documents, Chromium pauses
  /// only those, and sub-resources go on without a round trip.
  virtual InterceptScope scope() const { return InterceptScope::AllRequests; }
};

}  // namespace gleaner::browser
