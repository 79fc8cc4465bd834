// The pool in real Chromium: leases, isolation, navigation and readiness, interception and replay,
// crash and hang recovery, recycling, shutdown, and no process left behind.
//
// Most tests share the binary's pool (tests/support/chromium.h). Tests that break, recycle or stop
// browsers run their own small pool so they cannot disturb the others.
#include "browser/pool.h"
#include "browser/process.h"
#include "cdp/error.h"
#include "tests/support/chromium.h"
#include "tests/support/gate.h"
#include "tests/support/local_server.h"
#include "tests/support/replay_archive.h"

#include <gtest/gtest.h>

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

namespace gleaner::browser {
namespace {

using gleaner::testing::Gate;
using gleaner::testing::kMaxWait;
using gleaner::testing::LocalServer;
using gleaner::testing::max_wait;
using gleaner::testing::shared_pool;
using gleaner::testing::TempReplayArchive;

// Polls `condition` until it holds or the one maximum wait passes.
bool eventually(const std::function<bool()>& condition) {
  const Deadline deadline = max_wait();
  while (!condition()) {
    if (SteadyClock::now() >= deadline) return false;
    std::this_thread::sleep_for(Millis(20));
  }
  return true;
}

// A small pool of its own, for tests that break or stop browsers.
PoolOptions own_pool(int processes) {
  PoolOptions o = gleaner::testing::test_pool_options();
  o.processes = processes;
  o.pages_per_process = 2;
  o.warm_pages = 1;
  return o;
}

ContextOptions replaying(std::shared_ptr<ReplayArchive> archive) {
  ContextOptions options;
  options.interceptors.push_back(std::move(archive));
  return options;
}

std::string title(Lease& lease) {
  return lease->evaluate("document.title", max_wait()).get<std::string>();
}

void html(httplib::Response& response, const std::string& body) {
  response.set_content(body, "text/html; charset=utf-8");
}

// ---- Leasing --------------------------------------------------------------------------------

TEST(Pool, LeasesPagesConcurrentlyFromSeveralThreads) {
  TempReplayArchive archive;
  for (int i = 0; i < 6; ++i)
    archive.page("https://site.test/" + std::to_string(i),
                 "<title>page " + std::to_string(i) + "</title>");
  auto replay = archive.load();
  const auto served_before = shared_pool().state().pages_served;

  constexpr int kThreads = 6;
  constexpr int kLeasesEach = 3;
  std::vector<std::future<std::vector<std::string>>> results;
  for (int t = 0; t < kThreads; ++t) {
    results.push_back(std::async(std::launch::async, [&, t] {
      std::vector<std::string> titles;
      for (int i = 0; i < kLeasesEach; ++i) {
        Lease lease = shared_pool().lease(replaying(replay), max_wait());
        auto nav =
            lease->navigate("https://site.test/" + std::to_string(t), WaitSpec::load(), max_wait());
        EXPECT_EQ(nav.status, 200);
        titles.push_back(title(lease));
      }
      return titles;
    }));
  }
  for (int t = 0; t < kThreads; ++t) {
    for (const auto& got : results[t].get()) EXPECT_EQ(got, "page " + std::to_string(t));
  }
  EXPECT_GE(shared_pool().state().pages_served - served_before,
            static_cast<std::uint64_t>(kThreads * kLeasesEach));
  EXPECT_EQ(shared_pool().state().busy_pages, 0);
}

TEST(Pool, LeaseWaitEndsWithUnavailableWhenEveryPageIsTaken) {
  PoolOptions o = own_pool(1);
  o.pages_per_process = 1;
  o.lease_wait = Millis(200);
  Pool pool(o);
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  Lease held = pool.lease({}, max_wait());
  try {
    pool.lease({}, max_wait());
    FAIL() << "a second lease was granted beyond the pool's size";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unavailable);
  }
  held.release();
  Lease next = pool.lease({}, max_wait());  // the freed page is lent again
  EXPECT_EQ(next->evaluate("1 + 1", max_wait()), 2);
}

TEST(Pool, WithoutAWorkingChromiumLeasesFailAsUnavailable) {
  PoolOptions o = own_pool(1);
  o.chromium_path = "/nonexistent/chromium";
  o.lease_wait = Millis(300);
  Pool pool(o);
  EXPECT_FALSE(pool.wait_ready(deadline_in(Millis(300))));
  try {
    pool.lease({}, max_wait());
    FAIL() << "a lease without a browser";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unavailable);
  }
  EXPECT_EQ(pool.state().processes, 0);
}

// ---- Replay and interception ------------------------------------------------------------------

TEST(Pool, NavigatesThroughAReplayArchiveThatLogsEveryRequest) {
  TempReplayArchive archive;
  TempReplayArchive::Entry moved;
  moved.url = "https://shop.test/old";
  moved.status = 301;
  moved.headers = {{"location", "https://shop.test/"}, {"content-type", "text/plain"}};
  archive.add(moved);
  archive.page("https://shop.test/",
               "<!doctype html><html><head><title>shop</title>"
               "<script src=\"/app.js\"></script></head>"
               "<body><img src=\"/missing.png\"><p>hello</p></body></html>");
  TempReplayArchive::Entry script;
  script.url = "https://shop.test/app.js";
  script.body = "document.title = 'shop with script';";
  script.file_name = "app.js";
  archive.add(script);
  auto replay = archive.load();

  Lease lease = shared_pool().lease(replaying(replay), max_wait());
  NavigationResult nav = lease->navigate("https://shop.test/old", WaitSpec::load(), max_wait());
  EXPECT_EQ(nav.url, "https://shop.test/");
  EXPECT_EQ(nav.status, 200);
  EXPECT_EQ(nav.headers.at("content-type"), "text/html; charset=utf-8");
  ASSERT_EQ(nav.redirects.size(), 1u);
  EXPECT_EQ(nav.redirects[0].url, "https://shop.test/old");
  EXPECT_EQ(nav.redirects[0].status, 301);
  EXPECT_TRUE(nav.error_text.empty());
  EXPECT_EQ(title(lease), "shop with script");
  std::string page = lease->html(max_wait());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u) << page.substr(0, 40);
  EXPECT_NE(page.find("<p>hello</p>"), std::string::npos);

  std::map<std::string, std::optional<std::size_t>> answered;
  for (const auto& r : replay->requests()) answered[r.url] = r.entry;
  EXPECT_EQ(answered.at("https://shop.test/old"), std::optional<std::size_t>(0));
  EXPECT_EQ(answered.at("https://shop.test/"), std::optional<std::size_t>(1));
  EXPECT_EQ(answered.at("https://shop.test/app.js"), std::optional<std::size_t>(2));
  EXPECT_EQ(answered.at("https://shop.test/missing.png"), std::nullopt);
}

