// Scraper jobs through the whole service (tests/support/service_under_test.h): a job created
// over HTTP is run by the service's worker in its Chromium over a replay archive of the rendered
// maps pages (tests/support/sites/maps_pages.h), its rows stored and charged, and its webhooks delivered
// to a receiver on loopback. Also: running out of credits, and the real binary killed in the
// middle of a job and started again.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "jobs/job_store_of.h"
#include "store/jobs_store.h"
#include "store/store.h"
#include "tests/support/answer_log.h"
#include "tests/support/gleaner_process.h"
#include "tests/support/local_server.h"
#include "tests/support/service_under_test.h"
#include "tests/support/sites/maps_pages.h"

namespace gleaner::testing {
namespace {

using nlohmann::json;

/// A webhook receiver on loopback: records every delivery, answers 200.
class Receiver {
 public:
  struct Hook {
    httplib::Headers headers;  // looked up without regard to case
    json body;
  };

  Receiver() {
    server_.server().Post("/hooks",
                          [this](const httplib::Request& request, httplib::Response& response) {
                            Hook hook;
                            hook.headers = request.headers;
                            hook.body = json::parse(request.body, nullptr, false);
                            {
                              std::lock_guard lock(mutex_);
                              hooks_.push_back(std::move(hook));
                            }
                            response.set_content("{}", "application/json");
                          });
    server_.start();
  }

  std::string url() const { return server_.url("/hooks"); }

  /// The value of header `name` in `hook` ("" when absent).
  static std::string header(const Hook& hook, const std::string& name) {
    const auto it = hook.headers.find(name);
    return it == hook.headers.end() ? std::string() : it->second;
  }

  std::vector<Hook> hooks() const {
    std::lock_guard lock(mutex_);
    return hooks_;
  }
  /// The deliveries of `event`, each once (a retry of one already taken is left out, as a
  /// receiver would do with the delivery header).
  std::vector<Hook> distinct(const std::string& event) const {
    std::vector<Hook> out;
    std::set<std::string> seen;
    for (const Hook& h : hooks()) {
      if (h.body.value("event", "") != event) continue;
      if (!seen.insert(header(h, "X-Gleaner-Delivery")).second) continue;
      out.push_back(h);
    }
    return out;
  }

