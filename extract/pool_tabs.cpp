// Endpoint::run() on browser::Pool: tabs are leased pages, a BrowserProfile becomes the lease's
// ContextOptions and a WaitFor the navigation's WaitSpec. Everything else of the flow lives in
// Endpoint::fetch() and is unit-tested without Chromium.
#include "extract/pool_tabs.h"

#include "extract/endpoint.h"

namespace gleaner::extract {
namespace {

class LeasedTab final : public Tab {
 public:
  explicit LeasedTab(browser::Lease lease) : lease_(std::move(lease)) {}

  Navigation navigate(const std::string& url, const WaitFor& wait, Deadline deadline) override {
    browser::NavigationResult result =
        lease_.page().navigate(url, PoolTabs::wait_spec(wait), deadline);
    return {std::move(result.url), result.status, std::move(result.headers)};
  }

  nlohmann::json evaluate(const std::string& expression, Deadline deadline) override {
    return lease_.page().evaluate(expression, deadline);
  }

 private:
  browser::Lease lease_;
};

}  // namespace

browser::WaitSpec PoolTabs::wait_spec(const WaitFor& wait) {
  browser::WaitSpec spec;
  switch (wait.kind) {
    case WaitFor::Kind::Load: spec = browser::WaitSpec::load(); break;
    case WaitFor::Kind::DomContentLoaded: spec = browser::WaitSpec::dom_content_loaded(); break;
    case WaitFor::Kind::NetworkIdle: spec = browser::WaitSpec::network_idle(); break;
    case WaitFor::Kind::Selector: spec = browser::WaitSpec::selector_of(wait.selector); break;
    case WaitFor::Kind::FixedWait: return browser::WaitSpec::fixed_wait(wait.extra);
  }
  return spec.then_wait(wait.extra);
}

browser::ContextOptions PoolTabs::context_options(const BrowserProfile& profile) {
  browser::ContextOptions options;
  options.user_agent = profile.user_agent();
  options.extra_headers = profile.headers;
  browser::Viewport viewport;
  viewport.width = profile.viewport_width();
  viewport.height = profile.viewport_height();
  viewport.mobile = profile.device == BrowserProfile::Device::Mobile;
  viewport.device_scale_factor = viewport.mobile ? 2.625 : 1.0;
  options.viewport = viewport;
  return options;
}

std::unique_ptr<Tab> PoolTabs::open(const BrowserProfile& profile, Deadline deadline) {
  browser::ContextOptions options = context_options(profile);
  options.interceptors.insert(options.interceptors.end(), interceptors_.begin(),
                              interceptors_.end());
  return std::make_unique<LeasedTab>(pool_.lease(options, deadline));
}

EndpointResult Endpoint::run(const ValidatedParams& params, browser::Pool& pool,
                             Deadline deadline) const {
  PoolTabs tabs(pool);
  return fetch(params, tabs, deadline);
}

}  // namespace gleaner::extract
