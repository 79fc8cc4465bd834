// A page job whose page takes the service down, again and again (issue 34, finding 1): the real
// binary is killed (SIGKILL) while the job is in a page, twice; at the third start the job is
// failed with the reason that names the cause and the service starts and serves as usual, where
// before it took the same page and went down again at every start.
#include <gtest/gtest.h>

#include <atomic>

#include "jobs/job_store_of.h"
#include "store/jobs_store.h"
#include "store/store.h"
#include "tests/support/answer_log.h"
#include "tests/support/gleaner_process.h"
#include "tests/support/local_server.h"
#include "tests/support/service_under_test.h"

namespace gleaner::testing {
namespace {

using nlohmann::json;

/// A site whose page /hang never answers, a SQLite store with one account, and the real binary
/// on it: each start of the service is inside the page when the test kills it.
class PageJobRestarts : public ::testing::Test {
 protected:
  void SetUp() override {
    site.server().Get("/hang", [&](const httplib::Request&, httplib::Response&) {
      ++requests;
      site.hang();
    });
    site.start();
    env = loopback_serve_env(db, "crash-node");
    // The page must still be loading when the process is killed.
    env["GLEANER_ENDPOINT_TIMEOUT_MS"] = "300000";
    Config config;
    config.set("store", "sqlite:" + db);
    config.set("node_id", "crash-node");
    auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
    store::NewAccount a;
    a.name = "crash";
    a.allowance = 1000;
    key = store->create_account(a).key.key;
  }

  /// The binary with `args` (`serve`, an admin command) on the store; its output in `name`.*.
  std::unique_ptr<GleanerProcess> run(const std::vector<std::string>& args,
                                      const std::string& name) {
    return std::make_unique<GleanerProcess>(args, env, dir.path() + "/" + name + ".out",
                                            dir.path() + "/" + name + ".err");
  }
  std::unique_ptr<GleanerProcess> serve(const std::string& name) { return run({"serve"}, name); }

  std::optional<store::Job> job_in_store(const std::string& id) {
    Config config;
    config.set("store", "sqlite:" + db);
    config.set("node_id", "reader");
    auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
    return jobs::job_store_of(config, *store)->job(id);
  }

  /// Starts a batch of the never-answering page; its id.
  std::string start_batch(httplib::Client& client) {
    const json body = {{"urls", {site.url("/hang")}}, {"jsRendering", false}};
    auto r =
        client.Post("/scrape/batch/web", {{"x-api-key", key}}, body.dump(), "application/json");
    EXPECT_TRUE(r && r->status == 201) << (r ? r->body : "no answer");
    return r ? json::parse(r->body).value("id", "") : "";
  }

  std::atomic<int> requests{0};
  LocalServer site;
  TempDir dir;
  const std::string db = dir.path() + "/gleaner.db";
  std::map<std::string, std::string> env;
  std::string key;
};

TEST_F(PageJobRestarts, AJobWhosePageKillsTheServiceTwiceIsFailedAndTheThirdStartIsClean) {
  std::string id;
  for (int start = 1; start <= 2; ++start) {
    auto node = serve("start" + std::to_string(start));
    auto client = healthy_client(*node);
    ASSERT_TRUE(client) << node->err();
    if (start == 1) {
      id = start_batch(*client);
      ASSERT_FALSE(id.empty()) << node->err();
    }
    // Killed once the job is inside its page (the site has its request).
    ASSERT_TRUE(ServiceUnderTest::eventually([&] { return requests.load() >= start; }))
        << node->err();
    node->stop(SIGKILL);
    auto job = job_in_store(id);
    ASSERT_TRUE(job);
    EXPECT_EQ(job->status, store::job_status::kInProgress);
  }

  auto third = serve("start3");
  auto client = healthy_client(*third);
  ASSERT_TRUE(client) << third->err();
  json job;
  ASSERT_TRUE(ServiceUnderTest::eventually([&] {
    auto r = client->Get(("/scrapers/jobs/" + id).c_str(), {{"x-api-key", key}});
    if (!r || r->status != 200) return false;
    job = json::parse(r->body);
    return job.value("status", "") != "in_progress";
  })) << third->err();
  EXPECT_EQ(job["status"], "failed") << job.dump();
  EXPECT_EQ(job["reason"], "worker_crashed") << job.dump();
  EXPECT_EQ(job["dataRowsCount"], 0);
  EXPECT_EQ(job["creditsSpent"], 0);
  // The page was not taken a third time, and the service goes on serving.
  EXPECT_EQ(requests.load(), 2);
  auto health = client->Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  // It stops as a service does (SIGTERM), not as a crash.
  const int status = third->stop(SIGTERM);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << third->err();
}

TEST_F(PageJobRestarts, TheOperatorStopsAJobAKilledServiceLeftInItsPage) {
  std::string id;
  {
    auto node = serve("start");
    auto client = healthy_client(*node);
    ASSERT_TRUE(client) << node->err();
    id = start_batch(*client);
    ASSERT_FALSE(id.empty()) << node->err();
    ASSERT_TRUE(ServiceUnderTest::eventually([&] { return requests.load() >= 1; })) << node->err();
    node->stop(SIGKILL);
  }
  // The service is down, its page leased: the operator's commands work on the store alone.
  auto list = run({"jobs", "list", "--state", "in_progress"}, "list");
  const int listed = list->wait();
  ASSERT_TRUE(WIFEXITED(listed) && WEXITSTATUS(listed) == 0) << list->err();
  EXPECT_NE(list->out().find("job " + id + " account=1 kind=batch status=in_progress"),
            std::string::npos)
      << list->out();
  EXPECT_NE(list->out().find("leased_pages=1"), std::string::npos) << list->out();
  auto stop = run({"jobs", "stop", id}, "stop");
  const int stopped = stop->wait();
  ASSERT_TRUE(WIFEXITED(stopped) && WEXITSTATUS(stopped) == 0) << stop->err();
  auto job = job_in_store(id);
  ASSERT_TRUE(job);
  EXPECT_EQ(job->status, store::job_status::kStopped);
  EXPECT_EQ(job->stop_reason, "stopped_by_operator");

  // The next start does not take the page again, and the job answers as stopped.
  auto again = serve("again");
  auto client = healthy_client(*again);
  ASSERT_TRUE(client) << again->err();
  auto r = client->Get(("/scrapers/jobs/" + id).c_str(), {{"x-api-key", key}});
  ASSERT_TRUE(r && r->status == 200) << again->err();
  const json answer = json::parse(r->body);
  EXPECT_EQ(answer["status"], "stopped") << answer.dump();
  EXPECT_EQ(answer["reason"], "stopped_by_operator") << answer.dump();
  EXPECT_EQ(answer["creditsSpent"], 0);
  const int status = again->stop(SIGTERM);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << again->err();
  EXPECT_EQ(requests.load(), 1);
}

}  // namespace
}  // namespace gleaner::testing
