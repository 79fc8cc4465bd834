#include "jobs/web_page_source.h"

#include "browser/pool.h"
#include "core/error.h"
#include "jobs/crawl_url.h"
#include "proxies/gateway.h"
#include "proxies/lease.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;

/// The most bytes of one text file kept (sitemaps.org allows 50 MB; robots.txt parsers read
/// 500 KiB): a larger file is cut there.
constexpr long long kMaxTextBytes = 16 * 1024 * 1024;

/// Reads a same-origin file with the page's fetch(); a gzip body (a .xml.gz sitemap) is
/// decompressed in the page. Resolves {status, text}.
std::string read_script(const std::string& url) {
  return "(async (url, most) => {"
         "  const r = await fetch(url, {credentials: 'omit', cache: 'no-store'});"
         "  let bytes = new Uint8Array(await r.arrayBuffer());"
         "  if (bytes.length > 1 && bytes[0] === 0x1f && bytes[1] === 0x8b) {"
         "    const s = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));"
         "    bytes = new Uint8Array(await new Response(s).arrayBuffer());"
         "  }"
         "  return {status: r.status, text: new TextDecoder().decode(bytes.subarray(0, most))};"
         "})(" +
         json(url).dump() + ", " + std::to_string(kMaxTextBytes) + ")";
}

}  // namespace

FetchedPage WebPageSource::fetch(const web::WebRequest& request, Deadline deadline) {
  const proxies::Route route = web::choose_route(request, services_);
  web::WebResult result = web::fetch_page(request, route, services_, deadline);
  return {std::move(result.body), std::move(result.url), std::string(web::cost_key(route))};
}

FetchedText WebPageSource::get_text(const std::string& url, Deadline deadline) {
  const auto target = parse_crawl_url(url);
  if (!target) throw invalid_parameter("url", "not an http(s) URL");
  browser::ContextOptions options;
  options.hidden = true;
  options.blocked_resource_types = {"Image", "Media", "Font", "Stylesheet"};
  std::optional<proxies::GatewayLease> way_out;
  if (services_.gateway) {
    services_.gateway->check_url(url, deadline, "url");
    way_out.emplace(services_.gateway->open_lease(proxies::Route::direct()));
    way_out->apply_to(options);
  }
  browser::Lease lease = services_.pool.lease(options, deadline);
  // Any document of the file's origin will do: its fetch() is then same-origin (no CORS).
  // robots.txt is small, plain text, and runs no script.
  lease->navigate(target->origin() + "/robots.txt", browser::WaitSpec::load(), deadline);
  if (way_out) way_out->check_main_document();
  const json got = lease->evaluate(read_script(target->str()), deadline);
  FetchedText text;
  text.status = got.value("status", 0);
  text.text = got.value("text", std::string());
  return text;
}

}  // namespace gleaner::jobs