TEST(Pool, PoolWideReplayAnswersEveryRequestAfterPoolAndLeaseInterceptors) {
  TempReplayArchive archive;
  archive.page("https://news.test/",
               "<title>front page</title><img src=\"/ad.png\">"
               "<script src=\"https://cdn.test/lib.js\"></script>");
  archive.add(
      {"prefix", "https://cdn.test/", "window.libLoaded = true;", "", "lib.js", false, 0, {}});
  archive.load();  // writes index.json

  // Every request of every page passes the pool's interceptors first.
  struct Recorder : Interceptor {
    std::mutex mutex;
    std::vector<std::string> urls;
    std::optional<Decision> decide(const InterceptedRequest& r) override {
      std::lock_guard lock(mutex);
      urls.push_back(r.url);
      return std::nullopt;
    }
  };
  auto recorder = std::make_shared<Recorder>();
  PoolOptions o = own_pool(1);
  o.replay_dir = archive.dir();
  o.interceptors.push_back(recorder);
  Pool pool(o);
  ASSERT_TRUE(pool.replay());

  // The lease's own interceptor refuses the script before the archive can answer it.
  struct RefuseCdn : Interceptor {
    std::optional<Decision> decide(const InterceptedRequest& r) override {
      if (r.url.rfind("https://cdn.test/", 0) == 0) return Decision(Fail{"AccessDenied"});
      return std::nullopt;
    }
  };
  ContextOptions options;
  options.interceptors.push_back(std::make_shared<RefuseCdn>());
  Lease lease = pool.lease(options, max_wait());
  auto nav = lease->navigate("https://news.test/", WaitSpec::load(), max_wait());
  EXPECT_EQ(nav.status, 200);
  EXPECT_EQ(title(lease), "front page");
  EXPECT_EQ(lease->evaluate("window.libLoaded === true", max_wait()), false);

  auto unknown = lease->navigate("https://elsewhere.test/x", WaitSpec::load(), max_wait());
  EXPECT_EQ(unknown.status, 404);  // the archive's unmatched status, not the network

  std::set<std::string> logged;
  for (const auto& r : pool.replay()->requests()) logged.insert(r.url);
  EXPECT_TRUE(logged.count("https://news.test/"));
  EXPECT_TRUE(logged.count("https://news.test/ad.png"));
  EXPECT_TRUE(logged.count("https://elsewhere.test/x"));
  EXPECT_FALSE(logged.count("https://cdn.test/lib.js"));  // refused before it got there
  std::lock_guard lock(recorder->mutex);
  EXPECT_NE(std::find(recorder->urls.begin(), recorder->urls.end(), "https://cdn.test/lib.js"),
            recorder->urls.end());
}

TEST(Pool, ContextOptionsReachTheSite) {
  std::atomic<int> image_requests{0};
  std::mutex seen_mutex;
  std::string seen_header, seen_agent;
  LocalServer site;  // after what its handlers use: it stops (and joins them) first
  site.server().Get("/page", [&](const httplib::Request& request, httplib::Response& response) {
    {
      std::lock_guard lock(seen_mutex);
      seen_header = request.get_header_value("X-Gleaner-Test");
      seen_agent = request.get_header_value("User-Agent");
    }
    html(response, "<title>opts</title><img src=\"/pixel.png\">");
  });
  site.server().Get("/pixel.png", [&](const httplib::Request&, httplib::Response& response) {
    ++image_requests;
    response.set_content("not really a png", "image/png");
  });
  site.start();

  ContextOptions options;
  options.viewport = Viewport{412, 915, 1.0, false};
  options.user_agent = "gleaner-test-agent/1.0";
  options.extra_headers = {{"X-Gleaner-Test", "yes"}};
  options.blocked_resource_types = {"Image"};
  Lease lease = shared_pool().lease(options, max_wait());
  lease->navigate(site.url("/page"), WaitSpec::load(), max_wait());
  EXPECT_EQ(lease->evaluate("innerWidth", max_wait()), 412);
  EXPECT_EQ(lease->evaluate("navigator.userAgent", max_wait()), "gleaner-test-agent/1.0");
  EXPECT_EQ(lease.page().viewport().width, 412);
  {
    std::lock_guard lock(seen_mutex);
    EXPECT_EQ(seen_header, "yes");
    EXPECT_EQ(seen_agent, "gleaner-test-agent/1.0");
  }
  EXPECT_EQ(image_requests.load(), 0);  // blocked before it left the browser
  auto metrics = lease.page().layout_metrics(max_wait());
  EXPECT_TRUE(metrics.contains("cssContentSize"));
}

// A phone's or a tablet's page sees a touch screen; a desktop's a mouse, on a page of the same
// browser leased right after.
TEST(Pool, ATouchContextSeesATouchScreenAndTheNextLeaseAMouse) {
  TempReplayArchive archive;
  archive.page("https://touch.test/", "<title>touch</title>");
  const auto archive_interceptor = archive.load();
  const std::string probe =
      "[navigator.maxTouchPoints, matchMedia('(pointer: coarse)').matches, 'ontouchstart' in "
      "window]";
  {
    ContextOptions options;
    options.viewport = Viewport{712, 1138, 2.25, true};
    options.touch = true;
    options.interceptors.push_back(archive_interceptor);
    Lease lease = shared_pool().lease(options, max_wait());
    lease->navigate("https://touch.test/", WaitSpec::load(), max_wait());
    EXPECT_EQ(lease->evaluate(probe, max_wait()), nlohmann::json::parse("[5, true, true]"));
    EXPECT_EQ(lease->evaluate("devicePixelRatio", max_wait()), 2.25);
  }
  ContextOptions options;
  options.interceptors.push_back(archive_interceptor);
  Lease lease = shared_pool().lease(options, max_wait());
  lease->navigate("https://touch.test/", WaitSpec::load(), max_wait());
  EXPECT_EQ(lease->evaluate(probe, max_wait()), nlohmann::json::parse("[0, false, false]"));
}

