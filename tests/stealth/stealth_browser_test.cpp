// The stealth suite (issue 35, docs/stealth.md): the detector page (tests/stealth/page: BotD
// from npm and the repository's own checks) loaded by every road a page of the service takes, for
// every device profile; each check must pass except the gaps named in known_gaps() (said and
// explained in docs/stealth.md), and the page must see none of the service's own work: no call
// of its reading scripts in the page's world, no Runtime domain, its CSP untouched.
//
// Roads: the page opener itself (extract::PoolTabs, as the site endpoints and the jobs use it)
// with each device, hidden and painted; POST /scrape/web through a whole service and its egress
// gateway, with and without a screenshot, and twice in one session (the second request in the
// session's warm tab); a crawl of two linked pages (the second in the crawl's kept tab), with
// and without a screenshot; a site endpoint (google's search, which takes deviceType) for each
// device, its URL answered by the detector site. POST /scrape/web, its sessions and the crawls
// are desktop only (they take no deviceType).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "extract/page_reader.h"
#include "extract/pool_tabs.h"
#include "extract/sites/google/serp.h"
#include "tests/stealth/stealth_site.h"
#include "tests/support/answer_log.h"
#include "tests/support/chromium.h"
#include "tests/support/local_server.h"
#include "tests/support/service_under_test.h"

