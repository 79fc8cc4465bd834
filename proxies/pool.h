#pragma once
// Pools of upstream proxies, by type (residential, datacenter) and country (ISO 3166-1 alpha-2),
// from the `proxies` configuration entry. A request's proxyType and proxyCountry pick one proxy
// per lease: round-robin within the matching pool, skipping proxies sidelined after repeated
// failures. The egress gateway (proxies/gateway.h) sends a lease's traffic through the proxy its
// Route names and reports each proxy's failures and successes back here.
#include "core/clock.h"
#include "core/config.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::proxies {

enum class ProxyType { Residential, Datacenter };

/// "residential" or "datacenter".
std::string_view type_name(ProxyType type);
/// The type named `text` (lower case, as the API spells it), or nullopt.
std::optional<ProxyType> parse_proxy_type(std::string_view text);

/// One configured upstream proxy (an HTTP forward proxy that supports CONNECT).
struct UpstreamProxy {
  /// Position in the `proxies` entry, counted from 0: how logs name it.
  std::size_t index = 0;
  ProxyType type = ProxyType::Datacenter;
  /// ISO 3166-1 alpha-2, upper case.
  std::string country;
  std::string host;
  std::uint16_t port = 0;
  /// Basic credentials the gateway sends to this proxy; empty username: none.
  std::string username;
  std::string password;

  /// "proxy #3 (datacenter, US, host:port)": for logs; never the credentials.
  std::string label() const;
};

/// Where a lease's traffic goes: straight to the sites, or through one upstream proxy.
struct Route {
  /// Null for a direct route.
  std::shared_ptr<const UpstreamProxy> upstream;

  static Route direct() { return {}; }
  bool is_direct() const { return upstream == nullptr; }
};

class UpstreamPools {
 public:
  /// `sideline`: how long a proxy is skipped once it has failed `failures_before_sideline` times
  /// in a row. The clock tells when a sideline ends.
  UpstreamPools(std::vector<UpstreamProxy> proxies, Millis sideline, int failures_before_sideline,
                const Clock& clock = SystemClock::instance());

  /// Entries `proxies` (a list of {type, country, url: "http://host:port", username?,
  /// password?}; environment: the list as JSON), `proxy_sideline_ms` (default 60000) and
  /// `proxy_sideline_after_failures` (default 3). Throws gleaner::Error(Internal) naming the entry
  /// and the item when the configuration is malformed.
  static std::shared_ptr<UpstreamPools> from_config(const Config& config,
                                                    const Clock& clock = SystemClock::instance());
  /// Parses the `proxies` entry (null: none). Throws gleaner::Error(Internal) when malformed.
  static std::vector<UpstreamProxy> parse(const nlohmann::json& entry);

  /// The route for a request's `proxyType` and `proxyCountry` parameters, each absent or exactly
  /// as the caller sent it: direct when both are absent, otherwise a proxy from pick(). A country
  /// without a type prefers a datacenter proxy of that country (the cheaper kind), then a
  /// residential one. Throws gleaner::Error(InvalidParameter) naming proxyType or proxyCountry
  /// when a value is not valid or no configured proxy matches.
  Route route(const std::optional<std::string>& proxy_type,
              const std::optional<std::string>& proxy_country);

  /// The next proxy of `type` in `country` (nullopt: any), round-robin, skipping sidelined
  /// proxies; when every match is sidelined, the one whose sideline ends first (better a proxy
  /// that failed than no page at all). Null when nothing matches.
  std::shared_ptr<const UpstreamProxy> pick(ProxyType type, const std::optional<std::string>& country);

  /// A connection through `proxy` failed in a way that is the proxy's fault (unreachable, refused
  /// our credentials, broken answer).
  void report_failure(const UpstreamProxy& proxy);
  /// A connection through `proxy` worked: its run of failures is over.
  void report_success(const UpstreamProxy& proxy);
  bool is_sidelined(const UpstreamProxy& proxy) const;

  const std::vector<std::shared_ptr<const UpstreamProxy>>& proxies() const { return proxies_; }

 private:
  struct Health {
    int failures = 0;  // in a row
    std::chrono::system_clock::time_point sidelined_until{};
  };
  bool sidelined_locked(std::size_t index) const;
  /// Whether `proxy` is one of this object's (reports about others are ignored).
  bool ours(const UpstreamProxy& proxy) const;

  const std::vector<std::shared_ptr<const UpstreamProxy>> proxies_;  // immutable after construction
  const Millis sideline_;
  const int failures_before_sideline_;
  const Clock& clock_;

  mutable std::mutex mutex_;                    // guards health_ and cursors_
  std::vector<Health> health_;                  // by UpstreamProxy::index
  std::map<std::string, std::size_t> cursors_;  // "type/country" → where the next pick starts
};

}  // namespace gleaner::proxies
