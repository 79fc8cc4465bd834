#pragma once
// The egress gateway: a small HTTP forward proxy inside gleaner, listening on 127.0.0.1, through
// which every browser context sends all its traffic (browser::ContextOptions::proxy).
//
// For each request (CONNECT host:port for HTTPS and WebSockets, absolute-form GET http://... for
// plain HTTP) it
//   1. demands the lease's credentials (407 otherwise), which tell it the lease and its Route;
//   2. resolves the host itself (Resolver) and asks the AddressGuard about every address, refusing
//      with 403 and "X-Gleaner-Refused: private-address" if any is refused;
//   3. connects to one of the addresses it checked (never resolving again, so DNS rebinding
//      cannot slip a second answer in), or to the lease's upstream proxy, to which it adds the
//      upstream's credentials itself (the page never sees them);
//   4. relays bytes both ways until either side closes or the connection idles too long.
// Everything refused or unreachable is logged with the lease id and host, and kept on the lease
// (GatewayLease::incidents) so the endpoint can turn a refused main document into a 400.
//
// Wiring, per request (extract/pool_tabs.cpp does it for every page): `auto way_out =
// gateway.open_lease(pools.route(type, country));` then put its proxy_server(), bypass_list(),
// username() and password() in the context's proxy settings and feed its main_document_notes()
// the top frame's document URLs; after navigating, call way_out.check_main_document().
// docs/proxies.md has the details.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/config.h"
#include "proxies/guard.h"
#include "proxies/lease.h"
#include "proxies/pool.h"
#include "proxies/resolver.h"

namespace gleaner::proxies {

struct GatewayOptions {
  /// Entry `allow_private_addresses` (GLEANER_ALLOW_PRIVATE_ADDRESSES=true): see AddressGuard.
  bool allow_private_addresses = false;
  /// Entry `gateway_connect_timeout_ms`: resolving a target, connecting to it (or to the upstream
  /// proxy) and the upstream proxy's answer to CONNECT, together. Past it: 504.
  Millis connect_timeout{10000};
  /// Entry `gateway_idle_timeout_ms`: a connection that moves no byte either way for this long is
  /// closed; also the longest wait for a request head.
  Millis idle_timeout{60000};
  /// Entry `gateway_max_connections`: browser connections open at once; more are answered 503.
  int max_connections = 512;
  /// Entry `gateway_threads`: threads relaying bytes.
  int threads = 2;
  /// Entry `gateway_resolver_threads`: name resolutions at once (getaddrinfo blocks a thread).
  int resolver_threads = 4;
  /// The longest request or response head read (a longer one is refused with 431 or 502).
  std::size_t max_head_bytes = 64 * 1024;

  /// Reads the entries above with these defaults. Throws gleaner::Error(Internal) for a value out
  /// of range.
  static GatewayOptions from_config(const Config& config);
};

/// Counters for /metrics.
struct GatewayStats {
  std::uint64_t connections_open = 0;
  std::uint64_t connections_total = 0;
  /// Targets the address guard refused.
  std::uint64_t refused_total = 0;
  /// Targets that did not resolve or connect, and upstream proxy failures.
  std::uint64_t unreachable_total = 0;
  /// Requests without valid lease credentials (407).
  std::uint64_t auth_failures_total = 0;
  std::uint64_t leases_open = 0;
};

class Gateway {
 public:
  /// Binds 127.0.0.1 on a free port and starts its threads. `pools` may be null (direct routes
  /// only); `resolver` null means the system resolver.
  Gateway(GatewayOptions options, std::shared_ptr<UpstreamPools> pools,
          std::shared_ptr<Resolver> resolver);
  /// Everything from configuration: GatewayOptions::from_config, UpstreamPools::from_config, and
  /// `resolver` (make_resolver(config) when null).
  static std::unique_ptr<Gateway> from_config(const Config& config,
                                              std::shared_ptr<Resolver> resolver = nullptr);
  /// Stops listening, closes every connection and joins the threads.
  ~Gateway();
  Gateway(const Gateway&) = delete;
  Gateway& operator=(const Gateway&) = delete;

  /// A new lease whose traffic takes `route` (from pools().route(...)).
  GatewayLease open_lease(const Route& route);

  /// Checks a caller's page URL before it is loaded: AddressGuard::check_url, then a name is
  /// resolved like the gateway would and refused when any address is. Throws
  /// gleaner::Error(InvalidParameter) naming `parameter`. A name that does not resolve (or not
  /// before `deadline`) passes: the navigation reports it, and the gateway checks again anyway.
  UrlTarget check_url(std::string_view url, Deadline deadline,
                      const std::string& parameter = "url") const;

  /// The port it listens on (127.0.0.1).
  std::uint16_t port() const;
  /// "http://127.0.0.1:<port>".
  std::string proxy_server() const;
  const AddressGuard& guard() const;
  /// The upstream pools (empty when none were given).
  UpstreamPools& pools();
  GatewayStats stats() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace gleaner::proxies