TEST(Pool, AContextsProxyIsUsedAndItsCredentialsStayOutOfThePage) {
  // A plain-HTTP forward proxy: the browser sends absolute URLs to it, first without credentials
  // (answered 407), then with them.
  std::mutex mutex;
  std::vector<std::string> targets;
  std::string authorization;
  LocalServer proxy;  // after what its handlers use: it stops (and joins them) first
  proxy.server().Get(".*", [&](const httplib::Request& request, httplib::Response& response) {
    std::lock_guard lock(mutex);
    targets.push_back(request.path);
    if (!request.has_header("Proxy-Authorization")) {
      response.status = 407;
      response.set_header("Proxy-Authenticate", "Basic realm=\"gleaner\"");
      return;
    }
    authorization = request.get_header_value("Proxy-Authorization");
    html(response, "<title>via proxy</title>");
  });
  proxy.start();

  ContextOptions options;
  options.proxy =
      ProxySettings{"http://127.0.0.1:" + std::to_string(proxy.port()), {}, "scraper", "s3cret"};
  Lease lease = shared_pool().lease(options, max_wait());
  auto nav = lease->navigate("http://proxied.test/page", WaitSpec::load(), max_wait());
  EXPECT_EQ(nav.status, 200);
  EXPECT_EQ(title(lease), "via proxy");
  std::lock_guard lock(mutex);
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(targets.front(), "http://proxied.test/page");
  EXPECT_EQ(authorization, "Basic c2NyYXBlcjpzM2NyZXQ=");  // scraper:s3cret

  // A lease without a proxy goes direct: its context does not inherit the other's proxy.
  Lease direct = shared_pool().lease({}, max_wait());
  EXPECT_THROW(direct->navigate("http://proxied.test/page", WaitSpec::load(), max_wait()), Error);
}

TEST(Pool, WarmPagesFollowTheLeasesProxyAndAnswerEachLeasesOwnCredentials) {
  std::mutex mutex;
  std::map<std::string, std::string> authorizations;  // by URL, of the requests that got through
  LocalServer proxy;  // after what its handlers use: it stops (and joins them) first
  proxy.server().Get(".*", [&](const httplib::Request& request, httplib::Response& response) {
    if (!request.has_header("Proxy-Authorization")) {
      response.status = 407;
      response.set_header("Proxy-Authenticate", "Basic realm=\"gleaner\"");
      return;
    }
    std::lock_guard lock(mutex);
    authorizations[request.path] = request.get_header_value("Proxy-Authorization");
    html(response, "<title>via proxy</title>");
  });
  proxy.start();
  const std::string server = "http://127.0.0.1:" + std::to_string(proxy.port());

  Pool pool(own_pool(1));
  auto proxied = [&](const std::string& user, const std::string& password) {
    ContextOptions options;
    options.proxy = ProxySettings{server, {"<-loopback>"}, user, password};
    return options;
  };
  auto warm_ready = [&] {
    const PoolState state = pool.state();
    return !state.browsers.empty() && state.browsers[0].warm_pages == 1;
  };
  ASSERT_TRUE(eventually(warm_ready));
  {
    // The first lease with a proxy finds only a page without one: it opens its own.
    Lease first = pool.lease(proxied("first", "one"), max_wait());
    EXPECT_FALSE(first.warm());
    EXPECT_EQ(first->navigate("http://proxied.test/a", WaitSpec::load(), max_wait()).status, 200);
  }
  // From then on the warm page is opened through that proxy, ahead of the next lease...
  ASSERT_TRUE(eventually(warm_ready));
  {
    Lease second = pool.lease(proxied("second", "two"), max_wait());
    EXPECT_TRUE(second.warm());
    EXPECT_EQ(second->navigate("http://proxied.test/b", WaitSpec::load(), max_wait()).status, 200);
    EXPECT_EQ(title(second), "via proxy");
  }
  // ...and the challenge was answered with each lease's own credentials.
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(authorizations["http://proxied.test/a"], "Basic Zmlyc3Q6b25l");     // first:one
    EXPECT_EQ(authorizations["http://proxied.test/b"], "Basic c2Vjb25kOnR3bw==");  // second:two
  }
  // A lease without a proxy never gets a page set up for one: it goes direct.
  ASSERT_TRUE(eventually(warm_ready));
  Lease direct = pool.lease({}, max_wait());
  EXPECT_FALSE(direct.warm());
  EXPECT_THROW(direct->navigate("http://proxied.test/c", WaitSpec::load(), max_wait()), Error);
}

// Issue 22: screenshots (painted pages) and everything else (hidden pages) alternate in one
// service; each finds a fresh context ready, opened off its request's path, never one lent before.
TEST(Pool, PaintedAndHiddenLeasesInTurnBothFindWarmPages) {
  Pool pool(own_pool(1));
  ContextOptions hidden;
  hidden.hidden = true;
  const ContextOptions painted;
  { Lease first = pool.lease(hidden, max_wait()); }
  { Lease first = pool.lease(painted, max_wait()); }
  // One warm page of each kind (warm_pages = 1 per kind).
  ASSERT_TRUE(eventually([&] { return pool.state().browsers.at(0).warm_pages == 2; }));
  std::set<std::string> contexts;
  for (int round = 0; round < 3; ++round) {
    for (const ContextOptions* options : std::vector<const ContextOptions*>{&hidden, &painted}) {
      ASSERT_TRUE(eventually([&] { return pool.state().browsers.at(0).warm_pages == 2; }));
      Lease lease = pool.lease(*options, max_wait());
      EXPECT_TRUE(lease.warm()) << "round " << round << (options->hidden ? " hidden" : " painted");
      EXPECT_TRUE(contexts.insert(lease->context_id()).second) << "a context lent twice";
    }
  }
}

