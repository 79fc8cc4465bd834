// The console in a real Chromium (the test pool's, tests/support/chromium.h) over DevTools,
// against a whole service on port 0 whose own Chromium reads a small site from a replay archive.
// One test walks the screens in the order a newcomer would: types the key, sends POST /scrape/web
// for a page of the site and sees its markdown rendered and its screenshot, starts a crawl and
// watches it to the end, sees the usage chart's points and the node's health. Throughout, every
// console message of level error or warning, every uncaught exception, every log entry of level
// error and every securitypolicyviolation event is collected: there must be none.
//
// GLEANER_CONSOLE_SHOTS=<dir>: also saves each screen as a PNG there (docs/console.md's
// pictures come from this run).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "browser/page.h"
#include "store/store.h"
#include "tests/support/chromium.h"
#include "tests/support/replay_archive.h"
#include "tests/support/service_under_test.h"

namespace gleaner::testing {
namespace {

using nlohmann::json;

constexpr const char* kSite = "http://site.test";

std::string site_page(const std::string& title, const std::vector<std::string>& links) {
  std::string html = "<!doctype html><html><head><title>" + title + "</title></head><body><h1>" +
                     title + "</h1><p>A page of the console's test site.</p>";
  for (const std::string& link : links) html += "<p><a href=\"" + link + "\">" + link + "</a></p>";
  return html + "</body></html>";
}

/// The article /scrape/web reads: headings, a list, a table, code, a link, and markup that must
/// stay text once the console renders its markdown.
constexpr const char* kArticle = R"html(<!doctype html><html><head><title>Console article</title>
</head><body><h1>Main title</h1>
<p>Intro paragraph with <strong>bold words</strong> and a <a href="http://site.test/a">link to a</a>.</p>
<h2>Steps</h2><ol><li>first step</li><li>second step</li></ol>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table>
<pre><code>&lt;script&gt;window.injected = 1&lt;/script&gt;</code></pre>
<p>&lt;img src=x onerror="window.injected = 2"&gt; stays text.</p>
</body></html>)html";

std::string base64_decode(const std::string& in) {
  static const std::string chars =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int value = 0;
  int bits = -8;
  for (char c : in) {
    const auto at = chars.find(c);
    if (at == std::string::npos) continue;  // padding, newlines
    value = (value << 6) + static_cast<int>(at);
    bits += 6;
    if (bits >= 0) {
      out.push_back(static_cast<char>((value >> bits) & 0xFF));
      bits -= 8;
    }
  }
  return out;
}

class ConsoleBrowser : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    archive_ = new TempReplayArchive();
    const std::string s = kSite;
    archive_->page(s + "/", site_page("Home", {"/a", "/b"}));
    archive_->page(s + "/a", site_page("Page A", {"/a/1", "/"}));
    archive_->page(s + "/b", site_page("Page B", {}));
    archive_->page(s + "/a/1", site_page("Page A1", {}));
    archive_->page(s + "/article", kArticle);
    archive_->load();
    dir_ = new TempDir();
    Config config = service_config(dir_->path(), archive_->dir());
    config.set("jobs_poll_ms", 50);
    config.set("page_jobs_concurrency", 1);
    config.set("screenshot_secret", "console-tests-screenshot-secret-0123456789");
    svc_ = new ServiceUnderTest(config);
  }
  static void TearDownTestSuite() {
    delete svc_;
    delete dir_;
    delete archive_;
  }

  void SetUp() override {
    account_ = svc_->create_account(100000);
    lease_.emplace(shared_pool().lease(browser::ContextOptions{}, max_wait()));
    browser::Page& page = lease_->page();
    page.set_viewport({1280, 900, 1.0, false}, max_wait());
    cdp::Session& session = page.session();
    auto note = [this](std::string line) {
      std::lock_guard lock(mutex_);
      problems_.push_back(std::move(line));
    };
    session.on("Runtime.consoleAPICalled", [note](const json& p) {
      const std::string type = p.value("type", "");
      if (type != "error" && type != "warning" && type != "assert") return;
      std::string text;
      for (const json& arg : p.value("args", json::array())) {
        text += arg.value("value", json()).dump() + arg.value("description", "") + " ";
      }
      note("console." + type + ": " + text);
    });
    session.on("Runtime.exceptionThrown",
               [note](const json& p) { note("exception: " + p["exceptionDetails"].dump()); });
    session.on("Log.entryAdded", [note](const json& p) {
      const json& entry = p["entry"];
      // An answer with an error status is logged by Chromium as a failed load; the console
      // shows those answers itself (the test sends one on purpose).
      if (entry.value("source", "") == "network" &&
          entry.value("text", "").rfind("Failed to load resource: the server responded", 0) == 0) {
        return;
      }
      if (entry.value("level", "") == "error" || entry.value("source", "") == "security") {
        note("log: " + entry.value("source", "") + ": " + entry.value("text", "") + " " +
             entry.value("url", ""));
      }
    });
    session.call("Runtime.enable", json::object(), max_wait());
    session.call("Log.enable", json::object(), max_wait());
    // Before any script of the page: every violation of its Content-Security-Policy is kept.
    session.call("Page.addScriptToEvaluateOnNewDocument",
                 {{"source",
                   "window.__violations = [];"
                   "document.addEventListener('securitypolicyviolation', (e) => "
                   "window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"}},
                 max_wait());
  }

  void TearDown() override {
    EXPECT_EQ(page().evaluate("window.__violations.length", max_wait()), 0)
        << page().evaluate("window.__violations", max_wait()).dump();
    std::lock_guard lock(mutex_);
    EXPECT_TRUE(problems_.empty()) << json(problems_).dump(2);
    lease_.reset();
  }

  browser::Page& page() { return lease_->page(); }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(svc_->port()); }

  json eval(const std::string& expression) { return page().evaluate(expression, max_wait()); }

  /// Waits in the page until `condition` (a JavaScript expression) is true, for up to `budget`.
  bool wait_for(const std::string& condition, Millis budget = kMaxWait) {
    const std::string script =
        "new Promise((resolve) => { const end = Date.now() + " + std::to_string(budget.count()) +
        "; const check = () => { let ok = false; try { ok = !!(" + condition +
        "); } catch (e) {} if (ok) resolve(true); else if (Date.now() > end) resolve(false); "
        "else setTimeout(check, 50); }; check(); })";
    return page().evaluate(script, deadline_in(budget + Millis(5000))) == true;
  }

  /// Clicks the element `selector` names (it must exist).
  void click(const std::string& selector) {
    ASSERT_EQ(eval("(() => { const e = document.querySelector(" + json(selector).dump() +
                   "); if (!e) return false; e.click(); return true; })()"),
              true)
        << selector;
  }

  /// Focuses `selector` and types `text` into it as a keyboard would (Input.insertText).
  void type(const std::string& selector, const std::string& text) {
    ASSERT_EQ(eval("(() => { const e = document.querySelector(" + json(selector).dump() +
                   "); if (!e) return false; for (let p = e.parentElement; p; p = p.parentElement) "
                   "if (p.tagName === 'DETAILS') p.open = true; e.focus(); e.select && e.select(); "
                   "return document.activeElement === e; })()"),
              true)
        << selector;
    page().session().call("Input.insertText", {{"text", text}}, max_wait());
  }

  /// Saves the screen as `<GLEANER_CONSOLE_SHOTS>/<name>.png` when that is set.
  void shot(const std::string& name) {
    const char* dir = std::getenv("GLEANER_CONSOLE_SHOTS");
    if (!dir || !*dir) return;
    eval("window.scrollTo(0, 0)");
    // The whole screen down to 1,600 px, beyond the window's height.
    const json metrics =
        page().session().call("Page.getLayoutMetrics", json::object(), max_wait());
    const double height = std::min(1600.0, metrics["cssContentSize"].value("height", 900.0));
    const json r = page().session().call(
        "Page.captureScreenshot",
        {{"format", "png"},
         {"captureBeyondViewport", true},
         {"clip", {{"x", 0}, {"y", 0}, {"width", 1280}, {"height", height}, {"scale", 1}}}},
        max_wait());
    std::ofstream(std::string(dir) + "/" + name + ".png", std::ios::binary)
        << base64_decode(r.value("data", ""));
  }

  static TempReplayArchive* archive_;
  static TempDir* dir_;
  static ServiceUnderTest* svc_;
  ServiceUnderTest::NewAccount account_;
  std::optional<browser::Lease> lease_;
  std::mutex mutex_;  // guards problems_
  std::vector<std::string> problems_;
};

