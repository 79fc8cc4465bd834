#include "proxies/resolver.h"

#include "core/error.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <future>
#include <thread>

namespace gleaner::proxies {

Resolution SystemResolver::resolve(const std::string& name) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  const int rc = ::getaddrinfo(name.c_str(), nullptr, &hints, &list);
  if (rc != 0) return {{}, gai_strerror(rc)};
  Resolution result;
  for (addrinfo* ai = list; ai; ai = ai->ai_next) {
    IpAddress address;
    if (ai->ai_family == AF_INET) {
      sockaddr_in in{};
      std::memcpy(&in, ai->ai_addr, sizeof in);
      address = boost::asio::ip::address_v4(ntohl(in.sin_addr.s_addr));
    } else if (ai->ai_family == AF_INET6) {
      sockaddr_in6 in6{};
      std::memcpy(&in6, ai->ai_addr, sizeof in6);
      boost::asio::ip::address_v6::bytes_type bytes;
      std::memcpy(bytes.data(), &in6.sin6_addr, bytes.size());
      address = boost::asio::ip::address_v6(bytes);
    } else {
      continue;
    }
    if (std::find(result.addresses.begin(), result.addresses.end(), address) ==
        result.addresses.end())
      result.addresses.push_back(address);
  }
  ::freeaddrinfo(list);
  if (result.addresses.empty()) result.error = "no address";
  return result;
}

OverrideResolver::OverrideResolver(std::map<std::string, std::vector<IpAddress>> overrides,
                                   std::shared_ptr<Resolver> fallback)
    : overrides_(std::move(overrides)), fallback_(std::move(fallback)) {}

Resolution OverrideResolver::resolve(const std::string& name) {
  if (auto it = overrides_.find(name); it != overrides_.end()) return {it->second, {}};
  if (!fallback_) return {{}, "no override for " + name};
  return fallback_->resolve(name);
}

std::map<std::string, std::vector<IpAddress>> OverrideResolver::parse(const nlohmann::json& entry) {
  auto bad = [](const std::string& why) {
    return Error(ErrorCode::Internal,
                 "configuration entry 'resolve_overrides' (or GLEANER_RESOLVE_OVERRIDES): " + why);
  };
  std::map<std::string, std::vector<IpAddress>> overrides;
  if (entry.is_null()) return overrides;
  if (!entry.is_object()) throw bad("expected an object from host name to address(es)");
  for (const auto& [name, value] : entry.items()) {
    auto host = parse_host(name);
    if (!host || host->form != Host::Form::Name) throw bad("'" + name + "' is not a host name");
    const nlohmann::json list = value.is_array() ? value : nlohmann::json::array({value});
    std::vector<IpAddress> addresses;
    for (const auto& item : list) {
      boost::system::error_code ec;
      const auto address = item.is_string() ? boost::asio::ip::make_address(item.get<std::string>(), ec)
                                            : IpAddress();
      if (!item.is_string() || ec) throw bad("the address of '" + name + "' is not an IP address");
      addresses.push_back(address);
    }
    if (addresses.empty()) throw bad("'" + name + "' has no address");
    overrides[host->text] = std::move(addresses);
  }
  return overrides;
}

CachingResolver::CachingResolver(std::shared_ptr<Resolver> inner, Options options,
                                 std::function<SteadyClock::time_point()> now)
    : inner_(std::move(inner)),
      options_(options),
      now_(now ? std::move(now) : [] { return SteadyClock::now(); }) {}

std::size_t CachingResolver::inner_calls() const {
  std::lock_guard lock(mutex_);
  return inner_calls_;
}

void CachingResolver::prune_locked(SteadyClock::time_point now) {
  std::erase_if(entries_, [&](const auto& e) { return !e.second.pending && e.second.expires <= now; });
  if (entries_.size() < options_.max_entries) return;
  std::erase_if(entries_, [](const auto& e) { return !e.second.pending; });
}

