#pragma once
// The one page opener: tabs from browser::Pool, for the site endpoints, POST /scrape/web and the
// jobs alike. It composes a gateway lease (proxies/, plain data) and a browser lease: a
// BrowserProfile becomes the lease's ContextOptions (user agent, viewport, headers, the load
// profile with the one ad and tracker blocker), a WaitFor the navigation's WaitSpec, and every
// navigation ends with the main document's diagnosis (a document the address guard refused: 400
// naming `url`; a host the gateway could not reach: the reason in words). Every tab's traffic goes
// through the egress gateway when the service has one, on the route SiteEgress picks (an upstream
// proxy, or direct). Tests add interceptors for every lease, e.g. a replay archive.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "browser/identity.h"
#include "browser/pool.h"
#include "core/config.h"
#include "extract/tab.h"
#include "proxies/lease.h"
#include "proxies/pool.h"

namespace gleaner::proxies {
class Gateway;
}

namespace gleaner::extract {

/// How tabs reach the sites.
struct SiteEgress {
  /// Null: straight out (only while the pool replays an archive, where nothing leaves).
  proxies::Gateway* gateway = nullptr;
  /// The route of each new tab (asked once per tab, so proxies rotate); null: direct.
  std::function<proxies::Route()> route;

  /// Entries `sites_proxy_type` (residential | datacenter) and `sites_proxy_country` (ISO 3166-1
  /// alpha-2): the upstream proxies site pages go through; neither: straight out through the
  /// gateway. Throws std::invalid_argument naming the entries when no configured proxy matches
  /// (checked at start, not at the first request). Without a gateway (replaying an archive) the
  /// entries are ignored, with a warning.
  static SiteEgress from_config(const Config& config, proxies::Gateway* gateway);
};

/// Sends a browser context's traffic through `lease`: the gateway as its proxy (bypass list and
/// the lease's credentials), and the top frame's document URLs noted on the lease for
/// check_main_document().
void route_through(const proxies::GatewayLease& lease, browser::ContextOptions& options);

/// A leased page as a screenshot surface (screenshots/capture.h), over its DevTools session.
std::unique_ptr<screenshots::Surface> surface_of(browser::Page& page);

/// A page the opener leased: its browser context's way out and the browser lease. Declared in
/// this order so the gateway refuses the lease's credentials only once the context is gone.
struct OpenedPage {
  std::optional<proxies::GatewayLease> way_out;
  browser::Lease lease;
};

/// A page in a fresh browser context that looks like `profile`, on a route of `egress`, with
/// `interceptors` after the profile's own. `paint_on_demand`: painted only while the profile it is
/// set up for is painted (browser::ContextOptions::paint_on_demand), for a page that reconfigure()
/// sets up again. Throws what Pool::lease() throws.
std::shared_ptr<OpenedPage> open_page(
    browser::Pool& pool, const BrowserProfile& profile,
    const std::vector<std::shared_ptr<browser::Interceptor>>& interceptors,
    const SiteEgress& egress, Deadline deadline, bool paint_on_demand = false);
/// Sets `page` up for another request that looks like `profile`, in the same context and on the
/// same way out (a session's next request, extract/sessions.h).
void reconfigure(OpenedPage& page, const BrowserProfile& profile,
                 const std::vector<std::shared_ptr<browser::Interceptor>>& interceptors,
                 Deadline deadline);
/// `page` as one request's Tab; `on_end` (if any) runs when the tab goes, told whether the tab
/// was used (a navigation or cookies set: what a session would keep). The page itself ends with
/// its last holder.
std::unique_ptr<Tab> tab_on(std::shared_ptr<OpenedPage> page, bool run_scripts,
                            std::function<void(bool used)> on_end);

/// The headers the plain road sends for a document loaded as `load` by a page of `profile`: what
/// Chrome `version` on the profile's device sends (browser/identity.h, the identity the browser
/// road's context has): its User-Agent, Sec-CH-UA, Sec-CH-UA-Mobile and Sec-CH-UA-Platform,
/// Accept-Language of the profile's languages weighted as Chromium weighs them, and the Accept,
/// Sec-Fetch-* and Priority Chrome sends for an address typed in (Load::Navigation) or for a
/// fetch() of its page from its own origin (Load::Fetch, with `referrer`); then the profile's own
/// headers, which replace those of the same name as they do in the browser.
std::map<std::string, std::string> plain_road_headers(const BrowserProfile& profile,
                                                      const browser::ChromeVersion& version,
                                                      DocumentRoad::Load load,
                                                      const std::string& referrer = {});

class PoolTabs final : public TabSource {
 public:
  /// `interceptors` are added to every lease's ContextOptions, after the pool's own.
  explicit PoolTabs(browser::Pool& pool,
                    std::vector<std::shared_ptr<browser::Interceptor>> interceptors = {},
                    SiteEgress egress = {})
      : pool_(pool), interceptors_(std::move(interceptors)), egress_(std::move(egress)) {}

  /// Leases a page whose context looks like `profile`, on a route of the egress. Throws what
  /// Pool::lease() throws.
  std::unique_ptr<Tab> open(const BrowserProfile& profile, Deadline deadline) override;
  /// The plain road: each document answered first by the interceptors a lease would have (the
  /// pool's, these, the pool's replay archive: one lookup for both roads), else fetched through
  /// the egress gateway on a route of the egress (web::gateway_get()), with plain_road_headers()
  /// of the installed Chromium's version and the cookies the request's earlier answers set (a jar
  /// of this road only). An answer that is not a 2xx JSON document, a request an interceptor
  /// fails, or a network failure is NotTheDocument. Null when the Chromium version is unknown.
  std::unique_ptr<DocumentRoad> plain_road(const BrowserProfile& profile,
                                           Deadline deadline) override;

 private:
  browser::Pool& pool_;
  std::vector<std::shared_ptr<browser::Interceptor>> interceptors_;
  SiteEgress egress_;
};

}  // namespace gleaner::extract
