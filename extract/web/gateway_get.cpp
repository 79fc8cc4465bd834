#include "extract/web/gateway_get.h"

#include "core/error.h"
#include "proxies/gateway.h"
#include "proxies/lease.h"

namespace gleaner::web {

plain::HttpResponse gateway_get(proxies::Gateway& gateway, const proxies::Route& route,
                                plain::HttpRequest http, Deadline deadline,
                                const std::function<void()>& before_load) {
  gateway.check_url(http.url, deadline, "url");
  proxies::GatewayLease way_out = gateway.open_lease(route);
  http.proxy = plain::HttpProxy{way_out.proxy_server(), way_out.username(), way_out.password()};
  const auto note_main_document = way_out.main_document_notes();
  const std::string first = http.url;
  http.before_hop = [&](const std::string& url) {
    // Each redirect target passes the same check as the page (the gateway checks again when it
    // connects, so a name that changes its answer cannot slip through).
    if (url != first) gateway.check_url(url, deadline, "url");
    note_main_document(url);
  };
  if (before_load) before_load();
  plain::HttpResponse response;
  try {
    response = plain::http_get(http, deadline);
  } catch (const Error& e) {
    // The gateway's diagnosis is the better explanation (the opener's, for the browser road).
    way_out.check_main_document("url");
    if (e.code() == ErrorCode::UpstreamError) way_out.check_main_document_reached();
    throw;
  }
  way_out.check_main_document("url");
  // The gateway's own answer (it could not connect, or could not read the request) is never the
  // site's: the lease explains it when it can, else it is said to be the gateway's.
  if (const auto own = response.headers.find("x-gleaner-gateway"); own != response.headers.end()) {
    way_out.check_main_document_reached();
    throw Error(ErrorCode::UpstreamError,
                "the egress gateway could not relay the request (its own HTTP " +
                    std::to_string(response.status) + ")",
                "gateway answer " + own->second);
  }
  return response;
}

}  // namespace gleaner::web
