#include "extract/web/fetch.h"

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "core/http_header.h"
#include "core/log.h"
#include "extract/block_detection.h"
#include "extract/content/snapshot.h"
#include "extract/scenario/scenario.h"
#include "extract/pool_tabs.h"
#include "extract/sessions.h"
#include "extract/web/outputs.h"
#include "extract/web/plain_fetch.h"
#include "proxies/gateway.h"
#include "screenshots/serve.h"

namespace gleaner::web {
namespace {

using nlohmann::json;

bool is_cookie_header(const std::string& name) { return http_header::same_name(name, "Cookie"); }

extract::WaitFor wait_for(const WebRequest& request) {
  const extract::WaitFor wait = request.wait_for
                                    ? extract::WaitFor::selector_required(*request.wait_for)
                                    : extract::WaitFor::load();
  return wait.then_wait(request.wait);
}

}  // namespace

proxies::Route choose_route(const WebRequest& request, WebServices& services) {
  if (request.session_id && services.sessions) {
    if (auto route = services.sessions->route_of(services.caller, *request.session_id))
      return *route;  // a request asking for another proxy is refused when it takes the tab
  }
  if (services.gateway)
    return services.gateway->pools().route(request.proxy_type, request.proxy_country);
  if (request.proxy_type || request.proxy_country) {
    throw invalid_parameter(request.proxy_type ? "proxyType" : "proxyCountry",
                            "proxies are not available while the service replays an archive");
  }
  return proxies::Route::direct();
}

std::string_view cost_key(const WebRequest& request, const proxies::Route& route) {
  const bool residential =
      route.upstream && route.upstream->type == proxies::ProxyType::Residential;
  if (request.js_rendering) return residential ? "web_residential" : "web";
  return residential ? "web_plain_residential" : "web_plain";
}

extract::BrowserProfile browser_profile(const WebRequest& request) {
  extract::BrowserProfile profile;
  for (const auto& [name, value] : request.headers) {
    // Chromium drops a Cookie header given as an extra header; cookies go in the jar instead
    // (request_cookies), where they are sent like the site's own.
    if (!is_cookie_header(name)) profile.headers[name] = value;
  }
  // docs/endpoints/web.md: 1366 x 768 unless asked.
  profile.width = request.viewport_width.value_or(1366);
  profile.height = request.viewport_height.value_or(768);
  profile.load_media = !request.block_resources;
  profile.load_trackers = !request.block_ads;
  profile.blocked_url_parts = request.block_urls;
  // Without a screenshot nothing needs painting: a hidden tab reads the same DOM for about 40%
  // less CPU (docs/benchmarks.md). A scenario needs a painted tab: scroll events and intersection
  // observers (infinite lists) only run when the page renders.
  profile.painted = request.screenshot || !request.js_scenario.empty();
  return profile;
}

std::vector<extract::Cookie> request_cookies(const WebRequest& request) {
  std::vector<extract::Cookie> cookies;
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
      cookies.push_back({pair.substr(0, eq), pair.substr(eq + 1)});
    }
  }
  return cookies;
}

WebResult fetch_page(const WebRequest& request, const proxies::Route& route, WebServices& services,
                     Deadline deadline) {
  return fetch_page(request, route, services, deadline, [] {});
}

WebResult fetch_page(const WebRequest& request, const proxies::Route& route, WebServices& services,
                     Deadline deadline, const std::function<void()>& before_load) {
  if (!request.js_rendering) return fetch_plain_page(request, route, services, deadline, before_load);
  if (services.gateway) services.gateway->check_url(request.url, deadline, "url");
  extract::SiteEgress egress{services.gateway, [route] { return route; }};
  if (request.session_id) {
    if (!services.sessions)
      throw Error(ErrorCode::Unavailable, "sessions are not available on this node");
    extract::SessionTerms terms;
    terms.id = *request.session_id;
    terms.ttl = request.session_ttl;
    terms.queue = request.session_queue;
    terms.may_open = request.session_may_open;
    terms.proxy_type = request.proxy_type;
    terms.proxy_country = request.proxy_country;
    auto session_tabs = services.sessions->tabs(services.caller, std::move(terms), route, egress);
    extract::GatedTabs tabs(*session_tabs, before_load);
    return read_web_page(request, tabs, services.screenshots, deadline);
  }
  extract::PoolTabs pool_tabs(services.pool, {}, std::move(egress));
  extract::GatedTabs tabs(pool_tabs, before_load);
  return read_web_page(request, tabs, services.screenshots, deadline);
}

WebResult read_web_page(const WebRequest& request, extract::TabSource& tabs,
                        screenshots::ScreenshotService* screenshots, Deadline deadline) {
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
  std::unique_ptr<extract::Tab> tab = tabs.open(browser_profile(request), deadline);
  if (const auto cookies = request_cookies(request); !cookies.empty()) {
    tab->set_cookies(cookies, request.url, deadline);
  }
  phase("open");
  extract::Navigation nav;
  try {
    nav = tab->navigate(request.url, wait_for(request), deadline);
  } catch (Error& e) {
    // The only parameter a navigation can find wrong besides the URL (which the opener names) is
    // the selector, which passed our syntax check (extract/web/css_selector.h) but not
    // Chromium's (an unknown pseudo-class).
    if (e.code() == ErrorCode::InvalidParameter && !e.parameter()) e.with_parameter("waitFor");
    throw;
  }
  phase("navigation");
  extract::check_navigation(nav, extract::PageKind::AnyPage);

  WebResult result;
  result.url = nav.url;
  json& body = result.body;
  put_answer(nav.status, nav.headers, body);

  // jsScenario, before any output is taken.
  if (!request.js_scenario.empty()) {
    scenario::Outcome outcome;
    try {
      outcome =
          scenario::run_scenario(request.js_scenario, *tab, request.js_scenario_strict, deadline);
    } catch (const Error&) {
      tab->check_documents();  // a step that went to a refused address explains the failure
      throw;
    }
    tab->check_documents();
    body["jsScenarioReport"] = std::move(outcome.report);
    body["evaluateResults"] = std::move(outcome.evaluate_results);
    // A step may have navigated.
    const json href = tab->evaluate("location.href", deadline, extract::World::Isolated);
    if (href.is_string()) result.url = href.get<std::string>();
    phase("scenario");
  }

  const content::SnapshotParts parts = parts_for(request);
  if (parts.html || parts.text || parts.tree || parts.links || parts.meta) {
    json snapshot = content::parse_snapshot(
        tab->evaluate(snapshot_expression(request, parts), deadline, extract::World::Isolated));
    phase("snapshot");
    // The outputs, shared with the plain road (extract/web/outputs.h).
    html::XPathBudget budget = html::XPathBudget::for_request(deadline);
    fill_outputs(request, snapshot, /*inner_text=*/true, /*parsed=*/nullptr, budget, body);
    phase("conversion");
  }

  if (request.screenshot) {
    if (!screenshots) {
      throw Error(ErrorCode::Unavailable, "screenshots are not available on this node");
    }
    auto shot = screenshots->take(tab->surface(), request.screenshot_options, deadline);
    body["screenshot"] = shot.url;
    phase("screenshot");
  }
  // The page may have gone on meanwhile (a meta refresh, its scripts): what it showed is only
  // an answer when every document of the top frame was one the guard allows.
  tab->check_documents();
  log::debug("web") << request.url << ": " << phases;
  return result;
}

}  // namespace gleaner::web
