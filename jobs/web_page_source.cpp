#include "jobs/web_page_source.h"

#include "core/error.h"
#include "extract/plain/http_client.h"
#include "extract/pool_tabs.h"
#include "extract/web/plain_fetch.h"
#include "jobs/crawl_url.h"
#include "jobs/sitemap.h"
#include "proxies/gateway.h"
#include "proxies/lease.h"

namespace gleaner::jobs {
namespace {

using nlohmann::json;

/// Reads a same-origin file with the page's fetch(), its first `most` bytes; a gzip body (a .xml.gz
/// sitemap) is decompressed in the page, up to `most` bytes too. Resolves {status, text,
/// truncated}. Only with a replay archive (PageSource::get_text below).
std::string read_script(const std::string& url, std::size_t most) {
  return "(async (url, most) => {"
         "  const r = await fetch(url, {credentials: 'omit', cache: 'no-store'});"
         "  const take = async (stream) => {"
         "    const reader = stream.getReader(); const parts = []; let n = 0;"
         "    for (;;) {"
         "      const {done, value} = await reader.read();"
         "      if (done) return {bytes: parts, n, more: false};"
         "      parts.push(value); n += value.length;"
         "      if (n > most) { reader.cancel(); return {bytes: parts, n, more: true}; }"
         "    }"
         "  };"
         "  const join = (got) => {"
         "    const out = new Uint8Array(got.n); let at = 0;"
         "    for (const p of got.bytes) { out.set(p, at); at += p.length; }"
         "    return out.subarray(0, most);"
         "  };"
         "  if (!r.body) return {status: r.status, text: '', truncated: false};"
         "  let got = await take(r.body);"
         "  let bytes = join(got);"
         "  if (bytes.length > 1 && bytes[0] === 0x1f && bytes[1] === 0x8b) {"
         "    got = await take(new Blob([bytes]).stream()"
         "        .pipeThrough(new DecompressionStream('gzip')));"
         "    bytes = join(got);"
         "  }"
         "  return {status: r.status, text: new TextDecoder().decode(bytes), truncated: got.more};"
         "})(" +
         json(url).dump() + ", " + std::to_string(most) + ")";
}

/// Lends a kept tab to one read_web_page() without handing it over: the tab outlives the page.
class LentTab final : public extract::Tab {
 public:
  explicit LentTab(extract::Tab& tab) : tab_(tab) {}
  extract::Navigation navigate(const std::string& url, const extract::WaitFor& wait,
                               Deadline deadline) override {
    return tab_.navigate(url, wait, deadline);
  }
  json evaluate(const std::string& expression, Deadline deadline, extract::World world) override {
    return tab_.evaluate(expression, deadline, world);
  }
  void set_cookies(const std::vector<extract::Cookie>& cookies, const std::string& url,
                   Deadline deadline) override {
    tab_.set_cookies(cookies, url, deadline);
  }
  screenshots::Surface& surface() override { return tab_.surface(); }
  void check_documents() const override { tab_.check_documents(); }

 private:
  extract::Tab& tab_;
};

class LendingTabs final : public extract::TabSource {
 public:
  explicit LendingTabs(extract::Tab& tab) : tab_(tab) {}
  std::unique_ptr<extract::Tab> open(const extract::BrowserProfile&, Deadline) override {
    return std::make_unique<LentTab>(tab_);
  }

