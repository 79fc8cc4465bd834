#pragma once
// Internal to proxies/: the state a lease shares with the gateway's connections.
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>

#include "proxies/lease.h"

namespace gleaner::proxies::detail {

struct LeaseRecord {
  LeaseRecord(std::string id_, std::string password_, Route route_)
      : id(std::move(id_)), password(std::move(password_)), route(std::move(route_)) {}

  const std::string id;        // also the proxy username
  const std::string password;  // the secret the browser answers the 407 with
  const Route route;

  /// Keeps `incident` unless the lease already holds kMaxKept of them.
  void add_incident(GatewayIncident incident);
  /// Notes a document URL of the top frame (at most kMaxKept).
  void add_main_frame_url(std::string url);
  std::vector<GatewayIncident> incidents_copy() const;
  std::vector<std::string> main_frame_urls_copy() const;
  /// Drops the incidents and documents noted so far.
  void forget();

  static constexpr std::size_t kMaxKept = 256;

 private:
  mutable std::mutex mutex_;  // guards incidents_ and main_frame_urls_
  std::vector<GatewayIncident> incidents_;
  std::vector<std::string> main_frame_urls_;
};

/// The open leases by username. Shared by the gateway and its leases, so a lease may outlive the
/// gateway.
class LeaseRegistry {
 public:
  void add(std::shared_ptr<LeaseRecord> record);
  void remove(const std::string& id);
  /// The lease whose username and password these are, or null. The password is compared in
  /// constant time.
  std::shared_ptr<LeaseRecord> authenticate(const std::string& username,
                                            const std::string& password) const;
  std::size_t size() const;
  /// Whether `id` is one of the last leases closed: its page's stragglers (requests still in
  /// flight when the lease ended) are expected, unlike credentials nobody was ever given.
  bool recently_closed(const std::string& id) const;

 private:
  static constexpr std::size_t kRecentlyClosedKept = 1024;
  mutable std::mutex mutex_;  // guards leases_ and recently_closed_
  std::map<std::string, std::shared_ptr<LeaseRecord>> leases_;
  std::deque<std::string> recently_closed_;  // oldest first, at most kRecentlyClosedKept
};

}  // namespace gleaner::proxies::detail
