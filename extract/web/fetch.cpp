#include "extract/web/fetch.h"

#include <algorithm>
#include <cctype>

#include "browser/pool.h"
#include "core/error.h"
#include "core/http_header.h"
#include "core/log.h"
#include "extract/content/emails.h"
#include "extract/content/links.h"
#include "extract/content/markdown.h"
#include "extract/content/metadata.h"
#include "extract/content/snapshot.h"
#include "extract/web/ad_blocker.h"
#include "extract/web/lease_tab.h"
#include "extract/web/outputs.h"
#include "extract/web/plain_fetch.h"
#include "extract/web/site_status.h"
#include "extract/web/url_blocker.h"
#include "proxies/gateway.h"
#include "proxies/lease.h"
#include "screenshots/serve.h"

namespace gleaner::web {
namespace {

using nlohmann::json;

browser::WaitSpec wait_spec(const WebRequest& request) {
  browser::WaitSpec spec = request.wait_for ? browser::WaitSpec::selector_of(*request.wait_for)
                                            : browser::WaitSpec::load();
  return spec.then_wait(request.wait);
}

bool is_cookie_header(const std::string& name) { return http_header::same_name(name, "Cookie"); }

/// Puts the cookies of the request's `Cookie` header ("a=1; b=2") in the context's jar for the
/// page's URL, so the page and its sub-resources on that site send them.
void set_request_cookies(const WebRequest& request, browser::Page& page, Deadline deadline) {
  json cookies = json::array();
  for (const auto& [name, value] : request.headers) {
    if (!is_cookie_header(name)) continue;
    std::size_t start = 0;
    while (start < value.size()) {
      std::size_t end = value.find(';', start);
      if (end == std::string::npos) end = value.size();
      std::string pair = value.substr(start, end - start);
      start = end + 1;
      const auto first = pair.find_first_not_of(' ');
      if (first == std::string::npos) continue;
      pair = pair.substr(first);
      const auto eq = pair.find('=');
      if (eq == std::string::npos || eq == 0) continue;
      cookies.push_back(
          {{"name", pair.substr(0, eq)}, {"value", pair.substr(eq + 1)}, {"url", request.url}});
    }
  }
  if (!cookies.empty()) page.session().call("Network.setCookies", {{"cookies", cookies}}, deadline);
}

browser::ContextOptions context_options(const WebRequest& request) {
  static const auto ad_blocker = std::make_shared<AdBlocker>();
  browser::ContextOptions options;
  for (const auto& [name, value] : request.headers) {
    // Chromium drops a Cookie header given as an extra header; cookies go in the jar instead
    // (set_request_cookies), where they are sent like the site's own.
    if (!is_cookie_header(name)) options.extra_headers[name] = value;
  }
  if (request.viewport_width || request.viewport_height) {
    browser::Viewport viewport;
    viewport.width = request.viewport_width.value_or(viewport.width);
    viewport.height = request.viewport_height.value_or(viewport.height);
    options.viewport = viewport;
  }
  if (request.block_resources) options.blocked_resource_types = {"Image", "Media", "Font"};
  if (request.block_ads) options.interceptors.push_back(ad_blocker);
  // [issue 24] blockUrls.
  if (!request.block_urls.empty()) {
    options.interceptors.push_back(std::make_shared<UrlBlocker>(request.block_urls));
  }
  // Without a screenshot nothing needs painting: a hidden tab reads the same DOM for about 40%
  // less CPU (docs/benchmarks.md). [issue 24] A scenario needs a painted tab: scroll events and
  // intersection observers (infinite lists) only run when the page renders.
  options.hidden = !request.screenshot && request.js_scenario.empty();
  return options;
}

/// The site's answer decides whether there is anything to return (docs/endpoints/web.md).
void check_status(const browser::NavigationResult& nav) { check_site_status(nav.status); }

}  // namespace

proxies::Route choose_route(const WebRequest& request, WebServices& services) {
  if (services.gateway)
    return services.gateway->pools().route(request.proxy_type, request.proxy_country);
  if (request.proxy_type || request.proxy_country) {
    throw invalid_parameter(request.proxy_type ? "proxyType" : "proxyCountry",
                            "proxies are not available while the service replays an archive");
  }
  return proxies::Route::direct();
}

std::string_view cost_key(const proxies::Route& route) {
  return route.upstream && route.upstream->type == proxies::ProxyType::Residential
             ? "web_residential"
             : "web";
}

WebResult fetch_page(const WebRequest& request, const proxies::Route& route, WebServices& services,
                     Deadline deadline) {
  // [issue 24] jsRendering: false takes the plain HTTP road.
  if (!request.js_rendering) return fetch_plain_page(request, route, services, deadline);
  // Where a request's time goes, for the debug log (docs/benchmarks.md reads it).
  const auto started = SteadyClock::now();
  auto mark = started;
  std::string phases;
  auto phase = [&](const char* name) {
    const auto now = SteadyClock::now();
    phases += std::string(phases.empty() ? "" : ", ") + name + " " +
              std::to_string(std::chrono::duration_cast<Millis>(now - mark).count()) + " ms";
    mark = now;
  };
  browser::ContextOptions options = context_options(request);
  std::optional<proxies::GatewayLease> way_out;
  if (services.gateway) {
    services.gateway->check_url(request.url, deadline, "url");
    way_out.emplace(services.gateway->open_lease(route));
    way_out->apply_to(options);
  }

  browser::Lease lease = services.pool.lease(options, deadline);
  set_request_cookies(request, lease.page(), deadline);
  phase(lease.warm() ? "lease (warm page)" : "lease (new page)");
  browser::NavigationResult nav;
  try {
    nav = lease->navigate(request.url, wait_spec(request), deadline);
  } catch (Error& e) {
    // A refused main document (the page or one of its redirects) explains a failed navigation
    // better than the net error it caused.
    if (way_out) {
      way_out->check_main_document();
      // "net::ERR_TUNNEL_CONNECTION_FAILED" hides why: the gateway knows (DNS, refused, proxy).
      if (e.code() == ErrorCode::UpstreamError) way_out->check_main_document_reached();
    }
    // The only parameter a navigation can find wrong is the selector, which passed our syntax
    // check (extract/web/css_selector.h) but not Chromium's (an unknown pseudo-class).
    if (e.code() == ErrorCode::InvalidParameter && !e.parameter()) e.with_parameter("waitFor");
    throw;
  }
  if (way_out) {
    way_out->check_main_document();
    // An http:// page the gateway could not reach is the gateway's own 502, not the site's.
    if (nav.headers.count("x-gleaner-gateway") != 0) way_out->check_main_document_reached();
  }
  phase("navigation");
  check_status(nav);

  WebResult result;
  result.url = nav.url;
  json& body = result.body;
  body["statusCode"] = nav.status;
  json headers = json::object();
  for (const auto& [name, value] : nav.headers) {
    // What our gateway added on the way (Proxy-Connection...) is not the site's answer.
    if (!http_header::from_proxy(name)) headers[name] = value;
  }
  body["headers"] = std::move(headers);

  // [issue 24] jsScenario, before any output is taken.
  if (!request.js_scenario.empty()) {
    LeaseTab tab(lease);
    scenario::Outcome outcome =
        scenario::run_scenario(request.js_scenario, tab, request.js_scenario_strict, deadline);
    body["jsScenarioReport"] = std::move(outcome.report);
    body["evaluateResults"] = std::move(outcome.evaluate_results);
    result.url = lease->url();  // a step may have navigated
    phase("scenario");
  }

  const content::SnapshotParts parts = parts_for(request);
  if (parts.html || parts.text || parts.tree || parts.links || parts.meta) {
    json snapshot = content::parse_snapshot(
        lease->evaluate_isolated(snapshot_expression(request, parts), deadline));
    phase("snapshot");
    // [issue 24] the outputs, shared with the plain road (extract/web/outputs.h).
    fill_outputs(request, snapshot, /*inner_text=*/true, /*parsed=*/nullptr, body);
    phase("conversion");
  }

  if (request.screenshot) {
    if (!services.screenshots) {
      throw Error(ErrorCode::Unavailable, "screenshots are not available on this node");
    }
    auto shot = services.screenshots->take(lease->session(), request.screenshot_options, deadline);
    body["screenshot"] = shot.url;
    phase("screenshot");
  }
  log::debug("web") << request.url << ": " << phases;
  return result;
}

}  // namespace gleaner::web
