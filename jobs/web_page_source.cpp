#include "jobs/web_page_source.h"

#include "core/error.h"
#include "extract/pool_tabs.h"
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
                                 const std::string& session) {
  if (!request.js_rendering || session.empty()) {
    rest();  // a tab kept for another job's pages is not held meanwhile
    const proxies::Route route = web::choose_route(request, services_);
    web::WebResult result = web::fetch_page(request, route, services_, deadline);
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

FetchedText WebPageSource::get_text(const std::string& url, Deadline deadline) {
  const auto target = parse_crawl_url(url);
  if (!target) throw invalid_parameter("url", "not an http(s) URL");
  if (services_.gateway) services_.gateway->check_url(url, deadline, "url");
  // The one page opener, as for every page: the gateway's route and guard, and its diagnosis of
  // the main document. The default profile is a hidden tab that loads no media.
  const extract::SiteEgress direct{services_.gateway, [] { return proxies::Route::direct(); }};
  extract::PoolTabs tabs(services_.pool, {}, direct);
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
