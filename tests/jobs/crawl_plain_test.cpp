// A crawl of a live site on loopback through the egress gateway (no replay archive): robots.txt
// and sitemaps are read by the plain road's HTTP client, so the site's own answer counts — a 404
// robots.txt with an empty body allows everything and the origin's sitemap is still read
// (issue 34, finding 7) —, a robots.txt is read up to 500 KiB and no further, and each read is
// counted in the job's progress.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <set>

#include "tests/support/answer_log.h"
#include "tests/support/local_server.h"
#include "tests/support/replay_archive.h"
#include "tests/support/service_under_test.h"
#include "tests/support/trickling_site.h"

namespace gleaner::testing {
namespace {

using nlohmann::json;

std::string page_html(const std::vector<std::string>& links) {
  std::string html = "<!doctype html><html><head><title>page</title></head><body>";
  for (const std::string& link : links) html += "<p><a href=\"" + link + "\">" + link + "</a></p>";
  return html + "</body></html>";
}

/// A site on loopback: /robots.txt answers `robots` (a 404 with no body when empty), and
/// /sitemap.xml a gzip urlset naming /from-sitemap.
class Site {
 public:
  explicit Site(std::string robots) : robots_(std::move(robots)) {
    auto& s = server_.server();
    s.Get("/robots.txt", [this](const httplib::Request&, httplib::Response& r) {
      if (robots_.empty()) {
        r.status = 404;  // and no body: the finding's case
        return;
      }
      r.set_content(robots_, "text/plain");
    });
    s.Get("/sitemap.xml", [this](const httplib::Request&, httplib::Response& r) {
      r.set_content(gzip("<?xml version=\"1.0\"?><urlset><url><loc>" +
                         server_.url("/from-sitemap") + "</loc></url></urlset>"),
                    "application/octet-stream");
    });
    // A page that does not answer until the site goes (the test's end).
    s.Get("/hang", [this](const httplib::Request&, httplib::Response& r) {
      std::unique_lock lock(mutex_);
      ++hanging_;
      released_cv_.wait_for(lock, std::chrono::minutes(10), [&] { return released_; });
      --hanging_;
      r.set_content("late", "text/plain");
    });
    for (const std::string path : {"/", "/a", "/b", "/from-sitemap"}) {
      s.Get(path, [path](const httplib::Request&, httplib::Response& r) {
        r.set_content(page_html(path == "/" ? std::vector<std::string>{"/a", "/b"}
                                            : std::vector<std::string>{}),
                      "text/html");
      });
    }
    server_.start();
  }
  ~Site() {
    {
      std::lock_guard lock(mutex_);
      released_ = true;
    }
    released_cv_.notify_all();
  }
  std::string url(const std::string& path) const { return server_.url(path); }
  /// Requests of /hang waiting for their answer.
  int hanging() {
    std::lock_guard lock(mutex_);
    return hanging_;
  }

 private:
  std::string robots_;
  std::mutex mutex_;  // guards hanging_, released_
  std::condition_variable released_cv_;
  int hanging_ = 0;
  bool released_ = false;
  // Declared last: its handlers use the members above.
  LocalServer server_;
};

class CrawlPlainRoad : public ::testing::Test {
 protected:
  CrawlPlainRoad() {
    Config config = service_config(dir_.path(), "");
    config.set("allow_private_addresses", true);
    config.set("jobs_poll_ms", 50);
    // One page-job thread: a page that holds it holds every page job.
    config.set("page_jobs_concurrency", 1);
    svc_ = std::make_unique<ServiceUnderTest>(config);
    account_ = svc_->create_account(100000);
  }

  /// Creates a job at `path` with `body` (201 expected); its id.
  std::string create(const std::string& path, const json& body) {
    auto r =
        svc_->client()->Post(path, {{"x-api-key", account_.key}}, body.dump(), "application/json");
    EXPECT_TRUE(r && r->status == 201) << (r ? r->body : "no answer");
    return json_of(r).value("id", "");
  }
  json job(const std::string& id) {
    return json_of(svc_->get("/scrapers/jobs/" + id, account_.key));
  }
  json wait_end(const std::string& id) {
    json j;
    EXPECT_TRUE(ServiceUnderTest::eventually([&] {
      j = job(id);
      const std::string s = j.value("status", "");
      return s == "finished" || s == "stopped" || s == "failed";
    }));
    return j;
  }
  /// Crawls `site` from its home page on the plain road; the job once it ended.
  json crawl(const Site& site) {
    return wait_end(
        create("/scrapers/crawler/jobs", {{"urls", {site.url("/")}}, {"jsRendering", false}}));
  }
  std::set<std::string> row_urls(const json& job) {
    std::set<std::string> urls;
    const json data = json_of(
        svc_->get("/scrapers/jobs/" + job.value("id", "") + "/results", account_.key))["data"];
    for (const json& row : data) {
      EXPECT_FALSE(row.contains("error")) << row.dump();
      urls.insert(row.value("url", ""));
    }
    return urls;
  }

