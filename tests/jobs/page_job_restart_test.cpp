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

TEST(PageJobRestarts, AJobWhosePageKillsTheServiceTwiceIsFailedAndTheThirdStartIsClean) {
  // The page never answers: each start of the service is inside it when it is killed.
  std::atomic<int> requests{0};
  LocalServer site;
  site.server().Get("/hang", [&](const httplib::Request&, httplib::Response&) {
    ++requests;
    site.hang();
  });
  site.start();

  TempDir dir;
  const std::string db = dir.path() + "/gleaner.db";
  std::map<std::string, std::string> env = loopback_serve_env(db, "crash-node");
  // The page must still be loading when the process is killed.
  env["GLEANER_ENDPOINT_TIMEOUT_MS"] = "300000";
  std::string key;
  {
    Config config;
    config.set("store", "sqlite:" + db);
    config.set("node_id", "crash-node");
    auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
    store::NewAccount a;
    a.name = "crash";
    a.allowance = 1000;
    key = store->create_account(a).key.key;
  }
  auto serve = [&](const std::string& name) {
    return std::make_unique<GleanerProcess>(std::vector<std::string>{"serve"}, env,
                                            dir.path() + "/" + name + ".out",
                                            dir.path() + "/" + name + ".err");
  };
  auto job_in_store = [&](const std::string& id) {
    Config config;
    config.set("store", "sqlite:" + db);
    config.set("node_id", "reader");
    auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
    return jobs::job_store_of(config, *store)->job(id);
  };

  std::string id;
  for (int start = 1; start <= 2; ++start) {
    auto node = serve("start" + std::to_string(start));
    auto client = healthy_client(*node);
    ASSERT_TRUE(client) << node->err();
    if (start == 1) {
      const json body = {{"urls", {site.url("/hang")}}, {"jsRendering", false}};
      auto r =
          client->Post("/scrape/batch/web", {{"x-api-key", key}}, body.dump(), "application/json");
      ASSERT_TRUE(r && r->status == 201) << (r ? r->body : "no answer") << node->err();
      id = json::parse(r->body).value("id", "");
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

}  // namespace
}  // namespace gleaner::testing
