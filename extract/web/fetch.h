#pragma once
// POST /scrape/web's work: load one page in a leased browser context and return what the request
// asked for. The HTTP side (auth, credits) is api/routes/web.cpp; this is everything else.
//
// The flow: the URL is checked (scheme, private addresses: 400) → a route out through the egress
// gateway (direct, or an upstream proxy of the asked type and country: 400 when none) → a tab from
// the page opener (extract/pool_tabs.h, the same as the site endpoints') whose context sends
// everything through that route, with the request's headers, viewport and blocking → cookies →
// navigate and wait (the opener diagnoses the main document) → the one status check
// (extract/block_detection.h, see docs/endpoints/web.md) → one in-page snapshot for every text
// output → conversions in C++ → the screenshot last.
#include "core/clock.h"
#include "extract/tab.h"
#include "extract/web/request.h"
#include "proxies/pool.h"

#include <functional>
#include <nlohmann/json.hpp>

namespace gleaner::browser {
class Pool;
}
namespace gleaner::extract {
class SessionRegistry;
}
namespace gleaner::proxies {
class Gateway;
}
namespace gleaner::screenshots {
class ScreenshotService;
}

namespace gleaner::web {

/// What the page fetch runs on. All outlive the call.
struct WebServices {
  browser::Pool& pool;
  /// Every context's traffic goes through it (address guard, proxies). Null only when the pool
  /// answers everything from a replay archive, where nothing reaches the network anyway.
  proxies::Gateway* gateway = nullptr;
  /// Null when screenshots are not available (a 503 if one is asked).
  screenshots::ScreenshotService* screenshots = nullptr;
  /// The sessions a request's sessionId names, and the caller's account they are scoped to.
  /// Null: a sessionId is Unavailable (503).
  extract::SessionRegistry* sessions = nullptr;
  std::int64_t caller = 0;
};

struct WebResult {
  /// The response body without the envelope.
  nlohmann::json body;
  /// The URL finally loaded (after redirects), for requestMetadata.url.
  std::string url;
};

/// The way out `request` takes: the route of its open session (sessionId) on this node, else an
/// upstream proxy picked by its proxyType and proxyCountry, or direct when it names neither. Chosen
/// before charging, so that a proxy nobody configured is a 400 (never a 402) and the cost follows
/// the proxy actually used: a proxyCountry without a proxyType may get a residential proxy. Throws
/// gleaner::Error(InvalidParameter) naming proxyType or proxyCountry when no configured proxy
/// matches, or when a proxy is asked of a service without a gateway (replaying an archive).
proxies::Route choose_route(const WebRequest& request, WebServices& services);

/// The cost key of store/costs.h for a request on a route: "web", or "web_plain" with
/// jsRendering: false, each with "_residential" through a residential proxy.
std::string_view cost_key(const WebRequest& request, const proxies::Route& route);

/// Loads `request.url` through `route` (from choose_route) and builds the response body. Throws
/// gleaner::Error: InvalidParameter (url refused by the address guard, including through a
/// redirect), NotFound (the site answered 404 or 410), UpstreamBlocked (401, 403, 407, 429),
/// UpstreamError (network failure or a 5xx), Timeout (the request's deadline passed),
/// Unavailable (no browser).
WebResult fetch_page(const WebRequest& request, const proxies::Route& route,
                     WebServices& services, Deadline deadline);
/// The same, calling `before_load` once the tab is open and before the page loads; it throws to
/// stop the request (the service waits for the credit reservation there, extract::GatedTabs).
WebResult fetch_page(const WebRequest& request, const proxies::Route& route,
                     WebServices& services, Deadline deadline,
                     const std::function<void()>& before_load);

/// The browser `request` asks for: its headers (but Cookie, see request_cookies()), viewport and
/// blocking; painted only for a screenshot.
extract::BrowserProfile browser_profile(const WebRequest& request);

/// The cookies of the request's `Cookie` headers ("a=1; b=2").
std::vector<extract::Cookie> request_cookies(const WebRequest& request);

/// fetch_page()'s work once the URL and route are settled, on a tab of `tabs` (the page opener in
/// the service, a scripted tab in unit tests). `screenshots` null: a screenshot asked is
/// Unavailable. Throws as fetch_page().
WebResult read_web_page(const WebRequest& request, extract::TabSource& tabs,
                        screenshots::ScreenshotService* screenshots, Deadline deadline);

}  // namespace gleaner::web