 private:
  extract::Tab& tab_;
};

/// A page that failed with the site's own answer (a 404, a block page) leaves its tab as sound as
/// a page that loaded; any other failure (a timeout, a crash, a refused address) may not.
bool keeps_tab(const Error& e) {
  return e.code() == ErrorCode::NotFound || e.code() == ErrorCode::UpstreamBlocked;
}

}  // namespace

WebPageSource::~WebPageSource() {
  rest_all();
}

FetchedPage WebPageSource::fetch(const web::WebRequest& request, Deadline deadline,
                                 const std::string& session, std::int64_t account) {
  if (!request.js_rendering || session.empty()) {
    rest();  // a tab kept for another job's pages is not held meanwhile
    // A batch's sessionId (docs/sessions.md "Batches") is the job's account's session.
    web::WebServices services = services_;
    services.caller = account;
    const proxies::Route route = web::choose_route(request, services);
    web::WebResult result = web::fetch_page(request, route, services, deadline);
    return {std::move(result.body), std::move(result.url),
            std::string(web::cost_key(request, route))};
  }
  if (services_.gateway) services_.gateway->check_url(request.url, deadline, "url");
  Kept kept = take();
  if (kept.tab && kept.session != session) kept = Kept{};  // never shared across jobs
  if (!kept.tab) {
    kept.session = session;
    kept.route = web::choose_route(request, services_);
    // The one page opener, on the route chosen for the job's tab.
    extract::PoolTabs tabs(
        services_.pool, {},
        extract::SiteEgress{services_.gateway, [route = kept.route] { return route; }});
    kept.tab = tabs.open(web::browser_profile(request), deadline);
  }
  web::WebResult result;
  try {
    LendingTabs lent(*kept.tab);
    result = web::read_web_page(request, lent, services_.screenshots, deadline);
  } catch (const Error& e) {
    if (keeps_tab(e)) park(std::move(kept));
    throw;
  }
  FetchedPage page{std::move(result.body), std::move(result.url),
                   std::string(web::cost_key(request, kept.route))};
  park(std::move(kept));
  return page;
}

WebPageSource::Kept WebPageSource::take() {
  std::lock_guard lock(mutex_);
  auto node = kept_.extract(std::this_thread::get_id());
  return node ? std::move(node.mapped()) : Kept{};
}

void WebPageSource::park(Kept kept) {
  if (++kept.pages >= kPagesPerTab) return;  // closed here: the next page gets a fresh tab
  std::lock_guard lock(mutex_);
  kept_[std::this_thread::get_id()] = std::move(kept);
}

void WebPageSource::rest() {
  take();  // and closed
}

void WebPageSource::rest_all() {
  std::map<std::thread::id, Kept> all;  // closed after the lock is released
  std::lock_guard lock(mutex_);
  all.swap(kept_);
}

FetchedText WebPageSource::get_text(const std::string& url, Deadline deadline,
                                    std::size_t max_bytes) {
  const auto target = parse_crawl_url(url);
  if (!target) throw invalid_parameter("url", "not an http(s) URL");
  if (!services_.gateway) return read_in_tab(*target, deadline, max_bytes);
  // The plain road through the egress gateway (web::gateway_get, as jsRendering: false): the
  // answer's own status, whatever its body (a 404 is a 404, not a browser's error page), at most
  // max_bytes.
  plain::HttpRequest http;
  http.url = url;
  http.headers = {{"Accept", "text/plain, application/xml, text/xml, */*;q=0.8"}};
  http.max_bytes = max_bytes;
  plain::HttpResponse response =
      web::gateway_get(*services_.gateway, proxies::Route::direct(), std::move(http), deadline);
  FetchedText text;
  text.status = response.status;
  bool cut = false;
  text.text = gunzip_at_most(std::move(response.body), max_bytes, cut);
  text.truncated = response.truncated || cut;
  return text;
}

FetchedText WebPageSource::read_in_tab(const CrawlUrl& target, Deadline deadline,
                                       std::size_t max_bytes) {
  // A replay archive answers the browser only: the file is read in a tab, as the archive's
  // pages are. The one page opener, as for every page; the default profile is a hidden tab that
  // loads no media.
  const extract::SiteEgress direct{services_.gateway, [] { return proxies::Route::direct(); }};
  extract::PoolTabs tabs(services_.pool, {}, direct);
  std::unique_ptr<extract::Tab> tab = tabs.open(extract::BrowserProfile{}, deadline);
  // Any document of the file's origin will do: its fetch() is then same-origin (no CORS).
  tab->navigate(target.origin() + "/robots.txt", extract::WaitFor::load(), deadline);
  const json got =
      tab->evaluate(read_script(target.str(), max_bytes), deadline, extract::World::Isolated);
  FetchedText text;
  text.status = got.value("status", 0);
  text.text = got.value("text", std::string());
  text.truncated = got.value("truncated", false);
  return text;
}

}  // namespace gleaner::jobs