TempReplayArchive* ConsoleBrowser::archive_ = nullptr;
TempDir* ConsoleBrowser::dir_ = nullptr;
ServiceUnderTest* ConsoleBrowser::svc_ = nullptr;

TEST_F(ConsoleBrowser, ANewcomerScrapesAPageWatchesACrawlAndSeesUsageAndHealth) {
  page().navigate(origin() + "/console", browser::WaitSpec::load(), max_wait());
  ASSERT_TRUE(wait_for("document.body.dataset.ready === 'yes'"));

  // The key, typed once: kept for this tab only, never in a cookie or the address.
  type("#key-input", account_.key);
  click("#key-save");
  ASSERT_TRUE(wait_for("document.body.dataset.key === 'valid'"));
  EXPECT_EQ(eval("sessionStorage.getItem('gleaner.apiKey')"), account_.key);
  EXPECT_EQ(eval("document.cookie"), "");
  EXPECT_EQ(eval("location.href").get<std::string>().find(account_.key), std::string::npos);
  EXPECT_EQ(eval("document.querySelector('#key-input').value"), "");

  // Every operation of the OpenAPI document is offered (but the console's own files).
  const json doc = json_of(svc_->get("/openapi.json", ""));
  std::size_t operations = 0;
  for (const auto& [path, methods] : doc["paths"].items()) {
    if (path.rfind("/console", 0) == 0) continue;
    for (const auto& [method, op] : methods.items()) operations += method != "parameters";
  }
  EXPECT_EQ(eval("document.querySelectorAll('#op-list a[data-op]').length"), operations);

  // POST /scrape/web for the article, with the form's example (markdown, a screenshot, links).
  click("a[data-op='POST /scrape/web']");
  ASSERT_TRUE(wait_for("document.querySelector('#op-form input[name=url]')"));
  type("#op-form input[name=url]", std::string(kSite) + "/article");
  EXPECT_TRUE(wait_for("document.querySelector('#snippet-code').textContent.includes(" +
                       json(std::string(kSite) + "/article").dump() + ")"));
  EXPECT_EQ(
      eval("document.querySelector('#snippet-code').textContent.includes('$GLEANER_API_KEY')"),
      true);
  EXPECT_EQ(eval("document.querySelector('#snippet-code').textContent.includes(" +
                 json(account_.key).dump() + ")"),
            false)
      << "the key is never written into the lines to copy";
  const std::int64_t balance_before = json_of(svc_->get("/account", account_.key))["balance"];
  click("#op-send");
  ASSERT_TRUE(wait_for("document.querySelector('#answer-markdown h1')", Millis(120000)))
      << eval("document.querySelector('#answer').textContent");
  EXPECT_EQ(eval("document.querySelector('#answer-markdown h1').textContent"), "Main title");
  EXPECT_EQ(eval("document.querySelector('#answer-markdown strong').textContent"), "bold words");
  EXPECT_EQ(eval("document.querySelectorAll('#answer-markdown ol li').length"), 2);
  EXPECT_EQ(eval("document.querySelector('#answer-markdown a').getAttribute('href')"),
            std::string(kSite) + "/a");
  EXPECT_EQ(eval("document.querySelectorAll('#answer-markdown td').length"), 2);
  // The page's markup stayed text: nothing of it became an element, nothing of it ran.
  EXPECT_EQ(
      eval("document.querySelectorAll('#answer-markdown script, #answer-markdown img').length"), 0);
  EXPECT_EQ(eval("document.querySelector('#answer-markdown').textContent.includes('<script>')"),
            true);
  EXPECT_EQ(eval("window.injected === undefined"), true);
  // The screenshot, loaded as an image from this origin.
  ASSERT_TRUE(
      wait_for("(() => { const i = document.querySelector('#answer-screenshot'); "
               "return i && i.complete && i.naturalWidth > 0; })()"))
      << eval("document.querySelector('#answer').textContent");
  EXPECT_EQ(eval("document.querySelectorAll('ol.links li').length"), 1);
  // The credits the answer says were charged are those the account lost.
  const std::int64_t balance_after = json_of(svc_->get("/account", account_.key))["balance"];
  ASSERT_LT(balance_after, balance_before);
  EXPECT_EQ(eval("document.querySelector('#answer-credits').textContent"),
            "credits charged: " + std::to_string(balance_before - balance_after));
  shot("playground");

  // An error answer shows its code and message.
  type("#op-form input[name=timeout]", "5");  // below the schema's minimum
  click("#op-send");
  ASSERT_TRUE(wait_for("document.querySelector('#answer .error-box')"));
  EXPECT_EQ(eval("document.querySelector('#answer .e-code strong').textContent"),
            "invalid_parameter");
  EXPECT_EQ(eval("document.querySelector('#answer .e-more').textContent"), "parameter: timeout");
  EXPECT_EQ(eval("document.querySelector('#answer-credits').textContent"),
            "nothing charged (failed)");

  // A crawl of the site, started from the form and watched from the Jobs screen to its end.
  click("a[data-op='POST /scrapers/crawler/jobs']");
  ASSERT_TRUE(wait_for("document.querySelector('#op-form textarea[name=urls]')"));
  type("#op-form textarea[name=urls]", std::string(kSite) + "/");
  click("#op-send");
  ASSERT_TRUE(wait_for("document.querySelector('#answer-watch-job')", Millis(60000)))
      << eval("document.querySelector('#answer').textContent");
  click("#answer-watch-job");
  ASSERT_TRUE(wait_for("location.hash === '#jobs' && document.querySelector('#job-rows')"));
  ASSERT_TRUE(
      wait_for("document.querySelector('#job-detail [data-status=finished]')", Millis(300000)))
      << eval("document.querySelector('#jobs').textContent");
  const json jobs = json_of(svc_->get("/scrapers/jobs", account_.key));
  ASSERT_EQ(jobs["jobs"].size(), 1u) << jobs.dump();
  const json job = jobs["jobs"][0];
  EXPECT_EQ(job["status"], "finished");
  EXPECT_EQ(job["dataRowsCount"], 4) << "the site's four pages";
  // Every page of the crawl is listed, the counts are the job's.
  ASSERT_TRUE(wait_for("document.querySelectorAll('#job-rows > li').length === " +
                       job["dataRowsCount"].dump()));
  EXPECT_EQ(eval("document.querySelector('#job-detail [data-card=rows]').textContent"),
            job["dataRowsCount"].dump());
  EXPECT_EQ(eval("document.querySelector('#job-detail [data-card=credits]').textContent"),
            job["creditsSpent"].dump());
  EXPECT_EQ(eval("document.querySelector('#job-detail [data-card=errors]').textContent"), "0");
  EXPECT_EQ(eval("document.querySelector('#jobs-table tr[data-job=\"" +
                 job["id"].get<std::string>() + "\"] [data-status]').dataset.status"),
            "finished");
  shot("jobs");

  // Usage: the chart's points are the account's endpoints, their requests and credits.
  eval("location.hash = '#usage'");
  ASSERT_TRUE(wait_for("document.querySelector('#usage-chart canvas')"));
  const json account = json_of(svc_->get("/account", account_.key));
  json endpoints = account["usage"]["endpoints"];
  ASSERT_GE(endpoints.size(), 1u);
  std::sort(endpoints.begin(), endpoints.end(), [](const json& x, const json& y) {
    return x["credits"] != y["credits"] ? x["credits"] > y["credits"]
                                        : x["requests"] > y["requests"];
  });
  std::string requests;
  std::string credits;
  for (const json& e : endpoints) {
    requests += (requests.empty() ? "" : ",") + e["requests"].dump();
    credits += (credits.empty() ? "" : ",") + e["credits"].dump();
  }
  EXPECT_EQ(eval("document.querySelector('#usage-chart').dataset.points"),
            std::to_string(endpoints.size()));
  EXPECT_EQ(eval("document.querySelector('#usage-chart').dataset.requests"), requests);
  EXPECT_EQ(eval("document.querySelector('#usage-chart').dataset.credits"), credits);
  EXPECT_EQ(eval("document.querySelector('#usage-balance').textContent"),
            eval("(" + account["balance"].dump() + ").toLocaleString('en') + ' credits'"));
  // The account's errors, from the service's count: the 400 this test asked for among them.
  const json errors = account["usage"]["errors"];
  ASSERT_FALSE(errors.empty()) << account.dump();
  EXPECT_EQ(eval("document.querySelectorAll('#errors-table tbody tr').length"),
            json(errors.size()));
  EXPECT_EQ(eval("[...document.querySelectorAll('#errors-table tbody tr')].some((tr) => "
                 "tr.textContent === 'invalid_parameter1/scrape/web')"),
            json(true))
      << eval("document.querySelector('#errors-table').textContent");
  shot("usage");

  // Node health, from /health.
  eval("location.hash = '#health'");
  ASSERT_TRUE(wait_for("document.querySelector('#health-badge')"));
  const json health = json_of(svc_->get("/health", ""));
  EXPECT_EQ(eval("document.querySelector('#health-badge').textContent"), health["status"]);
  EXPECT_EQ(eval("document.querySelector('#health [data-card=browsers]').textContent"),
            health["pool"]["processes"].dump());
  // The node's error answers from /metrics: the 400 this test asked for is among them.
  const std::string series =
      "gleaner_http_requests_total{route=\"/scrape/web\",method=\"POST\",status=\"400\"}";
  ASSERT_GE(svc_->metric(series), 1);
  ASSERT_TRUE(wait_for("[...document.querySelectorAll('#health-errors tbody tr')].some((tr) => "
                       "tr.textContent === 'POST /scrape/web400" +
                       std::to_string(static_cast<long long>(svc_->metric(series))) + "')"))
      << eval("document.querySelector('#health-errors').textContent");
  shot("health");

  // Back to the finished crawl: its rows are deleted (after the confirmation), which frees the
  // account's stored bytes; the job stays, its counts with it.
  eval("location.hash = '#jobs'");
  const std::string row = "#jobs-table tr[data-job=\"" + job["id"].get<std::string>() + "\"]";
  ASSERT_TRUE(wait_for("[...document.querySelectorAll('" + row +
                       " button')].some((b) => b.textContent === 'Delete rows')"));
  eval("window.confirm = () => true");
  eval("[...document.querySelectorAll('" + row +
       " button')].find((b) => b.textContent === 'Delete rows').click()");
  ASSERT_TRUE(wait_for("/rows deleted/.test(document.querySelector('" + row + "').textContent)"))
      << eval("document.querySelector('#jobs').textContent");
  const json deleted = json_of(svc_->get("/scrapers/jobs/" + job["id"].get<std::string>(),
                                         account_.key));
  EXPECT_TRUE(deleted.contains("resultsDeletedAt")) << deleted.dump();
  EXPECT_EQ(deleted["dataRowsCount"], job["dataRowsCount"]);
  EXPECT_EQ(json_of(svc_->get("/scrapers/jobs/" + job["id"].get<std::string>() + "/results",
                              account_.key))["total"],
            0);
}

}  // namespace
}  // namespace gleaner::testing
