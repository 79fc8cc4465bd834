#pragma once
// Name resolution behind a seam. The egress gateway resolves every name itself (and connects to
// the very address it checked), so what "resolving" means is decided here: the system resolver
// in production, an override map first when configured (like curl --resolve), so tests can make
// a public-looking name lead to 127.0.0.1.
#include "core/config.h"
#include "proxies/guard.h"

#include <map>
#include <memory>
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

/// The system resolver, behind the overrides of the `resolve_overrides` entry when it is set.
std::shared_ptr<Resolver> make_resolver(const Config& config);

}  // namespace gleaner::proxies