 private:
  mutable std::mutex mutex_;  // guards hooks_
  std::vector<Hook> hooks_;
  // Declared last: its handler uses the members above.
  LocalServer server_;
};

/// The suite's service configuration: the store in `dir`, the maps archive, webhooks to loopback
/// allowed, small batches, quick polling.
Config jobs_config(const std::string& dir, const std::string& archive_dir) {
  Config config = service_config(dir, archive_dir);
  config.set("allow_private_addresses", true);
  config.set("jobs_batch_size", 4);
  config.set("jobs_poll_ms", 100);
  config.set("webhook_poll_ms", 100);
  config.set("maps_feed_settle_ms", 300);
  return config;
}

json job_body(const std::vector<std::string>& keywords, const std::vector<std::string>& locations,
              const std::string& hook_url, bool extract_emails) {
  json body = {
      {"keywords", keywords}, {"locations", json::array()}, {"extractEmails", extract_emails}};
  for (const auto& l : locations) body["locations"].push_back("CUSTOM>" + l);
  body["webhook"] = {{"url", hook_url}, {"headers", {{"X-Token", "t-123"}}}};
  return body;
}

std::string create_job(ServiceUnderTest& svc, const std::string& key, const json& body) {
  auto r = svc.client()->Post("/scrapers/maps/jobs", {{"x-api-key", key}}, body.dump(),
                              "application/json");
  EXPECT_TRUE(r && r->status == 201) << (r ? r->body : "no answer");
  return json_of(r).value("id", "");
}

/// The job as GET /scrapers/jobs/{id} shows it (the envelope's data).
json job_of(ServiceUnderTest& svc, const std::string& key, const std::string& id) {
  return json_of(svc.get("/scrapers/jobs/" + id, key));
}

bool ended(const json& job) {
  const std::string s = job.value("status", "");
  return s == "finished" || s == "stopped" || s == "failed";
}

std::set<std::string> names_in(const std::vector<Receiver::Hook>& hooks) {
  std::set<std::string> names;
  for (const auto& h : hooks) {
    for (const auto& row : h.body.value("data", json::array())) names.insert(row.value("name", ""));
  }
  return names;
}

TEST(JobsService, JobOverTheMapsPagesWithWebhooks) {
  TempReplayArchive archive;
  extract::google::maps::testing::add_maps_pages(archive);
  archive.load();
  TempDir dir;
  ServiceUnderTest svc(jobs_config(dir.path(), archive.dir()));
  Receiver receiver;
  const auto account = svc.create_account(1000);

  // Two locations find the same ten places: each is stored, charged and delivered once.
  const std::string id = create_job(
      svc, account.key, job_body({"griffith"}, {"Los Angeles", "Hollywood"}, receiver.url(), true));
  ASSERT_FALSE(id.empty());
  json job;
  ASSERT_TRUE(ServiceUnderTest::eventually([&] {
    return ended(job = job_of(svc, account.key, id));
  })) << job.dump();
  EXPECT_EQ(job["status"], "finished") << job.dump();
  EXPECT_EQ(job["dataRowsCount"], 10);
  EXPECT_EQ(job["creditsSpent"], 50);
  EXPECT_EQ(job["progress"], json({{"pairsDone", 2}, {"pairsTotal", 2}}));
  EXPECT_EQ(svc.store().account_view(account.id).account.balance, 950);

  const json results = json_of(svc.get("/scrapers/jobs/" + id + "/results?limit=100", account.key));
  ASSERT_EQ(results["total"], 10) << results.dump();
  const json& rows = results["data"];
  const auto observatory = std::find_if(rows.begin(), rows.end(), [](const json& r) {
    return r["placeId"] == "ChIJywjU6WG_woAR3NrWwrEH_3M";
  });
  ASSERT_NE(observatory, rows.end());
  EXPECT_EQ((*observatory)["name"], "Griffith Observatory");
  EXPECT_EQ((*observatory)["address"], "2800 E Observatory Rd, Los Angeles, CA 90027");
  EXPECT_EQ((*observatory)["phone"], "(213) 473-0800");
  EXPECT_DOUBLE_EQ((*observatory)["rating"].get<double>(), 4.7);
  EXPECT_EQ((*observatory)["reviewCount"], 17059);
  EXPECT_EQ((*observatory)["website"], "https://griffithobservatory.org/");
  EXPECT_EQ((*observatory)["emails"],
            json({"press@observatory.example", "visit@observatory.example"}));
  EXPECT_EQ((*observatory)["keyword"], "griffith");
  EXPECT_EQ((*observatory)["location"], "Los Angeles");
  const auto trails = std::find_if(
      rows.begin(), rows.end(), [](const json& r) { return r["name"] == "Griffith Park Trails"; });
  ASSERT_NE(trails, rows.end());
  EXPECT_EQ((*trails)["address"], "2715 N Vermont Canyon Rd");
  EXPECT_DOUBLE_EQ((*trails)["rating"].get<double>(), 4.8);

  // The receiver: started, the rows in batches of at most 4, finished; all with the headers.
  ASSERT_TRUE(ServiceUnderTest::eventually(
      [&] { return receiver.distinct("scraper.job.finished").size() == 1; }));
  const auto hooks = receiver.hooks();
  ASSERT_GE(hooks.size(), 3u);
  EXPECT_EQ(hooks.front().body["event"], "scraper.job.started");
  EXPECT_EQ(hooks.front().body["jobStatus"], "in_progress");
  EXPECT_EQ(hooks.back().body["event"], "scraper.job.finished");
  EXPECT_EQ(hooks.back().body["jobStatus"], "finished");
  for (const auto& h : hooks) {
    EXPECT_EQ(h.body["jobId"], id);
    EXPECT_TRUE(h.body.contains("timestamp"));
    EXPECT_EQ(Receiver::header(h, "X-Token"), "t-123");
    EXPECT_EQ(Receiver::header(h, "Content-Type"), "application/json");
    EXPECT_FALSE(Receiver::header(h, "X-Gleaner-Delivery").empty());
  }
  const auto scraped = receiver.distinct("scraper.data.scraped");
  ASSERT_GE(scraped.size(), 3u);  // 10 rows in batches of 4
  std::size_t delivered = 0;
  for (const auto& h : scraped) {
    EXPECT_LE(h.body["data"].size(), 4u);
    delivered += h.body["data"].size();
  }
  EXPECT_EQ(delivered, 10u);
  EXPECT_EQ(names_in(scraped).count("Griffith Observatory"), 1u);
  EXPECT_EQ(names_in(scraped).count("The Greek Theatre"), 1u);

  // The jobs' gauges: the job finished, and nothing left to deliver.
  EXPECT_EQ(svc.metric("gleaner_jobs{status=\"finished\"}"), 1);
  EXPECT_TRUE(ServiceUnderTest::eventually(
      [&] { return svc.metric("gleaner_webhook_deliveries_pending") == 0; }));

  // Every delivery is shown done in the job's details, with its attempt.
  job = job_of(svc, account.key, id);
  ASSERT_EQ(job["webhookDeliveries"].size(), hooks.size());
  for (const auto& d : job["webhookDeliveries"]) {
    EXPECT_EQ(d["status"], "done");
    EXPECT_EQ(d["attempts"][0]["outcome"], "ok");
  }
}

TEST(JobsService, OutOfCreditsStopsTheJobWithAFinishedEvent) {
  TempReplayArchive archive;
  extract::google::maps::testing::add_maps_pages(archive);
  archive.load();
  TempDir dir;
  Config config = jobs_config(dir.path(), archive.dir());
  config.set("jobs_batch_size", 1);
  ServiceUnderTest svc(config);
  Receiver receiver;
  const auto account = svc.create_account(12);  // two rows of 5

  const std::string id =
      create_job(svc, account.key, job_body({"museums"}, {"New York"}, receiver.url(), false));
  json job;
  ASSERT_TRUE(
      ServiceUnderTest::eventually([&] { return ended(job = job_of(svc, account.key, id)); }));
  EXPECT_EQ(job["status"], "stopped");
  EXPECT_EQ(job["reason"], "insufficient_credits");
  EXPECT_EQ(job["dataRowsCount"], 2);
  EXPECT_EQ(job["creditsSpent"], 10);
  EXPECT_EQ(svc.store().account_view(account.id).account.balance, 2);
  ASSERT_TRUE(ServiceUnderTest::eventually(
      [&] { return receiver.distinct("scraper.job.finished").size() == 1; }));
  const auto finished = receiver.distinct("scraper.job.finished");
  EXPECT_EQ(finished[0].body["jobStatus"], "stopped");
  // Deliveries are sent side by side (webhook_senders), so a batch may arrive after the job's
  // finished event (docs/jobs.md, "Webhooks").
  const std::set<std::string> expected{"The Metropolitan Museum of Art",
                                       "Solomon R. Guggenheim Museum"};
  EXPECT_TRUE(ServiceUnderTest::eventually(
      [&] { return names_in(receiver.distinct("scraper.data.scraped")) == expected; }))
      << "batches received: " << receiver.distinct("scraper.data.scraped").size();
}

// ---- The real binary, killed in the middle of a job ---------------------------------------------

TEST(JobsService, KilledDuringAJobResumesWithoutDuplicates) {
  TempReplayArchive archive;
  extract::google::maps::testing::add_maps_pages(archive);
  archive.load();
  TempDir dir;
  Receiver receiver;
  const std::string db = dir.path() + "/gleaner.db";
  const std::map<std::string, std::string> env = {
      {"GLEANER_STORE", "sqlite:" + db},
      {"GLEANER_NODE_ID", "restart-node"},
      {"GLEANER_HOST", "127.0.0.1"},
      {"GLEANER_PORT", "0"},
      {"GLEANER_REPLAY_DIR", archive.dir()},
      {"GLEANER_BROWSER_PROCESSES", "1"},
      {"GLEANER_PAGES_PER_PROCESS", "2"},
      {"GLEANER_CHROMIUM_FLAGS", kLoopbackOnlyFlag},
      {"GLEANER_ALLOW_PRIVATE_ADDRESSES", "true"},
      {"GLEANER_JOBS_BATCH_SIZE", "3"},
      {"GLEANER_JOBS_POLL_MS", "100"},
      {"GLEANER_WEBHOOK_POLL_MS", "100"},
      {"GLEANER_MAPS_FEED_SETTLE_MS", "300"},
      {"GLEANER_JOBS_NICE", "0"},  // beside other test binaries (gleaner_process.h)
  };
  auto serve = [&](const std::string& name) {
    return std::make_unique<GleanerProcess>(std::vector<std::string>{"serve"}, env,
                                            dir.path() + "/" + name + ".out",
                                            dir.path() + "/" + name + ".err");
  };
  // The account and the job are made in the store before the first start.
  std::int64_t account_id = 0;
  std::string key;
  {
    Config config;
    config.set("store", "sqlite:" + db);
    config.set("node_id", "restart-node");
    auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
    store::NewAccount a;
    a.name = "restart";
    a.allowance = 1000;
    auto created = store->create_account(a);
    account_id = created.account.id;
    key = created.key.key;
  }

  // Six pairs, twenty places: griffith (10) and museums (10), each in three locations.
  std::string id;
  {
    auto first = serve("first");
    auto client = healthy_client(*first);
    ASSERT_TRUE(client) << first->err();
    auto r = client->Post(
        "/scrapers/maps/jobs", {{"x-api-key", key}},
        job_body({"griffith", "museums"}, {"A", "B", "C"}, receiver.url(), false).dump(),
        "application/json");
    ASSERT_TRUE(r && r->status == 201)
        << (r ? r->body : "no answer: " + httplib::to_string(r.error())) << first->err();
    id = json::parse(r->body).value("id", "");
    // Killed once the first rows were delivered: the job is in the middle of its pairs.
    ASSERT_TRUE(ServiceUnderTest::eventually(
        [&] { return !receiver.distinct("scraper.data.scraped").empty(); }, Millis(60000)))
        << first->err();
    first->stop(SIGKILL);
  }
  {
    Config config;
    config.set("store", "sqlite:" + db);
    config.set("node_id", "restart-node");
    auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
    auto jobs = jobs::job_store_of(config, *store);
    auto job = jobs->job(id);
    ASSERT_TRUE(job);
    EXPECT_EQ(job->status, store::job_status::kInProgress) << "the kill came after the job ended";
  }

  auto second = serve("second");
  auto client = healthy_client(*second);
  ASSERT_TRUE(client) << second->err();
  json job;
  ASSERT_TRUE(ServiceUnderTest::eventually(
      [&] {
        auto r = client->Get(("/scrapers/jobs/" + id).c_str(), {{"x-api-key", key}});
        if (!r || r->status != 200) return false;
        job = json::parse(r->body);
        return ended(job);
      },
      Millis(120000)))
      << second->err();
  EXPECT_EQ(job["status"], "finished");
  EXPECT_EQ(job["dataRowsCount"], 20);
  EXPECT_EQ(job["creditsSpent"], 100);
  ASSERT_TRUE(ServiceUnderTest::eventually(
      [&] { return receiver.distinct("scraper.job.finished").size() == 1; }, Millis(60000)));
  // Every row delivered once: twenty distinct places over the distinct deliveries, no place in
  // two deliveries, and one started event.
  std::map<std::string, int> seen;
  for (const auto& h : receiver.distinct("scraper.data.scraped")) {
    for (const auto& row : h.body["data"]) ++seen[row.value("placeId", "")];
  }
  EXPECT_EQ(seen.size(), 20u);
  for (const auto& [place, times] : seen) EXPECT_EQ(times, 1) << place;
  EXPECT_EQ(receiver.distinct("scraper.job.started").size(), 1u);
  second->stop(SIGKILL);

  // Credits: 5 per row, once: the ledger and the balance agree.
  Config config;
  config.set("store", "sqlite:" + db);
  config.set("node_id", "restart-node");
  auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
  EXPECT_EQ(store->account_view(account_id).account.balance, 900);
}

}  // namespace
}  // namespace gleaner::testing
