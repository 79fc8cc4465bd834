#include "extract/web/plain_fetch.h"

#include "core/error.h"
#include "core/log.h"
#include "extract/block_detection.h"
#include "extract/html/document.h"
#include "extract/plain/charset.h"
#include "extract/plain/http_client.h"
#include "extract/plain/main_content.h"
#include "extract/plain/snapshot.h"
#include "extract/web/outputs.h"
#include "proxies/gateway.h"
#include "proxies/lease.h"

namespace gleaner::web {
namespace {

using nlohmann::json;

}  // namespace

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

WebResult fetch_plain_page(const WebRequest& request, const proxies::Route& route,
                           WebServices& services, Deadline deadline,
                           const std::function<void()>& before_load) {
  if (!services.gateway) {
    throw Error(ErrorCode::Unavailable,
                "jsRendering: false is not available while the service replays an archive");
  }
  const auto started = SteadyClock::now();
  plain::HttpRequest http;
  http.url = request.url;
  http.headers = request.headers;
  http.max_bytes = content::SnapshotParts{}.max_chars;
  // Nothing is fetched before the request's credits are reserved (api/billing.h).
  const plain::HttpResponse response =
      gateway_get(*services.gateway, route, std::move(http), deadline, before_load);
  extract::check_navigation({response.url, response.status, response.headers},
                            extract::PageKind::AnyPage);

  const std::string charset = plain::sniff_charset(
      response.body,
      response.headers.count("content-type") ? response.headers.at("content-type") : std::string());
  const std::string page = plain::to_utf8(response.body, charset);
  const html::Document doc = html::Document::parse(page);
  // One bound on the work of the request's selectors: includeOnlyTags, excludeTags, extractRules.
  html::XPathBudget budget = html::XPathBudget::for_request(deadline);
  const plain::TreeFilter filter = [&] {
    plain::TreeFilter f = plain::content_filter(
        doc, request.include_only_tags, request.exclude_tags, request.only_main_content, &budget);
    f.keep_data_images = !request.remove_base64_images;
    return f;
  }();
  const json snapshot = plain::snapshot_of(doc, page, response.url, parts_for(request), filter);

  WebResult result;
  result.url = response.url;
  json& body = result.body;
  put_answer(response.status, response.headers, body);
  fill_outputs(request, snapshot, /*inner_text=*/false, &doc, budget, body);
  if (response.truncated) {
    // The page itself was cut at the size cap: every output is of its first part.
    json& truncated = body["truncated"];
    if (!truncated.is_array()) truncated = json::array();
    truncated.push_back("page");
  }
  log::debug("web") << request.url << ": plain fetch " << charset << ", "
                    << std::chrono::duration_cast<Millis>(SteadyClock::now() - started).count()
                    << " ms";
  return result;
}

}  // namespace gleaner::web
