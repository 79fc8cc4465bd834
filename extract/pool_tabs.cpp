// Endpoint::run() on browser::Pool: tabs are leased pages, a BrowserProfile becomes the lease's
// ContextOptions and a WaitFor the navigation's WaitSpec. Everything else of the flow lives in
// Endpoint::fetch() and is unit-tested without Chromium.
#include "extract/pool_tabs.h"

#include <algorithm>

#include "core/error.h"
#include "core/log.h"
#include "extract/endpoint.h"
#include "extract/web/ad_blocker.h"
#include "proxies/gateway.h"
#include "proxies/lease.h"

namespace gleaner::extract {
namespace {

// Left of a deadline for reading the page once a selector wait gave up.
constexpr Millis kReadMargin{2000};

std::string sleep_for(Millis pause) {
  return "new Promise((resolve) => setTimeout(resolve, " + std::to_string(pause.count()) + "))";
}

// The navigation's readiness. A selector (and the extra wait after it) is waited for after the
// load by LeasedTab::navigate.
browser::WaitSpec wait_spec(const WaitFor& wait) {
  browser::WaitSpec spec;
  switch (wait.kind) {
    case WaitFor::Kind::Load: spec = browser::WaitSpec::load(); break;
    case WaitFor::Kind::DomContentLoaded: spec = browser::WaitSpec::dom_content_loaded(); break;
    case WaitFor::Kind::NetworkIdle: spec = browser::WaitSpec::network_idle(); break;
    case WaitFor::Kind::Selector: return browser::WaitSpec::load();
    case WaitFor::Kind::FixedWait: return browser::WaitSpec::fixed_wait(wait.extra);
  }
  return spec.then_wait(wait.extra);
}

// The ad and tracker hosts of POST /scrape/web's blockAds (extract/web/ad_hosts.txt), one list
// for the whole process.
std::shared_ptr<browser::Interceptor> tracker_blocker() {
  static const auto blocker = std::make_shared<web::AdBlocker>();
  return blocker;
}

std::string join_lines(const std::vector<std::string>& hosts) {
  std::string out;
  for (const std::string& h : hosts) out += h + "\n";
  return out;
}

// The lease options of a profile: user agent, headers, viewport, the load profile.
browser::ContextOptions context_options(const BrowserProfile& profile) {
  browser::ContextOptions options;
  options.user_agent = profile.user_agent();
  options.extra_headers = profile.headers;
  browser::Viewport viewport;
  viewport.width = profile.viewport_width();
  viewport.height = profile.viewport_height();
  viewport.mobile = profile.device == BrowserProfile::Device::Mobile;
  viewport.device_scale_factor = viewport.mobile ? 2.625 : 1.0;
  options.viewport = viewport;
  if (!profile.load_media) options.blocked_resource_types = {"Image", "Media", "Font"};
  if (!profile.load_trackers) options.interceptors.push_back(tracker_blocker());
  if (!profile.blocked_hosts.empty()) {
    options.interceptors.push_back(
        std::make_shared<web::AdBlocker>(join_lines(profile.blocked_hosts)));
  }
  options.hidden = !profile.painted;
  return options;
}

class LeasedTab final : public Tab {
 public:
  LeasedTab(std::optional<proxies::GatewayLease> way_out, browser::Lease lease, bool run_scripts)
      : way_out_(std::move(way_out)), lease_(std::move(lease)), run_scripts_(run_scripts) {}

  Navigation navigate(const std::string& url, const WaitFor& wait, Deadline deadline) override {
    if (!run_scripts_ && !scripts_off_) {
      lease_.page().set_scripts_enabled(false, deadline);
      scripts_off_ = true;
    }
    browser::NavigationResult result = lease_.page().navigate(url, wait_spec(wait), deadline);
    // A selector is waited for after the load, and a miss is not an error (tab.h): an error page
    // or a block page lacks it, and the endpoint's checks then tell what the page is.
    if (wait.kind == WaitFor::Kind::Selector && result.status < 400) {
      const Millis left = std::max(time_left(deadline) - kReadMargin, Millis(0));
      lease_.page().evaluate(browser::selector_waiter(wait.selector, std::min(left, wait.patience)),
                             deadline);
      if (wait.extra.count() > 0) {
        lease_.page().evaluate(sleep_for(std::min(wait.extra, time_left(deadline))), deadline);
      }
    }
    return {std::move(result.url), result.status, std::move(result.headers)};
  }

  nlohmann::json evaluate(const std::string& expression, Deadline deadline, World world) override {
    return world == World::Page ? lease_.page().evaluate(expression, deadline)
                                : lease_.page().evaluate_isolated(expression, deadline);
  }

 private:
  // Declared first so it ends last: the gateway refuses the lease's credentials only once its
  // browser context is gone.
  std::optional<proxies::GatewayLease> way_out_;
  browser::Lease lease_;
  const bool run_scripts_;
  bool scripts_off_ = false;
};

}  // namespace

SiteEgress SiteEgress::from_config(const Config& config, proxies::Gateway* gateway) {
  const auto type = config.get_optional_string("sites_proxy_type");
  const auto country = config.get_optional_string("sites_proxy_country");
  if (!gateway) {
    if (type || country) {
      log::warn("extract") << "sites_proxy_type/sites_proxy_country ignored: the pool replays an "
                              "archive, nothing reaches the network";
    }
    return {};
  }
  if (!type && !country) return {gateway, {}};
  try {
    gateway->pools().route(type, country);
  } catch (const Error& e) {
    throw std::invalid_argument("configuration entries sites_proxy_type/sites_proxy_country: " +
                                std::string(e.what()));
  }
  log::info("extract") << "site pages go through " << type.value_or("any") << " proxies"
                       << (country ? " of " + *country : std::string());
  return {gateway, [gateway, type, country] { return gateway->pools().route(type, country); }};
}

std::unique_ptr<Tab> PoolTabs::open(const BrowserProfile& profile, Deadline deadline) {
  browser::ContextOptions options = context_options(profile);
  options.interceptors.insert(options.interceptors.end(), interceptors_.begin(),
                              interceptors_.end());
  std::optional<proxies::GatewayLease> way_out;
  if (egress_.gateway) {
    way_out.emplace(
        egress_.gateway->open_lease(egress_.route ? egress_.route() : proxies::Route::direct()));
    way_out->apply_to(options);
  }
  browser::Lease lease = pool_.lease(options, deadline);
  return std::make_unique<LeasedTab>(std::move(way_out), std::move(lease), profile.run_scripts);
}

}  // namespace gleaner::extract