// Resolves "frame" with the next rendering update; a page not painted has none.
const std::string kNextFrame =
    "new Promise((resolve) => { requestAnimationFrame(() => resolve('frame'));"
    " setTimeout(() => resolve('no frame'), 2000); })";

// Serves /page on `site` (a title and a paragraph of two words, 100 px wide) and starts it; the
// page's URL.
std::string two_words_page(LocalServer& site, const std::string& title) {
  site.server().Get("/page", [title](const httplib::Request&, httplib::Response& response) {
    html(response, "<title>" + title + "</title><p style='width:100px'>two words</p>");
  });
  site.start();
  return "http://127.0.0.1:" + std::to_string(site.port()) + "/page";
}

TEST(Pool, AHiddenPageLoadsAndReadsLikeAnyOtherButIsNeverPainted) {
  LocalServer site;
  const std::string url = two_words_page(site, "hidden");
  const std::string& next_frame = kNextFrame;
  Pool pool(own_pool(1));
  ContextOptions hidden;
  hidden.hidden = true;
  std::vector<std::string> hidden_targets;
  for (int i = 0; i < 2; ++i) {  // the second one may be a warm page opened hidden
    Lease lease = pool.lease(hidden, max_wait());
    hidden_targets.push_back(lease->target_id());
    EXPECT_EQ(lease->navigate(url, WaitSpec::load(), max_wait()).status, 200);
    EXPECT_EQ(title(lease), "hidden");
    // Layout works (the text is measured and read as on screen)...
    EXPECT_EQ(lease->evaluate("document.querySelector('p').innerText", max_wait()), "two words");
    EXPECT_EQ(lease->evaluate("document.querySelector('p').getBoundingClientRect().width",
                              max_wait()),
              100);
    // ...but nothing is painted.
    EXPECT_EQ(lease->evaluate(next_frame, max_wait()), "no frame");
  }
  Lease visible = pool.lease({}, max_wait());
  EXPECT_FALSE(visible.warm());  // warm pages were opened hidden, like the leases before
  visible->navigate(url, WaitSpec::load(), max_wait());
  EXPECT_EQ(visible->evaluate(next_frame, max_wait()), "frame");

  // A hidden tab is not closed with its context: the pool closes it itself.
  auto still_open = [&] {
    const auto targets = visible->session().call("Target.getTargets", {}, max_wait());
    for (const auto& info : targets.at("targetInfos"))
      for (const auto& id : hidden_targets)
        if (info.value("targetId", std::string()) == id) return true;
    return false;
  };
  EXPECT_TRUE(eventually([&] { return !still_open(); }));
}

// A page painted on demand (a session's kept page): behind a blank tab in its window and never
// painted while its options say hidden, in front and painted (a screenshot can be taken) while
// they do not, and back again; it reads the same either way.
TEST(Pool, APagePaintedOnDemandIsPaintedOnlyWhileItsOptionsWantIt) {
  LocalServer site;
  const std::string url = two_words_page(site, "on demand");
  Pool pool(own_pool(1));
  ContextOptions options;
  options.paint_on_demand = true;
  options.hidden = true;
  Lease lease = pool.lease(options, max_wait());
  EXPECT_FALSE(lease.warm());
  auto look = [&](int width = 1366) {
    EXPECT_EQ(lease->navigate(url, WaitSpec::load(), max_wait()).status, 200);
    EXPECT_EQ(lease->evaluate("document.querySelector('p').innerText", max_wait()), "two words");
    EXPECT_EQ(lease->evaluate("innerWidth", max_wait()), width);
    return lease->evaluate(kNextFrame, max_wait()).get<std::string>();
  };
  EXPECT_EQ(look(), "no frame");
  options.hidden = false;
  lease.reconfigure(options, max_wait());
  EXPECT_EQ(look(), "frame");
  const auto shot =
      lease->session().call("Page.captureScreenshot", {{"format", "png"}}, max_wait());
  EXPECT_FALSE(shot.value("data", std::string()).empty());
  options.hidden = true;
  lease.reconfigure(options, max_wait());
  EXPECT_EQ(look(), "no frame");
  // Resized while unpainted (its window is minimized then), and painted again: the window
  // follows the viewport.
  options.viewport = Viewport{1000, 700};
  lease.reconfigure(options, max_wait());
  EXPECT_EQ(look(1000), "no frame");
  options.hidden = false;
  lease.reconfigure(options, max_wait());
  EXPECT_EQ(look(1000), "frame");
  EXPECT_EQ(lease->evaluate("outerWidth", max_wait()), 1000);

  // Both its tabs (the page and the blank one) go with the lease.
  const std::string context = lease->context_id();
  auto tabs_of_context = [&](Page& asking) {
    int tabs = 0;
    const auto targets = asking.session().call("Target.getTargets", {}, max_wait());
    for (const auto& info : targets.at("targetInfos"))
      if (info.value("browserContextId", std::string()) == context) ++tabs;
    return tabs;
  };
  EXPECT_EQ(tabs_of_context(lease.page()), 2);
  lease.release();
  Lease other = pool.lease({}, max_wait());
  EXPECT_TRUE(eventually([&] { return tabs_of_context(other.page()) == 0; }));
}

// ---- Isolation --------------------------------------------------------------------------------

