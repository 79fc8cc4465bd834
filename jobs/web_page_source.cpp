#include "jobs/web_page_source.h"

#include "extract/pool_tabs.h"
#include "core/error.h"
#include "jobs/crawl_url.h"
#include "proxies/gateway.h"

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
  return {std::move(result.body), std::move(result.url), std::string(web::cost_key(request, route))};
}

FetchedText WebPageSource::get_text(const std::string& url, Deadline deadline) {
  const auto target = parse_crawl_url(url);
  if (!target) throw invalid_parameter("url", "not an http(s) URL");
  if (services_.gateway) services_.gateway->check_url(url, deadline, "url");
  // The one page opener, as for every page: the gateway's route and guard, and its diagnosis of
  // the main document. The default profile is a hidden tab that loads no media.
  extract::PoolTabs tabs(services_.pool, {},
                         extract::SiteEgress{services_.gateway, [] { return proxies::Route::direct(); }});
  std::unique_ptr<extract::Tab> tab = tabs.open(extract::BrowserProfile{}, deadline);
  // Any document of the file's origin will do: its fetch() is then same-origin (no CORS).
  // robots.txt is small, plain text, and runs no script.
  tab->navigate(target->origin() + "/robots.txt", extract::WaitFor::load(), deadline);
  const json got = tab->evaluate(read_script(target->str()), deadline, extract::World::Isolated);
  FetchedText text;
  text.status = got.value("status", 0);
  text.text = got.value("text", std::string());
  return text;
}

}  // namespace gleaner::jobs