namespace gleaner {
namespace {

using extract::BrowserProfile;
using gleaner::testing::max_wait;
using gleaner::testing::StealthSite;
using nlohmann::json;

// Every check of detector.js: one missing from a verdict (it threw before it was put) fails too.
const std::vector<std::string> kChecks = {
    "botd",      "webdriver",        "user_agent",     "brands",         "high_entropy",
    "languages", "headers",          "worker",         "service_worker", "window_metrics",
    "plugins",   "native_functions", "webgl",          "window_chrome",  "notification_permission",
    "hardware",  "csp_untouched",    "runtime_enable", "main_world"};

const char* name_of(BrowserProfile::Device device) {
  switch (device) {
    case BrowserProfile::Device::Mobile: return "mobile";
    case BrowserProfile::Device::Tablet: return "tablet";
    case BrowserProfile::Device::Desktop: break;
  }
  return "desktop";
}

/// The checks a road is known to fail today, each for a reason docs/stealth.md gives. Any other
/// check failing is a regression.
std::set<std::string> known_gaps(bool hidden) {
  std::set<std::string> gaps;
  if (hidden) {
    // A hidden tab has no window: outerWidth and outerHeight are 0 while the page sees itself
    // visible (paint_every_page paints every page instead).
    gaps.insert("window_metrics");
  }
  return gaps;
}

/// Checks `verdict` and the run's touches against the gaps of the road.
void expect_undetected(StealthSite& site, const std::string& run,
                       const std::set<std::string>& gaps) {
  SCOPED_TRACE("run " + run);
  const auto verdict = site.verdict(run, gleaner::testing::kMaxWait);
  ASSERT_TRUE(verdict.has_value()) << "the detector page sent no verdict";
  const json& checks = (*verdict)["checks"];
  EXPECT_EQ((*verdict)["bot"], false) << checks["botd"].dump();
  for (const std::string& name : kChecks) {
    ASSERT_TRUE(checks.contains(name)) << "no check " << name << " in " << verdict->dump();
    if (gaps.count(name)) continue;
    EXPECT_EQ(checks[name]["pass"], true) << name << ": " << checks[name]["value"].dump();
  }
  // What the page reported after its verdict, while the service read it.
  for (const StealthSite::Touch& t : site.touches(run)) {
    if (t.check == "event") continue;
    ADD_FAILURE() << t.check << ": " << t.detail;
  }
}

std::string new_run(const std::string& road) {
  static int counter = 0;
  return "stealth-" + road + "-" + std::to_string(++counter);
}

/// The detector site on a loopback server, for the roads that load a URL of ours.
struct LocalSite {
  LocalSite() {
    site.mount(server.server());
    server.start();
  }
  std::string url(const std::string& run) const { return server.url("/stealth/page?run=" + run); }
  StealthSite site;
  gleaner::testing::LocalServer server;  // declared last: stops before the site goes
};

// ---- the page opener ----

/// Loads the detector page for `run` in a tab of `tabs` set up for `device`, as a site endpoint
/// reads a page (a selector wait, then its script, with the block check, in an isolated world),
/// and returns what `script` gives.
json read_detector(extract::PoolTabs& tabs, const LocalSite& local, BrowserProfile::Device device,
                   bool painted, const std::string& run, const std::string& script) {
  BrowserProfile profile;
  profile.device = device;
  profile.painted = painted;
  auto tab = tabs.open(profile, max_wait());
  const extract::Navigation nav = tab->navigate(
      local.url(run), extract::WaitFor::selector_of("#stealth-verdict"), max_wait());
  EXPECT_EQ(nav.status, 200);
  return extract::read_loaded_page(*tab, nav, script, json::object(), max_wait(),
                                   extract::World::Isolated);
}

TEST(StealthOpener, EveryDeviceHiddenAndPaintedPassesTheDetector) {
  LocalSite local;
  extract::PoolTabs tabs(gleaner::testing::shared_pool());
  for (auto device : {BrowserProfile::Device::Desktop, BrowserProfile::Device::Mobile,
                      BrowserProfile::Device::Tablet}) {
    for (bool painted : {false, true}) {
      const std::string run =
          new_run(std::string(name_of(device)) + (painted ? "-painted" : "-hidden"));
      EXPECT_EQ(read_detector(tabs, local, device, painted, run, "() => document.title"),
                "Stealth detector");
      expect_undetected(local.site, run, known_gaps(!painted));
    }
  }
}

TEST(StealthOpener, APoolThatPaintsEveryPageHasNoHiddenTabsGaps) {
  // paint_every_page: the pages every road asks hidden (the site endpoints, the jobs, POST
  // /scrape/web without a screenshot) are painted in a window, and pass what a painted tab passes.
  LocalSite local;
  browser::PoolOptions options = gleaner::testing::test_pool_options();
  options.processes = 1;
  options.paint_every_page = true;
  browser::Pool pool(options);
  extract::PoolTabs tabs(pool);
  for (auto device : {BrowserProfile::Device::Desktop, BrowserProfile::Device::Mobile,
                      BrowserProfile::Device::Tablet}) {
    const std::string run = new_run(std::string(name_of(device)) + "-paint-every-page");
    EXPECT_EQ(read_detector(tabs, local, device, /*painted=*/false, run,
                            "() => [document.visibilityState, window.outerWidth > 0]"),
              json::array({"visible", true}));
    expect_undetected(local.site, run, known_gaps(/*hidden=*/false));
  }
}

TEST(StealthOpener, TheDocumentRequestCarriesTheDevicesClientHints) {
  LocalSite local;
  extract::PoolTabs tabs(gleaner::testing::shared_pool());
  BrowserProfile profile;
  profile.device = BrowserProfile::Device::Mobile;
  const std::string run = new_run("hints");
  auto tab = tabs.open(profile, max_wait());
  tab->navigate(local.url(run), extract::WaitFor::load(), max_wait());
  const auto headers = local.site.document_headers(run);
  ASSERT_TRUE(headers.count("user-agent"));
  EXPECT_EQ(headers.at("user-agent").find("Headless"), std::string::npos);
  EXPECT_NE(headers.at("user-agent").find("Mobile"), std::string::npos);
  EXPECT_EQ(headers.count("sec-ch-ua-mobile") ? headers.at("sec-ch-ua-mobile") : "", "?1");
  EXPECT_EQ(headers.count("sec-ch-ua-platform") ? headers.at("sec-ch-ua-platform") : "",
            "\"Android\"");
  ASSERT_TRUE(headers.count("sec-ch-ua"));
  EXPECT_NE(headers.at("sec-ch-ua").find("\"Google Chrome\""), std::string::npos);
  EXPECT_EQ(headers.count("accept-language") ? headers.at("accept-language") : "",
            "en-US,en;q=0.9");
}

TEST(StealthOpener, ARequestsAcceptLanguageIsAlsoTheLanguagesThePageSees) {
  LocalSite local;
  extract::PoolTabs tabs(gleaner::testing::shared_pool());
  for (bool painted : {false, true}) {
    BrowserProfile profile;
    profile.painted = painted;
    profile.headers["Accept-Language"] = "de-DE,de;q=0.9,en;q=0.5";
    const std::string run = new_run(painted ? "languages-painted" : "languages-hidden");
    auto tab = tabs.open(profile, max_wait());
    tab->navigate(local.url(run), extract::WaitFor::load(), max_wait());
    EXPECT_EQ(tab->evaluate("navigator.languages", max_wait(), extract::World::Isolated),
              json({"de-DE", "de", "en"}));
    const auto verdict = local.site.verdict(run, gleaner::testing::kMaxWait);
    ASSERT_TRUE(verdict.has_value());
    EXPECT_EQ((*verdict)["checks"]["headers"]["pass"], true) << verdict->dump();
    // A dedicated worker and a service worker list the lease's languages too, not the browser's
    // --accept-lang.
    EXPECT_EQ((*verdict)["checks"]["worker"]["pass"], true)
        << (*verdict)["checks"]["worker"].dump();
    EXPECT_EQ((*verdict)["checks"]["service_worker"]["pass"], true)
        << (*verdict)["checks"]["service_worker"].dump();
  }
}

TEST(StealthOpener, AWorkerStartedByAWorkerListsTheLeasesLanguagesToo) {
  // A page whose dedicated worker starts a worker of its own; the page writes what both say.
  gleaner::testing::LocalServer server;
  server.server().Get("/", [](const httplib::Request&, httplib::Response& r) {
    r.set_content(
        "<!doctype html><title>nested</title><script>"
        "const w = new Worker('/outer.js');"
        "w.onmessage = (e) => { const p = document.createElement('p'); p.id = 'said';"
        "  p.textContent = JSON.stringify(e.data); document.body.append(p); };"
        "w.postMessage(1);</script>",
        "text/html");
  });
  server.server().Get("/outer.js", [](const httplib::Request&, httplib::Response& r) {
    r.set_content(
        "onmessage = () => { const n = new Worker('/nested.js');"
        "  n.onmessage = (e) => postMessage({outer: navigator.languages, nested: e.data});"
        "  n.postMessage(1); };",
        "text/javascript");
  });
  server.server().Get("/nested.js", [](const httplib::Request&, httplib::Response& r) {
    r.set_content("onmessage = () => postMessage(navigator.languages);", "text/javascript");
  });
  server.start();
  extract::PoolTabs tabs(gleaner::testing::shared_pool());
  for (bool painted : {false, true}) {
    SCOPED_TRACE(painted ? "painted" : "hidden");
    BrowserProfile profile;
    profile.painted = painted;
    profile.headers["Accept-Language"] = "de-DE,de;q=0.9";
    auto tab = tabs.open(profile, max_wait());
    tab->navigate(server.url("/"), extract::WaitFor::load(), max_wait());
    // The workers answer after the load: wait for what the page wrote.
    const json said = json::parse(
        tab->evaluate("new Promise((done) => { const look = () => {"
                      "  const p = document.getElementById('said');"
                      "  p ? done(p.textContent) : setTimeout(look, 20); }; look(); })",
                      max_wait(), extract::World::Isolated)
            .get<std::string>());
    EXPECT_EQ(said, json({{"outer", {"de-DE", "de"}}, {"nested", {"de-DE", "de"}}}));
  }
}

// ---- POST /scrape/web ----

struct Service {
  /// `entries` are set over the suite's configuration.
  explicit Service(const json& entries = json::object()) {
    Config config = gleaner::testing::service_config(dir.path(), /*replay_dir=*/"");
    config.set("data_dir", dir.path());
    config.set("allow_private_addresses", true);
    config.set("screenshot_secret", "stealth-tests-screenshot-secret-0123456789");
    for (const auto& [name, value] : entries.items()) config.set(name, value);
    service = std::make_unique<gleaner::testing::ServiceUnderTest>(config);
  }
  gleaner::testing::TempDir dir;
  std::unique_ptr<gleaner::testing::ServiceUnderTest> service;
};

TEST(StealthWeb, ScrapeWebWithAndWithoutAScreenshotPassesTheDetector) {
  LocalSite local;
  Service s;
  const auto account = s.service->create_account(100);
  for (bool screenshot : {false, true}) {
    const std::string run = new_run(screenshot ? "web-screenshot" : "web");
    json body = {{"url", local.url(run)}, {"outputFormat", {"html"}}};
    if (screenshot) body["screenshot"] = true;
    httplib::Headers headers = {{"x-api-key", account.key}};
    auto answer =
        s.service->client()->Post("/scrape/web", headers, body.dump(), "application/json");
    ASSERT_TRUE(answer);
    ASSERT_EQ(answer->status, 200) << answer->body;
    // The verdict is in the page's DOM too, so a caller reads it in the answer's HTML.
    const json out = json::parse(answer->body);
    EXPECT_NE(out.value("content", std::string()).find("\"bot\":false"), std::string::npos)
        << out.value("content", std::string()).substr(0, 2000);
    expect_undetected(local.site, run, known_gaps(!screenshot));
  }
}

TEST(StealthWeb, ASessionsRequestsPassTheDetectorUnpaintedAndPainted) {
  LocalSite local;
  for (bool paint_always : {false, true}) {
    SCOPED_TRACE(paint_always ? "sessions_paint_always" : "painted on demand");
    Service s(json{{"sessions_paint_always", paint_always}});
    const auto account = s.service->create_account(100);
    const httplib::Headers headers = {{"x-api-key", account.key}};
    for (const char* turn : {"first", "warm", "screenshot", "read-again"}) {
      const std::string run = new_run(std::string("session-") + turn);
      const bool screenshot = std::string(turn) == "screenshot";
      json body = {{"url", local.url(run)}, {"outputFormat", {"html"}}, {"sessionId", "stealth"}};
      if (screenshot) body["screenshot"] = true;
      auto answer =
          s.service->client()->Post("/scrape/web", headers, body.dump(), "application/json");
      ASSERT_TRUE(answer);
      ASSERT_EQ(answer->status, 200) << answer->body;
      const std::string content = json::parse(answer->body).value("content", std::string());
      EXPECT_NE(content.find("\"bot\":false"), std::string::npos) << content.substr(0, 2000);
      // A session's tab is painted only for the requests that need it (docs/sessions.md): the
      // others read it unpainted, with the hidden tabs' gaps; sessions_paint_always paints all.
      expect_undetected(local.site, run,
                        known_gaps(/*hidden=*/!screenshot && !paint_always));
    }
    // Every request ran in the one session, each in the tab the one before left.
    const json sessions =
        gleaner::testing::json_of(s.service->get("/scrape/sessions", account.key));
    ASSERT_EQ(sessions["sessions"].size(), 1u) << sessions.dump();
    EXPECT_EQ(sessions["sessions"][0]["id"], "stealth");
    EXPECT_EQ(sessions["sessions"][0]["requests"], 4) << sessions.dump();
  }
}

TEST(StealthWeb, ScenarioClicksAndTypingAreTrustedInput) {
  LocalSite local;
  Service s;
  const auto account = s.service->create_account(100);
  const std::string run = new_run("web-scenario");
  const json body = {{"url", local.url(run)},
                     {"outputFormat", {"html"}},
                     {"jsScenarioStrict", true},
                     {"jsScenario",
                      {{{"click", "#probe-button"}},
                       {{"fill", {"#probe-input", "typed by hand"}}},
                       {{"press", "x"}},
                       {{"evaluate", "document.getElementById('probe-input').value"}}}}};
  httplib::Headers headers = {{"x-api-key", account.key}};
  auto answer = s.service->client()->Post("/scrape/web", headers, body.dump(), "application/json");
  ASSERT_TRUE(answer);
  ASSERT_EQ(answer->status, 200) << answer->body;
  // fill typed over the field's content and the key press added to it, as a keyboard does.
  EXPECT_EQ(json::parse(answer->body)["evaluateResults"], json({"typed by handx"}));
  std::vector<std::string> events;
  for (const StealthSite::Touch& t : local.site.touches(run)) {
    if (t.check == "event") events.push_back(t.detail);
  }
  const json seen(events);
  // The click (its pointer moved onto the page first), the typing's input and the key's.
  EXPECT_NE(
      std::find(events.begin(), events.end(), "click on probe-button trusted=true moved=true"),
      events.end())
      << seen.dump();
  EXPECT_NE(std::find(events.begin(), events.end(), "input on probe-input trusted=true"),
            events.end())
      << seen.dump();
  EXPECT_NE(std::find(events.begin(), events.end(), "keydown on probe-input trusted=true"),
            events.end())
      << seen.dump();
  for (const std::string& e : events) EXPECT_NE(e.find("trusted=true"), std::string::npos) << e;
  // No DevTools side effect while the scenario ran.
  for (const StealthSite::Touch& t : local.site.touches(run)) {
    if (t.check == "runtime_enable") ADD_FAILURE() << t.detail;
  }
}

// ---- a crawl ----

TEST(StealthJobs, ACrawlsPagesWithAndWithoutAScreenshotPassTheDetector) {
  LocalSite local;
  // One page-job thread: the crawl's second page loads in the tab its first page left.
  Service s({{"jobs_poll_ms", 50}, {"page_jobs_concurrency", 1}});
  const auto account = s.service->create_account(1000);
  const httplib::Headers headers = {{"x-api-key", account.key}};
  for (bool screenshot : {false, true}) {
    const std::string road = screenshot ? "crawl-screenshot" : "crawl";
    const std::string first = new_run(road);
    const std::string second = new_run(road + "-linked");
    // The start page links to the second; robots.txt and sitemaps are no pages of the detector.
    json body = {{"urls", {local.url(first) + "&next=" + second}},
                 {"outputFormat", {"html"}},
                 {"sitemap", "skip"},
                 {"ignoreRobotsTxt", true}};
    if (screenshot) body["screenshot"] = true;
    auto created = s.service->client()->Post("/scrapers/crawler/jobs", headers, body.dump(),
                                             "application/json");
    ASSERT_TRUE(created);
    ASSERT_EQ(created->status, 201) << created->body;
    const std::string id = json::parse(created->body).value("id", "");
    json job;
    EXPECT_TRUE(gleaner::testing::ServiceUnderTest::eventually(
        [&] {
          job = gleaner::testing::json_of(s.service->get("/scrapers/jobs/" + id, account.key));
          const std::string status = job.value("status", "");
          return status == "finished" || status == "stopped" || status == "failed";
        },
        gleaner::testing::kMaxWait * 4))
        << job.dump();
    ASSERT_EQ(job["status"], "finished") << job.dump();
    // The verdict of each page is in its row's HTML.
    const json rows = gleaner::testing::json_of(
        s.service->get("/scrapers/jobs/" + id + "/results?limit=10", account.key))["data"];
    ASSERT_EQ(rows.size(), 2u) << rows.dump().substr(0, 2000);
    for (const std::string& run : {first, second}) {
      const auto row = std::find_if(rows.begin(), rows.end(), [&](const json& r) {
        return r.value("content", std::string()).find("\"run\":\"" + run + "\"") !=
               std::string::npos;
      });
      ASSERT_NE(row, rows.end()) << "no row of " << run << " in " << rows.dump().substr(0, 2000);
      EXPECT_NE((*row)["content"].get<std::string>().find("\"bot\":false"), std::string::npos)
          << (*row)["content"].get<std::string>().substr(0, 2000);
      expect_undetected(local.site, run,
                        known_gaps(/*hidden=*/!screenshot));
    }
  }
}

// ---- a site endpoint ----

TEST(StealthSites, GoogleSearchOfEveryDevicePassesTheDetector) {
  StealthSite site;
  for (const char* device : {"desktop", "mobile", "tablet"}) {
    const std::string run = new_run(std::string("serp-") + device);
    extract::PoolTabs tabs(gleaner::testing::shared_pool(),
                           {site.interceptor("https://www.google.com")});
    try {
      // The detector is no results page: the endpoint's answer is an error, the page was loaded.
      gleaner::testing::fetch_recorded(extract::google::serp_endpoint(), tabs,
                                       {{"q", run}, {"deviceType", device}});
    } catch (const Error&) {
    }
    std::set<std::string> gaps = known_gaps(/*hidden=*/true);
    // This road answers the site by the page's request interception, which a service worker's
    // script fetch does not pass through (in service it goes through the context's proxy, the
    // egress gateway, as every request): the worker cannot be registered here.
    gaps.insert("service_worker");
    expect_undetected(site, run, gaps);
  }
}

}  // namespace
}  // namespace gleaner