TEST(Pool, CookiesAndStorageDoNotLeakIntoTheNextLease) {
  std::mutex mutex;
  std::vector<std::string> cookies_seen;
  LocalServer site;  // after what its handlers use: it stops (and joins them) first
  site.server().Get("/login", [](const httplib::Request&, httplib::Response& response) {
    response.set_header("Set-Cookie", "session=secret; Path=/");
    html(response, "<title>in</title><script>localStorage.setItem('k', 'v')</script>");
  });
  site.server().Get("/whoami", [&](const httplib::Request& request, httplib::Response& response) {
    std::lock_guard lock(mutex);
    cookies_seen.push_back(request.get_header_value("Cookie"));
    html(response, "<title>who</title>");
  });
  site.start();

  {
    Lease first = shared_pool().lease({}, max_wait());
    first->navigate(site.url("/login"), WaitSpec::load(), max_wait());
    first->navigate(site.url("/whoami"), WaitSpec::load(), max_wait());
    EXPECT_EQ(first->evaluate("localStorage.getItem('k')", max_wait()), "v");
  }
  // Enough leases that some land on the same browser as the first.
  const int leases = gleaner::testing::test_pool_options().processes * 2;
  for (int i = 0; i < leases; ++i) {
    Lease next = shared_pool().lease({}, max_wait());
    next->navigate(site.url("/whoami"), WaitSpec::load(), max_wait());
    EXPECT_EQ(next->evaluate("document.cookie", max_wait()), "");
    EXPECT_EQ(next->evaluate("localStorage.getItem('k')", max_wait()), nullptr);
  }
  std::lock_guard lock(mutex);
  ASSERT_EQ(cookies_seen.size(), static_cast<std::size_t>(leases + 1));
  EXPECT_EQ(cookies_seen[0], "session=secret");
  for (std::size_t i = 1; i < cookies_seen.size(); ++i) EXPECT_EQ(cookies_seen[i], "") << i;
}

// ---- Navigation and readiness -----------------------------------------------------------------

TEST(Pool, DomContentLoadedDoesNotWaitForImagesButLoadDoes) {
  Gate image_gate;
  LocalServer site;  // after what its handlers use: it stops (and joins them) first
  site.server().Get("/page", [](const httplib::Request&, httplib::Response& response) {
    html(response, "<title>p</title><img src=\"/held.png\">");
  });
  site.server().Get("/held.png", [&](const httplib::Request&, httplib::Response& response) {
    image_gate.wait();
    response.set_content("x", "image/png");
  });
  site.start();

  Lease lease = shared_pool().lease({}, max_wait());
  lease->navigate(site.url("/page"), WaitSpec::dom_content_loaded(), max_wait());
  // The image is still held by the server, so the load event cannot have fired.
  EXPECT_NE(lease->evaluate("document.readyState", max_wait()), "complete");
  image_gate.open();
  lease->navigate(site.url("/page"), WaitSpec::load(), max_wait());
  EXPECT_EQ(lease->evaluate("document.readyState", max_wait()), "complete");
}

TEST(Pool, NetworkIdleWaitsForRequestsMadeAfterTheDocument) {
  LocalServer site;
  site.server().Get("/page", [](const httplib::Request&, httplib::Response& response) {
    html(response,
         "<title>before</title><script>"
         "fetch('/late').then(r => r.text()).then(t => { document.title = t; });"
         "</script>");
  });
  site.server().Get("/late", [](const httplib::Request&, httplib::Response& response) {
    std::this_thread::sleep_for(Millis(300));  // outlasts the load event
    response.set_content("after", "text/plain");
  });
  site.start();
  Lease lease = shared_pool().lease({}, max_wait());
  lease->navigate(site.url("/page"), WaitSpec::network_idle(), max_wait());
  // Idle means no request open for 500 ms: the fetch finished, and its handler ran.
  EXPECT_EQ(title(lease), "after");
}

TEST(Pool, SelectorWaitReturnsOnceTheElementExists) {
  TempReplayArchive archive;
  archive.page("https://app.test/",
               "<title>app</title><script>"
               "setTimeout(() => { const d = document.createElement('div');"
               " d.id = 'results'; document.body.appendChild(d); }, 200);"
               "</script><body></body>");
  Lease lease = shared_pool().lease(replaying(archive.load()), max_wait());
  lease->navigate("https://app.test/", WaitSpec::selector_of("#results"), max_wait());
  EXPECT_EQ(lease->evaluate("document.querySelector('#results') !== null", max_wait()), true);

  try {
    lease->navigate("https://app.test/", WaitSpec::selector_of("div[[["), max_wait());
    FAIL() << "an invalid selector was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
  }
}

TEST(Pool, FixedWaitDoesNotWaitForTheLoadEvent) {
  LocalServer site;
  site.server().Get("/page", [](const httplib::Request&, httplib::Response& response) {
    html(response, "<title>fixed</title><img src=\"/never.png\">");
  });
  site.server().Get("/never.png",
                    [&](const httplib::Request&, httplib::Response&) { site.hang(); });
  site.start();
  Lease lease = shared_pool().lease({}, max_wait());
  auto nav = lease->navigate(site.url("/page"), WaitSpec::fixed_wait(Millis(100)), max_wait());
  EXPECT_EQ(nav.status, 200);
  // The document may still be parsing after 100 ms on a loaded machine: wait for its DOM (not its
  // load event, which the hanging image holds back for good).
  EXPECT_EQ(lease->evaluate("new Promise((resolve) => document.readyState !== 'loading'"
                            " ? resolve(document.title) : document.addEventListener("
                            "'DOMContentLoaded', () => resolve(document.title)))",
                            max_wait()),
            "fixed");
  EXPECT_NE(lease->evaluate("document.readyState", max_wait()), "complete");
}

TEST(Pool, ExtraWaitComesAfterReadiness) {
  TempReplayArchive archive;
  archive.page("https://wait.test/", "<title>w</title>");
  Lease lease = shared_pool().lease(replaying(archive.load()), max_wait());
  const auto start = SteadyClock::now();
  lease->navigate("https://wait.test/", WaitSpec::load().then_wait(Millis(250)), max_wait());
  EXPECT_GE(SteadyClock::now() - start, Millis(250));  // a wait cannot end early
}

