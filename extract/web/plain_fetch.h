#pragma once
// POST /scrape/web with jsRendering: false: the page fetched by a plain HTTP client
// (extract/plain/http_client.h) through the same egress gateway as the browser (address guard on
// the page and each redirect, the request's proxy route, headers), decoded to UTF-8, parsed once
// by an HTML5 parser, and every output made from it with the browser road's converters.
#include "extract/web/fetch.h"

#include <functional>

#include "extract/plain/http_client.h"
#include "extract/web/gateway_get.h"

namespace gleaner::web {

/// As fetch_page() for a request with js_rendering false. Throws gleaner::Error as fetch_page()
/// does; Unavailable when the service replays an archive (nothing reaches the network, and the
/// archive answers the browser only).
WebResult fetch_plain_page(const WebRequest& request, const proxies::Route& route,
                           WebServices& services, Deadline deadline,
                           const std::function<void()>& before_load);

}  // namespace gleaner::web
