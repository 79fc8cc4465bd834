#pragma once
// The PageSource of the service's page jobs: pages by POST /scrape/web's own fetch
// (web::fetch_page: the address guard, the egress gateway, proxies, redirects checked), and
// robots.txt and sitemaps by the browser road too — a page of the file's origin is opened
// through the same gateway and the file read with the page's fetch(), so every address, and
// every redirect, passes the same guard, and a replay archive answers them in tests.
#include "extract/web/fetch.h"
#include "jobs/page_worker.h"

namespace gleaner::jobs {

class WebPageSource final : public PageSource {
 public:
  /// What `services` names must outlive the source.
  explicit WebPageSource(web::WebServices services) : services_(services) {}

  FetchedPage fetch(const web::WebRequest& request, Deadline deadline) override;
  FetchedText get_text(const std::string& url, Deadline deadline) override;

 private:
  web::WebServices services_;
};

}  // namespace gleaner::jobs