TEST(Pool, DeadlineOnAPageThatNeverAnswersIsATimeoutAndThePageStaysUsable) {
  LocalServer site;
  site.server().Get("/never", [&](const httplib::Request&, httplib::Response&) { site.hang(); });
  site.server().Get("/stalls", [](const httplib::Request&, httplib::Response& response) {
    html(response, "<title>stalls</title><img src=\"/never\">");
  });
  site.server().Get("/fine", [](const httplib::Request&, httplib::Response& response) {
    html(response, "<title>fine</title>");
  });
  site.start();
  Lease lease = shared_pool().lease({}, max_wait());
  for (const char* path : {"/never", "/stalls"}) {
    try {
      lease->navigate(site.url(path), WaitSpec::load(), deadline_in(Millis(700)));
      FAIL() << path << " loaded";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Timeout) << path << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("did not load within"), std::string::npos);
    }
  }
  auto nav = lease->navigate(site.url("/fine"), WaitSpec::load(), max_wait());
  EXPECT_EQ(nav.status, 200);
  EXPECT_EQ(title(lease), "fine");
}

// Issue 41, item 1: a script still running at its deadline (a jsScenario `evaluate` that loops,
// an endless promise chain) went on in the renderer after the call timed out, and every later call
// to the page (a crawl's next page in the same tab, a session's next request) waited behind it.
TEST(Pool, AScriptStillRunningAtItsDeadlineIsStoppedAndThePageAnswersAgain) {
  Lease lease = shared_pool().lease({}, max_wait());
  const std::vector<std::pair<bool, std::string>> scripts = {
      {false, "while (true) {}"},
      {false, "(async () => { await new Promise((r) => setTimeout(r, 50)); for (;;) {} })()"},
      {true, "(() => { let n = 0; for (;;) n += document.querySelectorAll('*').length; })()"},
  };
  for (const auto& [isolated, script] : scripts) {
    try {
      if (isolated)
        lease->evaluate_isolated(script, deadline_in(Millis(700)));
      else
        lease->evaluate(script, deadline_in(Millis(700)));
      FAIL() << script << " returned";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Timeout) << script << ": " << e.what();
    }
    EXPECT_EQ(lease->evaluate("1 + 1", max_wait()), 2) << "after " << script;
    EXPECT_EQ(lease->evaluate_isolated("2 + 2", max_wait()), 4) << "after " << script;
  }
}

TEST(Pool, NetworkErrorsAndHttpErrorsAreToldApart) {
  LocalServer site;
  site.server().Get(
      "/gone", [](const httplib::Request&, httplib::Response& response) { response.status = 404; });
  site.start();
  Lease lease = shared_pool().lease({}, max_wait());
  // Nothing but 127.0.0.1 resolves in tests: a DNS failure.
  try {
    lease->navigate("http://no-such-host.test/", WaitSpec::load(), max_wait());
    FAIL() << "an unresolvable host loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UpstreamError);
    EXPECT_NE(e.detail().find("ERR_NAME_NOT_RESOLVED"), std::string::npos) << e.detail();
  }
  // An empty 404 is a response, not a network error.
  auto nav = lease->navigate(site.url("/gone"), WaitSpec::load(), max_wait());
  EXPECT_EQ(nav.status, 404);
  EXPECT_EQ(nav.url, site.url("/gone"));
  EXPECT_FALSE(nav.error_text.empty());
}

TEST(Pool, ExceptionsInPageScriptsAreInternalErrorsWithTheirText) {
  Lease lease = shared_pool().lease({}, max_wait());
  try {
    lease->evaluate("(() => { throw new Error('selector drift'); })()", max_wait());
    FAIL() << "the exception was lost";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Internal);
    EXPECT_NE(e.detail().find("selector drift"), std::string::npos) << e.detail();
  }
  EXPECT_EQ(lease->evaluate("Promise.resolve({a: [1, 'x']})", max_wait()),
            nlohmann::json::parse(R"({"a": [1, "x"]})"));
  EXPECT_EQ(lease->evaluate("undefined", max_wait()), nullptr);
}

// ---- Failures of Chromium itself --------------------------------------------------------------

// What no page override reaches is set when a browser starts (browser/identity.h): a phone's or a
// tablet's page comes from a browser of its own device, started at the first such lease, without
// the PDF viewer desktop Chrome lists and with the device's User-Agent as the browser's own (what
// service workers send). Unused for the idle time, those browsers stop; one holding a lease (a
// session's page) stays until it ends.
TEST(Pool, APhoneOrTabletPageComesFromABrowserOfItsDeviceStoppedOnceUnused) {
  PoolOptions o = own_pool(1);
  o.warm_pages = 0;
  o.device_idle = Millis(1000);
  Pool pool(o);
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  auto devices = [&] {
    std::multiset<Device> out;
    for (const BrowserStatus& b : pool.state().browsers) out.insert(b.device);
    return out;
  };
  EXPECT_EQ(devices(), std::multiset<Device>{Device::Desktop}) << "a phone's browsers wait";
  const std::string probe = "[navigator.plugins.length, navigator.mimeTypes.length, "
                            "navigator.pdfViewerEnabled]";
  Lease desktop = pool.lease({}, max_wait());
  EXPECT_EQ(desktop->evaluate(probe, max_wait()), nlohmann::json::parse("[5, 2, true]"));
  {
    ContextOptions phone;
    phone.device = Device::Phone;
    Lease lease = pool.lease(phone, max_wait());
    EXPECT_NE(lease.browser_pid(), desktop.browser_pid());
    EXPECT_EQ(lease->evaluate(probe, max_wait()), nlohmann::json::parse("[0, 0, false]"));
    EXPECT_EQ(devices(), (std::multiset<Device>{Device::Desktop, Device::Phone}));
    // Held past the idle time (a session's page): its browser stays.
    std::this_thread::sleep_for(Millis(1500));
    EXPECT_FALSE(lease.lost());
    EXPECT_EQ(lease->evaluate("6 * 7", max_wait()), 42);
    EXPECT_EQ(devices(), (std::multiset<Device>{Device::Desktop, Device::Phone}));
  }
  EXPECT_TRUE(eventually([&] { return devices() == std::multiset<Device>{Device::Desktop}; }))
      << "the phone's browser still runs after its last lease ended";
  ContextOptions tablet;
  tablet.device = Device::Tablet;
  Lease lease = pool.lease(tablet, max_wait());
  EXPECT_EQ(lease->evaluate(probe, max_wait()), nlohmann::json::parse("[0, 0, false]"));
  EXPECT_EQ(devices(), (std::multiset<Device>{Device::Desktop, Device::Tablet}));
  EXPECT_EQ(desktop->evaluate(probe, max_wait()), nlohmann::json::parse("[5, 2, true]"));
}

