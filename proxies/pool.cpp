#include "proxies/pool.h"

#include "core/error.h"
#include "core/log.h"
#include "proxies/countries.h"
#include "proxies/guard.h"

#include <algorithm>
#include <set>

namespace gleaner::proxies {
namespace {

Error bad_item(std::size_t item, const std::string& why) {
  return Error(ErrorCode::Internal, "configuration entry 'proxies' (or GLEANER_PROXIES), item " +
                                        std::to_string(item) + ": " + why);
}

std::string string_field(const nlohmann::json& object, const char* key, std::size_t item) {
  if (!object.contains(key)) return {};
  if (!object.at(key).is_string()) throw bad_item(item, std::string("'") + key + "' must be a string");
  return object.at(key).get<std::string>();
}

UpstreamProxy parse_item(const nlohmann::json& object, std::size_t item) {
  static const std::set<std::string> kKeys = {"type", "country", "url", "username", "password"};
  if (!object.is_object()) throw bad_item(item, "expected an object {type, country, url, ...}");
  for (const auto& [key, value] : object.items())
    if (!kKeys.count(key)) throw bad_item(item, "unknown key '" + key + "'");

  UpstreamProxy proxy;
  proxy.index = item;
  auto type = parse_proxy_type(string_field(object, "type", item));
  if (!type) throw bad_item(item, "'type' must be residential or datacenter");
  proxy.type = *type;
  auto country = country_code(string_field(object, "country", item));
  if (!country) throw bad_item(item, "'country' must be an ISO 3166-1 alpha-2 code such as US");
  proxy.country = *country;

  const std::string url = string_field(object, "url", item);
  static constexpr std::string_view kScheme = "http://";
  if (url.rfind(kScheme, 0) != 0)
    throw bad_item(item, "'url' must be http://host:port (an HTTP proxy that supports CONNECT)");
  std::string_view rest = std::string_view(url).substr(kScheme.size());
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.find('@') != std::string_view::npos)
    throw bad_item(item, "put the credentials in 'username' and 'password', not in 'url'");
  auto authority = parse_authority(rest, 80);
  if (!authority) throw bad_item(item, "'url' has no valid host and port");
  proxy.host = authority->host.text;
  proxy.port = authority->port;

  proxy.username = string_field(object, "username", item);
  proxy.password = string_field(object, "password", item);
  if (proxy.username.empty() && !proxy.password.empty())
    throw bad_item(item, "'password' without 'username'");
  if (proxy.username.find(':') != std::string::npos)
    throw bad_item(item, "'username' cannot hold ':' (Basic authentication)");
  return proxy;
}

}  // namespace

std::string_view type_name(ProxyType type) {
  return type == ProxyType::Residential ? "residential" : "datacenter";
}

std::optional<ProxyType> parse_proxy_type(std::string_view text) {
  if (text == "residential") return ProxyType::Residential;
  if (text == "datacenter") return ProxyType::Datacenter;
  return std::nullopt;
}

std::string UpstreamProxy::label() const {
  const bool v6 = host.find(':') != std::string::npos;
  return "proxy #" + std::to_string(index) + " (" + std::string(type_name(type)) + ", " + country +
         ", " + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + ")";
}

UpstreamPools::UpstreamPools(std::vector<UpstreamProxy> proxies, Millis sideline,
                             int failures_before_sideline, const Clock& clock)
    : proxies_([&] {
        std::vector<std::shared_ptr<const UpstreamProxy>> all;
        for (std::size_t i = 0; i < proxies.size(); ++i) {
          proxies[i].index = i;
          all.push_back(std::make_shared<const UpstreamProxy>(std::move(proxies[i])));
        }
        return all;
      }()),
      sideline_(sideline),
      failures_before_sideline_(failures_before_sideline < 1 ? 1 : failures_before_sideline),
      clock_(clock),
      health_(proxies_.size()) {}

std::vector<UpstreamProxy> UpstreamPools::parse(const nlohmann::json& entry) {
  std::vector<UpstreamProxy> proxies;
  if (entry.is_null()) return proxies;
  if (!entry.is_array())
    throw Error(ErrorCode::Internal,
                "configuration entry 'proxies' (or GLEANER_PROXIES): expected a list of proxies");
  for (std::size_t i = 0; i < entry.size(); ++i) proxies.push_back(parse_item(entry.at(i), i));
  return proxies;
}

