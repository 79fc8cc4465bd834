#pragma once
// The stealth detector site (tests/stealth/page, docs/stealth.md) for the browser suites: the
// detector page at any path with its Content-Security-Policy, its scripts, the vendored BotD,
// the headers echo, and the record of each run: the verdict the page sends once its checks ran,
// the touches it reports at once (main-world calls, Runtime.enable, input events) and the headers
// of its document request. A run is named by the page URL's `run` (or, for a site endpoint that
// builds its own URL, `q`) parameter; with `next`, the page links to the page of that run (a
// crawl's second page).
//
// Served two ways: on a real loopback HTTP server (mount(), for POST /scrape/web through the
// egress gateway) and as a lease's interceptor (interceptor(), for a site endpoint whose URL is
// a real site's, e.g. https://www.google.com/search?q=RUN).
//
// The page's load event waits for its verdict (the held iframe, /stealth/hold): whatever road
// loads the page, the verdict is in once the road returns.
#include <httplib.h>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "browser/interception.h"
#include "core/clock.h"

namespace gleaner::testing {

class StealthSite {
 public:
  struct Touch {
    std::string check;  ///< main_world, runtime_enable, event
    std::string detail;
  };
  struct Answer {
    int status = 200;
    std::string content_type;
    std::string body;
    std::map<std::string, std::string> headers;
  };

  StealthSite();
  /// Releases held pages, so a server or interceptor thread never outlives the site.
  ~StealthSite();

  /// Serves the site on `server` (every GET).
  void mount(httplib::Server& server);
  /// Answers every request whose URL starts with `origin` ("https://www.google.com"): the
  /// detector's files under /stealth/, the page at any other path.
  std::shared_ptr<browser::Interceptor> interceptor(const std::string& origin);

  /// The verdict of `run`, waiting for it at most `wait`; nullopt if it never came.
  std::optional<nlohmann::json> verdict(const std::string& run, Millis wait);
  std::vector<Touch> touches(const std::string& run);
  /// The request headers of the run's page (lower-case names).
  std::map<std::string, std::string> document_headers(const std::string& run);

  /// What the site answers for a GET of `path` with `query` and the request's `headers`
  /// (lower-case names). Blocks for /stealth/hold until the run's verdict arrived.
  Answer answer(const std::string& path, const std::multimap<std::string, std::string>& query,
                const std::map<std::string, std::string>& headers);

 private:
  struct Run {
    std::optional<nlohmann::json> verdict;
    std::vector<Touch> touches;
    std::map<std::string, std::string> document_headers;
  };
  Run& run_locked(const std::string& id) { return runs_[id]; }

  const std::string page_dir_;
  std::mutex mutex_;  // guards runs_ and closing_
  std::condition_variable changed_;
  std::map<std::string, Run> runs_;
  bool closing_ = false;
};

/// The nonce of the detector page's scripts (its CSP allows no other script).
inline constexpr const char* kStealthNonce = "c3RlYWx0aC1kZXRlY3Rvcg";

}  // namespace gleaner::testing