TEST(Pool, AKilledBrowserFailsOnlyItsLeasesAndIsReplaced) {
  Pool pool(own_pool(2));
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  Lease doomed = pool.lease({}, max_wait());
  Lease bystander = pool.lease({}, max_wait());
  const pid_t killed = doomed.browser_pid();
  ASSERT_NE(killed, bystander.browser_pid()) << "leases go to the least busy browser";

  ASSERT_EQ(::kill(killed, SIGKILL), 0);
  try {
    doomed->evaluate("1", max_wait());
    FAIL() << "a page of a killed browser answered";
  } catch (const cdp::Error& e) {
    EXPECT_EQ(e.kind(), cdp::ErrorKind::Closed);
  }
  EXPECT_EQ(bystander->evaluate("6 * 7", max_wait()), 42);
  doomed.release();

  EXPECT_TRUE(eventually([&] { return pool.state().restarts >= 1; }));
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  Lease after = pool.lease({}, max_wait());
  EXPECT_EQ(after->evaluate("'back'", max_wait()), "back");
  EXPECT_NE(after.browser_pid(), killed);
  EXPECT_TRUE(process_group_members(killed).empty());
}

// A session's next request reconfigures its kept page (Lease::reconfigure): with what the page
// has already nothing is sent, not even a question whether the browser is still there. Shown on
// a page whose browser was killed: only a call that is sent finds it gone (extract/sessions.cpp
// makes that call's failure the request's session_lost).
TEST(Pool, ReconfiguringAPageWithWhatItHasSendsNothing) {
  Pool pool(own_pool(1));
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  ContextOptions options;
  options.extra_headers = {{"X-Kept", "1"}};
  Lease lease = pool.lease(options, max_wait());
  ASSERT_EQ(::kill(lease.browser_pid(), SIGKILL), 0);
  ASSERT_TRUE(eventually([&] { return lease.lost(); }));
  EXPECT_NO_THROW(lease.reconfigure(options, max_wait()));
  options.extra_headers = {{"X-Kept", "2"}};  // a change is sent, and fails
  EXPECT_THROW(lease.reconfigure(options, max_wait()), cdp::Error);
}

TEST(Pool, AHungBrowserIsDetectedAndReplaced) {
  PoolOptions o = own_pool(1);
  o.health_interval = Millis(100);
  o.health_timeout = Millis(300);
  Pool pool(o);
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  // Once its warm page is open the supervisor is idle, so the hang is found by a health check.
  ASSERT_TRUE(eventually([&] { return pool.state().browsers.at(0).warm_pages == 1; }));
  const pid_t hung = pool.state().browsers.at(0).pid;
  ASSERT_EQ(::kill(hung, SIGSTOP), 0);
  EXPECT_TRUE(eventually([&] { return pool.state().restarts >= 1; }));
  Lease lease = pool.lease({}, max_wait());
  EXPECT_NE(lease.browser_pid(), hung);
  EXPECT_EQ(lease->evaluate("'alive'", max_wait()), "alive");
  EXPECT_TRUE(eventually([&] { return process_group_members(hung).empty(); }));
}

// A browser busy with a heavy page misses a check or two; it is hung only after
// health_check_misses in a row (here more than the pause can make), so it is not killed.
TEST(Pool, ABrowserThatMissesFewerChecksThanTheLimitIsKept) {
  PoolOptions o = own_pool(1);
  o.health_interval = Millis(100);
  o.health_timeout = Millis(100);
  o.health_misses = 1000;
  Pool pool(o);
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  ASSERT_TRUE(eventually([&] { return pool.state().browsers.at(0).warm_pages == 1; }));
  const pid_t busy = pool.state().browsers.at(0).pid;
  ASSERT_EQ(::kill(busy, SIGSTOP), 0);
  std::this_thread::sleep_for(Millis(1000));  // several checks missed, far fewer than 1000
  ASSERT_EQ(::kill(busy, SIGCONT), 0);
  Lease lease = pool.lease({}, max_wait());
  EXPECT_EQ(lease.browser_pid(), busy);
  EXPECT_EQ(lease->evaluate("'kept'", max_wait()), "kept");
  EXPECT_EQ(pool.state().restarts, 0);
}

TEST(Pool, RecyclesABrowserAfterNPages) {
  PoolOptions o = own_pool(1);
  o.recycle_after_pages = 2;
  Pool pool(o);
  pid_t first = 0;
  for (int i = 0; i < 2; ++i) {
    Lease lease = pool.lease({}, max_wait());
    if (i == 0) first = lease.browser_pid();
    EXPECT_EQ(lease.browser_pid(), first);
    EXPECT_EQ(lease->evaluate("1", max_wait()), 1);
  }
  Lease third = pool.lease({}, max_wait());
  EXPECT_NE(third.browser_pid(), first);
  EXPECT_EQ(third->evaluate("2", max_wait()), 2);
  EXPECT_GE(pool.state().recycles, 1u);
  EXPECT_TRUE(eventually([&] { return process_group_members(first).empty(); }));
}

TEST(Pool, RecyclesABrowserOverTheMemoryLimit) {
  PoolOptions o = own_pool(1);
  o.memory_limit_mb = 1;  // every browser is over it at its first health check
  o.health_interval = Millis(100);
  Pool pool(o);
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  const pid_t first = pool.state().browsers.at(0).pid;
  EXPECT_TRUE(eventually([&] { return pool.state().recycles >= 1; }));
  EXPECT_TRUE(eventually([&] { return process_group_members(first).empty(); }));
  // Recycling is not a failure: the pool keeps lending.
  Lease lease = pool.lease({}, max_wait());
  EXPECT_EQ(lease->evaluate("'still lending'", max_wait()), "still lending");
  EXPECT_EQ(pool.state().restarts, 0u);
}

