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