  TempDir dir_;
  std::unique_ptr<ServiceUnderTest> svc_;
  ServiceUnderTest::NewAccount account_;
};

TEST_F(CrawlPlainRoad, A404RobotsTxtAllowsEverythingAndTheSitemapIsStillRead) {
  Site site("");
  const json job = crawl(site);
  EXPECT_EQ(job["status"], "finished") << job.dump();
  EXPECT_EQ(row_urls(job), (std::set<std::string>{site.url("/"), site.url("/a"), site.url("/b"),
                                                  site.url("/from-sitemap")}));
  // One robots.txt and one sitemap read, counted in the job.
  EXPECT_EQ(job["progress"]["robotsTxtFetched"], 1) << job.dump();
  EXPECT_EQ(job["progress"]["sitemapsFetched"], 1) << job.dump();
}

TEST_F(CrawlPlainRoad, ARobotsTxtIsReadUpTo500KiBAndNoFurther) {
  // /a is disallowed within the first 500 KiB; /b only after them, where nothing is read.
  std::string robots = "User-agent: *\nDisallow: /a\n";
  while (robots.size() < 600 * 1024) robots += "# padding padding padding padding padding\n";
  robots += "Disallow: /b\n";
  Site site(robots);
  const json job = crawl(site);
  EXPECT_EQ(job["status"], "finished") << job.dump();
  EXPECT_EQ(row_urls(job),
            (std::set<std::string>{site.url("/"), site.url("/b"), site.url("/from-sitemap")}));
}

}  // namespace
}  // namespace gleaner::testing

namespace gleaner::testing {
namespace {

TEST_F(CrawlPlainRoad, DeleteLeavesAPageInFlightAndFreesItsThread) {
  Site site("");
  // The page holds the service's one page-job thread far longer than the test's waits.
  const std::string held =
      create("/scrape/batch/web",
             {{"urls", {site.url("/hang")}}, {"jsRendering", false}, {"timeout", 300000}});
  ASSERT_TRUE(ServiceUnderTest::eventually([&] { return site.hanging() == 1; }));
  auto r = svc_->client()->Delete("/scrapers/jobs/" + held, {{"x-api-key", account_.key}});
  ASSERT_TRUE(r && r->status == 200) << (r ? r->body : "no answer");
  const json stopped = wait_end(held);
  EXPECT_EQ(stopped["status"], "stopped") << stopped.dump();
  EXPECT_EQ(stopped["reason"], "stopped_by_user");
  EXPECT_EQ(stopped["dataRowsCount"], 0);
  // The thread is free: the next job runs while the left page still waits for its answer.
  const json next =
      wait_end(create("/scrape/batch/web", {{"urls", {site.url("/a")}}, {"jsRendering", false}}));
  EXPECT_EQ(next["status"], "finished") << next.dump();
  EXPECT_EQ(next["dataRowsCount"], 1);
  EXPECT_EQ(site.hanging(), 1);
  // Nothing of the left page is ever stored.
  EXPECT_EQ(job(held)["dataRowsCount"], 0);
}

// Issue 34, item 4: DELETE of a job whose page is a transfer that never ends (its timeout 300 s)
// ends the job at once, and the service's next job runs; the left transfer is cancelled
// (web_plain_tests PlainRoad.ACancelledTransferStops).
TEST_F(CrawlPlainRoad, DeleteEndsThePlainPageInFlight) {
  TricklingSite site;
  const std::string id = create(
      "/scrape/batch/web", {{"urls", {site.url()}}, {"jsRendering", false}, {"timeout", 300000}});
  ASSERT_TRUE(ServiceUnderTest::eventually([&] { return site.requests() == 1; }));
  auto r = svc_->client()->Delete("/scrapers/jobs/" + id, {{"x-api-key", account_.key}});
  ASSERT_TRUE(r && r->status == 200) << (r ? r->body : "no answer");
  EXPECT_EQ(wait_end(id)["status"], "stopped");
  EXPECT_EQ(job(id)["dataRowsCount"], 0);
}

}  // namespace
}  // namespace gleaner::testing
