#pragma once
// Name resolution behind a seam. The egress gateway resolves every name itself (and connects to
// the very address it checked), so what "resolving" means is decided here: the system resolver
// in production, an override map first when configured (like curl --resolve), so tests can make
// a public-looking name lead to 127.0.0.1.
#include "core/clock.h"
#include "core/config.h"
#include "proxies/guard.h"

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gleaner::proxies {

/// What a name resolved to.
struct Resolution {
  std::vector<IpAddress> addresses;
  /// Why there are no addresses (empty when there are some).
  std::string error;
};

class Resolver {
 public:
  virtual ~Resolver() = default;
  /// The addresses of `name` (a canonical host name, see parse_host, never an IP literal). May
  /// block; called from several threads at once.
  virtual Resolution resolve(const std::string& name) = 0;
};

/// getaddrinfo(3): /etc/hosts and DNS as the system is configured.
class SystemResolver final : public Resolver {
 public:
  Resolution resolve(const std::string& name) override;
};

/// Fixed answers for some names; every other name goes to `fallback`.
class OverrideResolver final : public Resolver {
 public:
  OverrideResolver(std::map<std::string, std::vector<IpAddress>> overrides,
                   std::shared_ptr<Resolver> fallback);
  Resolution resolve(const std::string& name) override;

  /// Parses the `resolve_overrides` entry: an object from host name to an address or a list of
  /// addresses, e.g. {"public.example": "127.0.0.1", "two.example": ["10.0.0.1", "::1"]}. Throws
  /// gleaner::Error(Internal) naming the entry when it is malformed.
  static std::map<std::string, std::vector<IpAddress>> parse(const nlohmann::json& entry);

 private:
  const std::map<std::string, std::vector<IpAddress>> overrides_;  // keys in canonical form
  const std::shared_ptr<Resolver> fallback_;
};

/// Resolves `name` before `until`, or nullopt (no answer in time, or the resolver failed).
using ResolveBefore =
    std::function<std::optional<Resolution>(const std::string& name, Deadline until)>;

/// Runs a blocking task somewhere else: a pool's post, or a thread of its own.
using TaskRunner = std::function<void(std::function<void()> task)>;

/// Resolves `name` on `run` (default: a detached thread per call, for callers without a resolver
/// pool such as job creation) and waits until `until`: nullopt when no answer came in time or the
/// resolver failed. A lookup that outlives the deadline finishes on its own.
std::optional<Resolution> resolve_before(const std::shared_ptr<Resolver>& resolver,
                                         const std::string& name, Deadline until,
                                         const TaskRunner& run = {});

/// Checks a URL a caller gave: AddressGuard::check_url, then its name is resolved (`resolve`) and
/// refused when any address is. Throws gleaner::Error(InvalidParameter) naming `parameter`. A
/// name that does not resolve before `deadline` passes: whoever connects checks again anyway.
UrlTarget check_url_resolving(const AddressGuard& guard, const ResolveBefore& resolve,
                              std::string_view url, Deadline deadline,
                              const std::string& parameter);

/// Remembers answers (addresses or "does not resolve") for a while, like a browser's host cache,
/// and lets concurrent lookups of one name share a single call to `inner`. Without it every
/// sub-resource a page asks for costs a DNS query: dozens at once from one page, and a resolver
/// that drops some of them makes getaddrinfo wait out its 5 s retry (measured: a page of 40
/// images on one host took 5 s longer than in a plain browser). A cached answer is the very
/// answer the guard checked before, so nothing here lets a second, different answer in.
class CachingResolver final : public Resolver {
 public:
  struct Options {
    /// How long an answer with addresses is kept.
    Millis ttl{60000};
    /// How long "does not resolve" is kept.
    Millis negative_ttl{60000};
    /// Names kept at most; past it expired entries are dropped, then everything.
    std::size_t max_entries = 4096;
  };
  /// `now` is the monotonic clock by default; tests pass their own.
  CachingResolver(std::shared_ptr<Resolver> inner, Options options,
                  std::function<SteadyClock::time_point()> now = nullptr);
  Resolution resolve(const std::string& name) override;
  /// Calls made to the inner resolver so far (tests, logs).
  std::size_t inner_calls() const;

 private:
  struct Entry {
    Resolution resolution;
    SteadyClock::time_point expires;
    bool pending = true;  // a lookup is in flight; waiters wait on cv_
  };
  void prune_locked(SteadyClock::time_point now);

  const std::shared_ptr<Resolver> inner_;
  const Options options_;
  const std::function<SteadyClock::time_point()> now_;
  mutable std::mutex mutex_;        // guards entries_ and inner_calls_
  std::condition_variable cv_;      // a pending entry was filled in (or abandoned)
  std::map<std::string, Entry> entries_;
  std::size_t inner_calls_ = 0;
};

/// The system resolver, behind the overrides of the `resolve_overrides` entry when it is set,
/// behind a CachingResolver (entries `resolver_cache_ms`, default 60000, and
/// `resolver_negative_cache_ms`, default 60000; 0 turns that part off).
std::shared_ptr<Resolver> make_resolver(const Config& config);

}  // namespace gleaner::proxies
