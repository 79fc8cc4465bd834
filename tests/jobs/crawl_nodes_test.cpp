// One crawl shared by two real `gleaner` processes on one PostgreSQL store, one of them killed
// (SIGKILL) mid-crawl: the survivor takes the dead node's leased pages over when their lease
// expires, and every page of the generated site ends up fetched into exactly one row, charged
// once, and announced in exactly one scraper.data.scraped delivery.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/regex.h"
#include "jobs/job_store_of.h"
#include "store/jobs_store.h"
#include "store/store.h"
#include "tests/store/test_postgres.h"
#include "tests/support/gleaner_process.h"
#include "tests/support/replay_archive.h"

namespace gleaner::testing {
namespace {

using nlohmann::json;

constexpr int kPages = 30;
constexpr const char* kSite = "http://nodes.test";

/// A site of kPages pages in a binary tree: /p/i links to /p/2i+1 and /p/2i+2.
void add_tree_site(TempReplayArchive& archive) {
  for (int i = 0; i < kPages; ++i) {
    std::string html = "<!doctype html><html><head><title>p" + std::to_string(i) +
                       "</title></head><body><p>page " + std::to_string(i) + "</p>";
    for (int child : {2 * i + 1, 2 * i + 2}) {
      if (child < kPages) html += "<a href=\"/p/" + std::to_string(child) + "\">next</a>";
    }
    archive.page(std::string(kSite) + "/p/" + std::to_string(i), html + "</body></html>");
  }
}

TEST(CrawlNodes, TwoNodesOnPostgresOneKilledEveryPageExactlyOnce) {
  TempReplayArchive archive;
  add_tree_site(archive);
  archive.load();
  TempDir dir;
  const std::string db = store::testing::TestPostgres::instance().fresh_database();
  std::int64_t account_id = 0;
  std::string key;
  {
    Config config;
    config.set("store", db);
    config.set("node_id", "setup");
    auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
    store::NewAccount a;
    a.name = "nodes";
    a.allowance = 1000;
    auto created = store->create_account(a);
    account_id = created.account.id;
    key = created.key.key;
  }
  auto serve = [&](const std::string& node) {
    const std::map<std::string, std::string> env = {
        {"GLEANER_STORE", db},
        {"GLEANER_NODE_ID", node},
        {"GLEANER_HOST", "127.0.0.1"},
        {"GLEANER_PORT", "0"},
        {"GLEANER_REPLAY_DIR", archive.dir()},
        {"GLEANER_BROWSER_PROCESSES", "1"},
        {"GLEANER_PAGES_PER_PROCESS", "2"},
        {"GLEANER_CHROMIUM_FLAGS", kLoopbackOnlyFlag},
        {"GLEANER_ALLOW_PRIVATE_ADDRESSES", "true"},
        {"GLEANER_JOBS_POLL_MS", "50"},
        {"GLEANER_JOBS_NICE", "0"},  // beside other test binaries (gleaner_process.h)
        {"GLEANER_WEBHOOK_POLL_MS", "100"},
        {"GLEANER_PAGE_JOBS_CONCURRENCY", "2"},
        // A dead node's pages come back after 5 s.
        {"GLEANER_PAGE_JOBS_LEASE_SECONDS", "5"},
        // Each stored page is logged: the test sees that the killed node had taken pages.
        {"GLEANER_LOG_LEVEL", "debug"},
    };
    return std::make_unique<GleanerProcess>(std::vector<std::string>{"serve"}, env,
                                            dir.path() + "/" + node + ".out",
                                            dir.path() + "/" + node + ".err");
  };
  auto a = serve("node-a");
  auto b = serve("node-b");
  auto client_a = healthy_client(*a);
  ASSERT_TRUE(client_a) << a->err();
  auto client_b = healthy_client(*b);
  ASSERT_TRUE(client_b) << b->err();

  // The webhook's receiver is down: every delivery stays in the outbox, where it is counted.
  const json body = {{"urls", {std::string(kSite) + "/p/0"}},
                     {"sitemap", "skip"},
                     {"ignoreRobotsTxt", true},
                     {"maxConcurrency", 4},
                     {"outputFormat", {"text"}},
                     {"webhook", {{"url", "http://127.0.0.1:9/hooks"}}}};
  auto r = client_a->Post("/scrapers/crawler/jobs", {{"x-api-key", key}}, body.dump(),
                          "application/json");
  ASSERT_TRUE(r && r->status == 201) << (r ? r->body : "no answer") << a->err();
  const std::string id = json::parse(r->body).value("id", "");
  ASSERT_FALSE(id.empty()) << r->body;

  // Both nodes take pages; b is killed once the crawl is under way.
  auto rows_of = [&](httplib::Client& c) -> std::int64_t {
    auto got = c.Get(("/scrapers/jobs/" + id).c_str(), {{"x-api-key", key}});
    if (!got || got->status != 200) return -1;
    return json::parse(got->body).value("dataRowsCount", std::int64_t{-1});
  };
  // (A loaded machine renders a page in seconds, hence the long waits.)
  const Regex stored_by_b("job " + id + ": http://nodes\\.test/p/[0-9]+ stored");
  ASSERT_TRUE(ServiceUnderTest::eventually(
      [&] { return rows_of(*client_a) >= 6 && stored_by_b.search(b->err()); }, Millis(300000)))
      << a->err() << b->err();
  b->stop(SIGKILL);

  json job;
  ASSERT_TRUE(ServiceUnderTest::eventually([&] {
    auto got = client_a->Get(("/scrapers/jobs/" + id).c_str(), {{"x-api-key", key}});
    if (!got || got->status != 200) return false;
    job = json::parse(got->body);
    return job.value("status", "") == "finished";
  }, Millis(600000)))
      << job.dump() << a->err();
  EXPECT_EQ(job["dataRowsCount"], kPages);
  EXPECT_EQ(job["creditsSpent"], kPages * 5);

  auto ndjson = client_a->Get(("/scrapers/jobs/" + id + "/results?format=ndjson").c_str(),
                              {{"x-api-key", key}});
  ASSERT_TRUE(ndjson && ndjson->status == 200);
  std::map<std::string, int> rows;
  std::istringstream in(ndjson->body);
  for (std::string line; std::getline(in, line);) ++rows[json::parse(line)["url"]];
  EXPECT_EQ(rows.size(), static_cast<std::size_t>(kPages));
  for (const auto& [url, times] : rows) EXPECT_EQ(times, 1) << url;

  Config config;
  config.set("store", db);
  config.set("node_id", "check");
  auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
  EXPECT_EQ(store->account_view(account_id).account.balance, 1000 - kPages * 5);
  auto jobs = jobs::job_store_of(config, *store);
  std::map<std::string, int> announced;
  const auto deliveries = jobs->deliveries(id);
  ASSERT_FALSE(deliveries.empty());
  for (const auto& d : deliveries) {
    if (d.delivery.event != "scraper.data.scraped") continue;
    const json delivered = json::parse(d.delivery.body);
    for (const json& row : delivered.at("data")) ++announced[row.at("url").get<std::string>()];
  }
  EXPECT_EQ(announced.size(), static_cast<std::size_t>(kPages));
  for (const auto& [url, times] : announced) EXPECT_EQ(times, 1) << url;
}

}  // namespace
}  // namespace gleaner::testing
