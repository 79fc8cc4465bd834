#pragma once
// One browser context's way out through the egress gateway. The gateway tells its clients apart
// by proxy credentials: each lease has its own random username and password, which the browser
// answers to the gateway's 407 challenge (Fetch.authRequired), and its own Route (direct, or an
// upstream proxy whose credentials only the gateway knows). A lease also keeps what the gateway
// refused or could not reach for it, so the endpoint can tell a refused main document (400) from
// a blocked sub-resource.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proxies/pool.h"

namespace gleaner::proxies {

namespace detail {
struct LeaseRecord;
class LeaseRegistry;
}  // namespace detail

/// Something the gateway refused or could not do for a lease.
struct GatewayIncident {
  enum class Kind {
    /// The address guard refused the target (answered 403 with X-Gleaner-Refused).
    Refused,
    /// The name did not resolve, no connection could be made, or the upstream proxy failed
    /// (answered 502 or 504).
    Unreachable,
  };
  Kind kind = Kind::Refused;
  /// The target's host in canonical form (see parse_host) and its port.
  std::string host;
  std::uint16_t port = 0;
  /// What happened, for logs: "resolves to 127.0.0.1 (loopback)", "connection refused", ...
  std::string detail;
};

/// A lease on the gateway. Movable; ending it (destructor or close()) makes the gateway refuse
/// its credentials from then on (connections already open finish normally).
class GatewayLease {
 public:
  GatewayLease(GatewayLease&& other) noexcept;
  GatewayLease& operator=(GatewayLease&& other) noexcept;
  ~GatewayLease();
  GatewayLease(const GatewayLease&) = delete;
  GatewayLease& operator=(const GatewayLease&) = delete;

  /// Names the lease in logs; it is also the proxy username.
  const std::string& id() const;
  /// "http://127.0.0.1:<port>": the browser context's proxy server.
  const std::string& proxy_server() const;
  const std::string& username() const;
  /// The lease's secret; never log it.
  const std::string& password() const;
  const Route& route() const;

  /// The proxy bypass list to give the browser context: {"<-loopback>"}, which removes Chromium's
  /// implicit bypass of localhost and loopback addresses, so that those requests reach the gateway
  /// (and its guard) like every other.
  static std::vector<std::string> bypass_list() { return {"<-loopback>"}; }

  /// What the gateway refused or could not reach for this lease, oldest first (at most the first
  /// 256; later ones are only logged).
  std::vector<GatewayIncident> incidents() const;
  /// The first incident about the host and port of `url`, if any.
  std::optional<GatewayIncident> incident_for(std::string_view url) const;

  /// Notes the URL of a document the top frame requested (the page, its redirects and later
  /// navigations), so check_main_document() knows which hosts were main documents. Whoever drives
  /// the browser calls it for every such request (extract/pool_tabs.cpp does, from the browser's
  /// request interception); it decides nothing. Safe from any thread, and after the lease moved or
  /// ended (the notes then go nowhere anyone reads).
  std::function<void(std::string url)> main_document_notes() const;

  /// Forgets the incidents and top-frame documents noted so far: a tab that navigates again (a
  /// crawl's tab loads many pages) is diagnosed on what its new navigation met, and each page
  /// gets its own 256 notes of each kind.
  void begin_navigation();

  /// Throws gleaner::Error(InvalidParameter, "the URL resolves to a private address") naming
  /// `parameter` when the gateway refused a document of the top frame (the page itself, a redirect
  /// of it, or a navigation it made). Call it after navigating, whether the navigation succeeded
  /// or threw: the refusal is the better explanation of a failure.
  void check_main_document(const std::string& parameter = "url") const;
  /// Throws gleaner::Error(UpstreamError) saying why in words when the gateway could not reach
  /// the host of a top-frame document: it does not resolve, refused or timed out the connection,
  /// or the upstream proxy failed or refused. The browser only sees a failed tunnel
  /// (net::ERR_TUNNEL_CONNECTION_FAILED) or the gateway's own 502. Call it when the navigation
  /// failed, or answered with the gateway's own error; never after a page that loaded.
  void check_main_document_reached() const;

  /// Ends the lease now (idempotent).
  void close();

 private:
  friend class Gateway;
  GatewayLease(std::shared_ptr<detail::LeaseRecord> record,
               std::weak_ptr<detail::LeaseRegistry> registry, std::string proxy_server);
  /// The first incident of `kind` on the host of a top-frame document, pointing into
  /// `incidents` (the record's, copied), or nullptr.
  const GatewayIncident* main_document_incident(GatewayIncident::Kind kind,
                                                std::vector<GatewayIncident>& incidents) const;

  std::shared_ptr<detail::LeaseRecord> record_;
  std::weak_ptr<detail::LeaseRegistry> registry_;
  std::string proxy_server_;
};

}  // namespace gleaner::proxies
