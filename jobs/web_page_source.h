#pragma once
// The PageSource of the service's page jobs: pages by POST /scrape/web's own fetch
// (web::fetch_page: the address guard, the egress gateway, proxies, redirects checked), and
// robots.txt and sitemaps by the plain road's HTTP client through the same gateway (every
// address and every redirect passes the same guard; the answer's status is the site's, a 404
// included; bodies capped). With a replay archive, which answers the browser only, they are
// read in a tab of the file's origin with the page's fetch().
//
// On the browser road, the pages of one crawl that one thread fetches one after another share a
// tab, as a crawler's browser session: one browser context, and one way out (an upstream proxy
// when the job asks for one), for up to kPagesPerTab pages, never shared with another job. A
// batch's pages each get a fresh context, as POST /scrape/web's do (or, with a sessionId, the
// session's tab, as POST /scrape/web's with one: docs/sessions.md "Batches"). A fresh
// context per page costs a fresh renderer process, more CPU than the page itself on small pages
// (docs/benchmarks.md, "Crawls"). A tab is let go when its page failed other than with the site's
// own answer, when the thread moves to another job, and when the thread rests (PageSource::rest),
// so an idle worker holds no page of the pool.
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "extract/web/fetch.h"
#include "jobs/crawl_url.h"
#include "jobs/page_worker.h"

namespace gleaner::jobs {

class WebPageSource final : public PageSource {
 public:
  /// Pages one kept tab loads before it is closed and a fresh one opened: bounds what a long
  /// crawl's renderer accumulates, and lets the pool recycle its browsers.
  static constexpr int kPagesPerTab = 100;

  /// What `services` names must outlive the source.
  explicit WebPageSource(web::WebServices services) : services_(services) {}
  ~WebPageSource() override;

  FetchedPage fetch(const web::WebRequest& request, Deadline deadline,
                    const std::string& session, std::int64_t account) override;
  FetchedText get_text(const std::string& url, Deadline deadline, std::size_t max_bytes) override;
  void rest() override;
  void rest_all() override;

 private:
  struct Kept {
    std::string session;
    proxies::Route route;  // the tab's way out, chosen when it opened
    std::unique_ptr<extract::Tab> tab;
    int pages = 0;
  };
  /// get_text with a replay archive (no gateway): the archive answers the browser only.
  FetchedText read_in_tab(const CrawlUrl& target, Deadline deadline, std::size_t max_bytes);
  /// The calling thread's parked tab, taken out of kept_ (none: no tab).
  Kept take();
  /// Parks `kept` for the calling thread's next page, one more page counted, or closes it once
  /// it has served kPagesPerTab.
  void park(Kept kept);

  web::WebServices services_;
  std::mutex mutex_;  // guards kept_
  // The tabs parked between two pages, by the thread that uses them. A thread takes its own out
  // while it loads a page, so rest_all() only ever closes tabs nobody is using.
  std::map<std::thread::id, Kept> kept_;
};

}  // namespace gleaner::jobs
