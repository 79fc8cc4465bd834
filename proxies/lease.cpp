#include "proxies/lease.h"

#include <algorithm>

#include "core/error.h"
#include "core/ids.h"
#include "proxies/guard.h"
#include "proxies/lease_record.h"

namespace gleaner::proxies {
namespace detail {

void LeaseRecord::add_incident(GatewayIncident incident) {
  std::lock_guard lock(mutex_);
  if (incidents_.size() < kMaxKept) incidents_.push_back(std::move(incident));
}

void LeaseRecord::add_main_frame_url(std::string url) {
  std::lock_guard lock(mutex_);
  if (main_frame_urls_.size() < kMaxKept) main_frame_urls_.push_back(std::move(url));
}

std::vector<GatewayIncident> LeaseRecord::incidents_copy() const {
  std::lock_guard lock(mutex_);
  return incidents_;
}

std::vector<std::string> LeaseRecord::main_frame_urls_copy() const {
  std::lock_guard lock(mutex_);
  return main_frame_urls_;
}

void LeaseRecord::forget() {
  std::lock_guard lock(mutex_);
  incidents_.clear();
  main_frame_urls_.clear();
}

void LeaseRegistry::add(std::shared_ptr<LeaseRecord> record) {
  std::lock_guard lock(mutex_);
  leases_[record->id] = std::move(record);
}

void LeaseRegistry::remove(const std::string& id) {
  std::lock_guard lock(mutex_);
  if (leases_.erase(id) == 0) return;
  recently_closed_.push_back(id);
  if (recently_closed_.size() > kRecentlyClosedKept) recently_closed_.pop_front();
}

bool LeaseRegistry::recently_closed(const std::string& id) const {
  std::lock_guard lock(mutex_);
  return std::find(recently_closed_.begin(), recently_closed_.end(), id) != recently_closed_.end();
}

std::shared_ptr<LeaseRecord> LeaseRegistry::authenticate(const std::string& username,
                                                         const std::string& password) const {
  std::lock_guard lock(mutex_);
  auto it = leases_.find(username);
  if (it == leases_.end() || !constant_time_equal(it->second->password, password)) return nullptr;
  return it->second;
}

std::size_t LeaseRegistry::size() const {
  std::lock_guard lock(mutex_);
  return leases_.size();
}

}  // namespace detail

namespace {

std::optional<Authority> authority_of(std::string_view url) {
  try {
    const UrlTarget target = parse_http_url(url);
    return Authority{target.host, target.port};
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

GatewayLease::GatewayLease(std::shared_ptr<detail::LeaseRecord> record,
                           std::weak_ptr<detail::LeaseRegistry> registry, std::string proxy_server)
    : record_(std::move(record)),
      registry_(std::move(registry)),
      proxy_server_(std::move(proxy_server)) {}

GatewayLease::GatewayLease(GatewayLease&& other) noexcept = default;

GatewayLease& GatewayLease::operator=(GatewayLease&& other) noexcept {
  if (this != &other) {
    close();
    record_ = std::move(other.record_);
    registry_ = std::move(other.registry_);
    proxy_server_ = std::move(other.proxy_server_);
  }
  return *this;
}

GatewayLease::~GatewayLease() {
  close();
}

void GatewayLease::close() {
  if (!record_) return;
  if (auto registry = registry_.lock()) registry->remove(record_->id);
  registry_.reset();
}

const std::string& GatewayLease::id() const {
  return record_->id;
}
const std::string& GatewayLease::proxy_server() const {
  return proxy_server_;
}
const std::string& GatewayLease::username() const {
  return record_->id;
}
const std::string& GatewayLease::password() const {
  return record_->password;
}
const Route& GatewayLease::route() const {
  return record_->route;
}

std::vector<GatewayIncident> GatewayLease::incidents() const {
  return record_->incidents_copy();
}

std::optional<GatewayIncident> GatewayLease::incident_for(std::string_view url) const {
  const auto target = authority_of(url);
  if (!target) return std::nullopt;
  for (auto& incident : record_->incidents_copy())
    if (incident.host == target->host.text && incident.port == target->port) return incident;
  return std::nullopt;
}

std::function<void(std::string url)> GatewayLease::main_document_notes() const {
  // The record, not the lease: the lease moves, the browser's interception outlives it.
  return [record = record_](std::string url) { record->add_main_frame_url(std::move(url)); };
}

const GatewayIncident* GatewayLease::main_document_incident(
    GatewayIncident::Kind kind, std::vector<GatewayIncident>& incidents) const {
  incidents = record_->incidents_copy();
  for (const auto& url : record_->main_frame_urls_copy()) {
    const auto target = authority_of(url);
    if (!target) continue;
    for (const auto& incident : incidents) {
      if (incident.kind == kind && incident.host == target->host.text &&
          incident.port == target->port) {
        return &incident;
      }
    }
  }
  return nullptr;
}

void GatewayLease::begin_navigation() {
  record_->forget();
}

void GatewayLease::check_main_document(const std::string& parameter) const {
  std::vector<GatewayIncident> incidents;
  if (const auto* incident = main_document_incident(GatewayIncident::Kind::Refused, incidents)) {
    throw Error(ErrorCode::InvalidParameter, std::string(kPrivateAddressMessage),
                "lease " + record_->id + ": the gateway refused " + incident->host + ":" +
                    std::to_string(incident->port) + " (" + incident->detail + ")")
        .with_parameter(parameter);
  }
}

void GatewayLease::check_main_document_reached() const {
  std::vector<GatewayIncident> incidents;
  if (const auto* incident =
          main_document_incident(GatewayIncident::Kind::Unreachable, incidents)) {
    // The detail is already words: "shop.invalid does not resolve (Name or service not known)",
    // "Connection refused (203.0.113.7)", "upstream proxy-1 refused the configured credentials".
    throw Error(ErrorCode::UpstreamError, "the site could not be reached: " + incident->detail,
                "lease " + record_->id + ": " + incident->host + ":" +
                    std::to_string(incident->port) + " unreachable");
  }
}

}  // namespace gleaner::proxies