std::shared_ptr<UpstreamPools> UpstreamPools::from_config(const Config& config, const Clock& clock) {
  const long long sideline_ms = config.get_int("proxy_sideline_ms", 60000);
  const long long failures = config.get_int("proxy_sideline_after_failures", 3);
  if (sideline_ms < 0)
    throw Error(ErrorCode::Internal, "configuration entry 'proxy_sideline_ms' must not be negative");
  if (failures < 1 || failures > 1000)
    throw Error(ErrorCode::Internal,
                "configuration entry 'proxy_sideline_after_failures' must be in 1..1000");
  return std::make_shared<UpstreamPools>(parse(config.get_json("proxies")), Millis(sideline_ms),
                                         static_cast<int>(failures), clock);
}

Route UpstreamPools::route(const std::optional<std::string>& proxy_type,
                           const std::optional<std::string>& proxy_country) {
  std::optional<ProxyType> type;
  if (proxy_type) {
    type = parse_proxy_type(*proxy_type);
    if (!type) throw invalid_parameter("proxyType", "proxyType must be residential or datacenter");
  }
  std::optional<std::string> country;
  if (proxy_country) {
    // The hosted service's clients offer `UK` for the United Kingdom, whose ISO code is GB;
    // configuration keeps to the assigned codes (countries.h).
    const bool uk = *proxy_country == "UK" || *proxy_country == "uk";
    country = country_code(uk ? std::string("GB") : *proxy_country);
    if (!country)
      throw invalid_parameter("proxyCountry",
                              "proxyCountry must be an ISO 3166-1 alpha-2 country code such as US "
                              "or GB");
  }
  if (!type && !country) return Route::direct();

  std::shared_ptr<const UpstreamProxy> chosen;
  if (type) {
    chosen = pick(*type, country);
  } else {
    chosen = pick(ProxyType::Datacenter, country);
    if (!chosen) chosen = pick(ProxyType::Residential, country);
  }
  if (chosen) return Route{chosen};

  if (!type) throw invalid_parameter("proxyCountry", "no proxy is configured for country " + *country);
  const std::string kind(type_name(*type));
  const bool type_exists = std::any_of(proxies_.begin(), proxies_.end(),
                                      [&](const auto& proxy) { return proxy->type == *type; });
  if (country && type_exists)
    throw invalid_parameter("proxyCountry",
                            "no " + kind + " proxy is configured for country " + *country);
  throw invalid_parameter("proxyType", "no " + kind + " proxy is configured");
}

std::shared_ptr<const UpstreamProxy> UpstreamPools::pick(ProxyType type,
                                                         const std::optional<std::string>& country) {
  std::vector<std::size_t> matches;
  for (const auto& proxy : proxies_)
    if (proxy->type == type && (!country || proxy->country == *country))
      matches.push_back(proxy->index);
  if (matches.empty()) return nullptr;

  std::lock_guard lock(mutex_);
  std::size_t& cursor = cursors_[std::string(type_name(type)) + "/" + country.value_or("*")];
  for (std::size_t step = 0; step < matches.size(); ++step) {
    const std::size_t position = (cursor + step) % matches.size();
    if (!sidelined_locked(matches[position])) {
      cursor = position + 1;
      return proxies_[matches[position]];
    }
  }
  std::size_t soonest = matches.front();
  for (std::size_t index : matches)
    if (health_[index].sidelined_until < health_[soonest].sidelined_until) soonest = index;
  log::warn("proxies") << "every " << type_name(type) << " proxy" << (country ? " for " + *country : "")
                       << " is sidelined; using " << proxies_[soonest]->label() << " anyway";
  return proxies_[soonest];
}

bool UpstreamPools::ours(const UpstreamProxy& proxy) const {
  return proxy.index < proxies_.size() && proxies_[proxy.index].get() == &proxy;
}

bool UpstreamPools::sidelined_locked(std::size_t index) const {
  return clock_.now() < health_[index].sidelined_until;
}

void UpstreamPools::report_failure(const UpstreamProxy& proxy) {
  if (!ours(proxy)) return;
  std::lock_guard lock(mutex_);
  Health& health = health_[proxy.index];
  if (++health.failures < failures_before_sideline_) return;
  health.failures = 0;
  health.sidelined_until = clock_.now() + sideline_;
  log::warn("proxies") << proxies_[proxy.index]->label() << " sidelined for " << sideline_.count()
                       << " ms after " << failures_before_sideline_ << " failure(s) in a row";
}

void UpstreamPools::report_success(const UpstreamProxy& proxy) {
  if (!ours(proxy)) return;
  std::lock_guard lock(mutex_);
  health_[proxy.index].failures = 0;
}

bool UpstreamPools::is_sidelined(const UpstreamProxy& proxy) const {
  if (!ours(proxy)) return false;
  std::lock_guard lock(mutex_);
  return sidelined_locked(proxy.index);
}

}  // namespace gleaner::proxies
