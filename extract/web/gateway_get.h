#pragma once
// The one way outside the browser to a site: a plain HTTP GET through the egress gateway. Built
// into gleaner_extract: the page opener's plain road (extract/pool_tabs.h) and POST /scrape/web's
// jsRendering: false (plain_fetch.h) both take it.
#include <functional>

#include "core/clock.h"
#include "extract/plain/http_client.h"
#include "proxies/pool.h"

namespace gleaner::proxies {
class Gateway;
}

namespace gleaner::web {

/// `http` fetched through the egress gateway on `route`: its URL and every redirect pass the
/// address guard (400 naming `url`), the proxy is the lease's, and a failure is explained by what
/// the gateway saw (a refused document, a host it could not reach) before the client's own error.
/// `before_load` runs just before the first byte is asked for. The one way outside the browser
/// to a page (jsRendering: false), a document (the opener's plain road) and a crawl's robots.txt
/// and sitemaps.
plain::HttpResponse gateway_get(proxies::Gateway& gateway, const proxies::Route& route,
                                plain::HttpRequest http, Deadline deadline,
                                const std::function<void()>& before_load = {});

}  // namespace gleaner::web