Resolution CachingResolver::resolve(const std::string& name) {
  std::unique_lock lock(mutex_);
  for (;;) {
    auto it = entries_.find(name);
    if (it == entries_.end()) break;
    if (it->second.pending) {
      // Somebody is asking already: share their answer rather than send the same query again.
      cv_.wait(lock);
      continue;
    }
    if (it->second.expires > now_()) return it->second.resolution;
    entries_.erase(it);
    break;
  }
  if (entries_.size() >= options_.max_entries) prune_locked(now_());
  entries_[name];  // pending
  ++inner_calls_;
  lock.unlock();

  Resolution resolution;
  try {
    resolution = inner_->resolve(name);
  } catch (...) {
    lock.lock();
    entries_.erase(name);
    cv_.notify_all();
    throw;
  }

  lock.lock();
  const Millis ttl = resolution.addresses.empty() ? options_.negative_ttl : options_.ttl;
  if (ttl.count() > 0) {
    Entry& entry = entries_[name];
    entry.resolution = resolution;
    entry.expires = now_() + ttl;
    entry.pending = false;
  } else {
    entries_.erase(name);  // waiters ask again themselves
  }
  cv_.notify_all();
  return resolution;
}

std::optional<Resolution> resolve_before(const std::shared_ptr<Resolver>& resolver,
                                         const std::string& name, Deadline until,
                                         const TaskRunner& run) {
  if (!resolver) return std::nullopt;
  auto promise = std::make_shared<std::promise<Resolution>>();
  auto answer = promise->get_future();
  auto task = [promise, resolver, name] {
    try {
      promise->set_value(resolver->resolve(name));
    } catch (...) {
      promise->set_exception(std::current_exception());
    }
  };
  // Detached by default: a getaddrinfo that outlives the deadline finishes on its own
  // (resolv.conf bounds it) and its answer warms the cache for whoever checks again.
  if (run) {
    run(task);
  } else {
    std::thread(task).detach();
  }
  if (answer.wait_until(until) != std::future_status::ready) return std::nullopt;
  try {
    return answer.get();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

UrlTarget check_url_resolving(const AddressGuard& guard, const ResolveBefore& resolve,
                              std::string_view url, Deadline deadline,
                              const std::string& parameter) {
  UrlTarget target = guard.check_url(url, parameter);
  if (target.host.literal) return target;  // the guard has judged it already
  std::optional<Resolution> resolution = resolve(target.host.text, deadline);
  if (!resolution) return target;
  if (auto why = guard.refusal(target.host, resolution->addresses)) {
    throw Error(ErrorCode::InvalidParameter, std::string(kPrivateAddressMessage),
                target.host.text + " " + *why)
        .with_parameter(parameter);
  }
  return target;
}

std::shared_ptr<Resolver> make_resolver(const Config& config) {
  std::shared_ptr<Resolver> resolver = std::make_shared<SystemResolver>();
  auto overrides = OverrideResolver::parse(config.get_json("resolve_overrides"));
  if (!overrides.empty())
    resolver = std::make_shared<OverrideResolver>(std::move(overrides), std::move(resolver));
  CachingResolver::Options cache;
  auto millis = [&](const std::string& entry, Millis fallback) {
    const long long value = config.get_int(entry, fallback.count());
    if (value < 0 || value > 86400000) {
      throw Error(ErrorCode::Internal, "invalid configuration",
                  "configuration entry '" + entry + "' (or " + Config::env_name(entry) +
                      ") must be between 0 and 86400000");
    }
    return Millis(value);
  };
  cache.ttl = millis("resolver_cache_ms", cache.ttl);
  cache.negative_ttl = millis("resolver_negative_cache_ms", cache.negative_ttl);
  if (cache.ttl.count() == 0 && cache.negative_ttl.count() == 0) return resolver;
  return std::make_shared<CachingResolver>(std::move(resolver), cache);
}

}  // namespace gleaner::proxies