// ---- Stopping ---------------------------------------------------------------------------------

std::set<pid_t> chromium_groups(const Pool& pool) {
  std::set<pid_t> groups;
  for (const auto& b : pool.state().browsers) groups.insert(b.pid);
  return groups;
}

bool any_process_left(const std::set<pid_t>& groups) {
  for (pid_t g : groups)
    if (!process_group_members(g).empty()) return true;
  return false;
}

// Our own children that are Chromium processes of `groups` (zombies included: they must be
// reaped).
std::vector<pid_t> children_in(const std::set<pid_t>& groups) {
  std::vector<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "stat");
    std::string text;
    if (!std::getline(in, text)) continue;
    auto close = text.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(text.substr(close + 1));
    char state;
    pid_t ppid, pgid;
    if (!(rest >> state >> ppid >> pgid)) continue;
    if (ppid == ::getpid() && groups.count(pgid))
      found.push_back(std::stoi(entry.path().filename()));
  }
  return found;
}

TEST(Pool, ShutdownStopsLendingFinishesLeasesAndLeavesNoProcess) {
  Pool pool(own_pool(2));
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  Lease out = pool.lease({}, max_wait());
  out->navigate("about:blank", WaitSpec::load(), max_wait());
  const auto groups = chromium_groups(pool);
  ASSERT_EQ(groups.size(), 2u);
  for (pid_t g : groups) EXPECT_GE(process_group_members(g).size(), 2u) << "browser and helpers";

  auto stopping = std::async(std::launch::async, [&] { pool.shutdown(kMaxWait); });
  ASSERT_TRUE(eventually([&] { return pool.state().shutting_down; }));
  try {
    pool.lease({}, max_wait());
    FAIL() << "a lease was granted during shutdown";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unavailable);
  }
  // The lease out may finish its work during the grace period.
  EXPECT_EQ(out->evaluate("'finishing'", max_wait()), "finishing");
  EXPECT_EQ(stopping.wait_for(Millis(0)), std::future_status::timeout);
  out.release();
  ASSERT_EQ(stopping.wait_for(kMaxWait), std::future_status::ready);
  EXPECT_FALSE(any_process_left(groups));
  EXPECT_TRUE(children_in(groups).empty());
}

TEST(Pool, DestroyingThePoolKillsEverythingEvenWithLeasesOut) {
  std::set<pid_t> groups;
  std::optional<Lease> orphan;
  {
    Pool pool(own_pool(2));
    ASSERT_TRUE(pool.wait_ready(max_wait()));
    orphan.emplace(pool.lease({}, max_wait()));
    groups = chromium_groups(pool);
  }
  EXPECT_FALSE(any_process_left(groups));
  EXPECT_TRUE(children_in(groups).empty());
  // The lease outlived its pool: its calls fail cleanly and ending it is safe.
  EXPECT_THROW((*orphan)->evaluate("1", max_wait()), cdp::Error);
  orphan.reset();
}

// Not run by itself (DISABLED_): the service that the next test starts in a child process and
// kills.
TEST(PoolChild, DISABLED_RunsAPoolUntilKilled) {
  Pool pool(own_pool(2));
  ASSERT_TRUE(pool.wait_ready(max_wait()));
  Lease lease = pool.lease({}, max_wait());
  lease->navigate("about:blank", WaitSpec::load(), max_wait());
  for (pid_t g : chromium_groups(pool)) std::cout << "GROUP " << g << std::endl;
  std::cout << "READY" << std::endl;
  std::this_thread::sleep_for(kMaxWait);  // until the parent kills us
}

TEST(Pool, NoChromiumOutlivesAServiceKilledWithSigkill) {
  int out[2];
  ASSERT_EQ(::pipe(out), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string filter = "--gtest_filter=PoolChild.DISABLED_RunsAPoolUntilKilled";
  std::string disabled = "--gtest_also_run_disabled_tests";
  char* argv[] = {self.data(), filter.data(), disabled.data(), nullptr};
  pid_t child = 0;
  ASSERT_EQ(posix_spawn(&child, self.c_str(), &actions, nullptr, argv, environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);

  // Read the child's browser groups until it says it is ready.
  std::set<pid_t> groups;
  std::string pending;
  bool ready = false;
  const Deadline deadline = max_wait();
  while (!ready && SteadyClock::now() < deadline) {
    pollfd p{out[0], POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(time_left(deadline).count())) <= 0) break;
    char buffer[512];
    ssize_t n = ::read(out[0], buffer, sizeof buffer);
    if (n <= 0) break;
    pending.append(buffer, static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1)) {
      std::string line = pending.substr(0, nl);
      if (line.rfind("GROUP ", 0) == 0) groups.insert(std::stoi(line.substr(6)));
      if (line == "READY") ready = true;
    }
  }
  ::close(out[0]);
  ASSERT_TRUE(ready) << "the child pool did not come up";
  ASSERT_EQ(groups.size(), 2u);

  // SIGKILL: no destructor, no shutdown. The kernel's parent-death signal takes the browsers down,
  // and their helpers exit once their browser is gone.
  ASSERT_EQ(::kill(child, SIGKILL), 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  EXPECT_TRUE(eventually([&] { return !any_process_left(groups); }));

  // Their temporary profiles are cleared by the next pool that starts.
  auto profiles_of_child = [&] {
    int count = 0;
    const std::string prefix = "gleaner-chromium-" + std::to_string(child) + "-";
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
      if (entry.path().filename().string().rfind(prefix, 0) == 0) ++count;
    return count;
  };
  EXPECT_EQ(profiles_of_child(), 2);
  // A helper of the dead browser may still be writing into its profile for a moment after the
  // browser itself is gone, so the sweep is retried until nothing of the child is left.
  EXPECT_TRUE(eventually([&] {
    remove_stale_profiles();
    return profiles_of_child() == 0;
  }));
}

}  // namespace
}  // namespace gleaner::browser
