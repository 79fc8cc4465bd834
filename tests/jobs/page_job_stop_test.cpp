// SIGTERM reaches a page job in the middle of a jsRendering: false page (issue 34, item 4): the
// real binary, inside a page whose body never ends and whose timeout is 300 s, stops within the
// suites' maximum wait and leaves the job as it was, its entry given back for the next start.
// Before, the shutdown waited for the page's timeout.
#include <gtest/gtest.h>

#include "jobs/job_store_of.h"
#include "store/jobs_store.h"
#include "store/store.h"
#include "tests/support/answer_log.h"
#include "tests/support/gleaner_process.h"
#include "tests/support/service_under_test.h"
#include "tests/support/trickling_site.h"

namespace gleaner::testing {
namespace {

using nlohmann::json;

TEST(PageJobStops, SigtermStopsTheServiceInsideAPlainPageAndTheJobGoesOnLater) {
  TricklingSite site;
  TempDir dir;
  const std::string db = dir.path() + "/gleaner.db";
  std::map<std::string, std::string> env = loopback_serve_env(db, "stop-node");
  env["GLEANER_SHUTDOWN_GRACE_MS"] = "1000";
  auto open_store = [&](const std::string& node) {
    Config config;
    config.set("store", "sqlite:" + db);
    config.set("node_id", node);
    return std::make_pair(
        config, store::open_store(config, SystemClock::instance(), store::StoreRole::Node));
  };
  std::string key;
  {
    auto [config, store] = open_store("setup");
    store::NewAccount a;
    a.name = "stop";
    a.allowance = 1000;
    key = store->create_account(a).key.key;
  }
  GleanerProcess node({"serve"}, env, dir.path() + "/serve.out", dir.path() + "/serve.err");
  auto client = healthy_client(node);
  ASSERT_TRUE(client) << node.err();
  const json body = {{"urls", {site.url()}}, {"jsRendering", false}, {"timeout", 300000}};
  auto r = client->Post("/scrape/batch/web", {{"x-api-key", key}}, body.dump(), "application/json");
  ASSERT_TRUE(r && r->status == 201) << (r ? r->body : "no answer") << node.err();
  const std::string id = json::parse(r->body).value("id", "");
  ASSERT_TRUE(ServiceUnderTest::eventually([&] { return site.requests() == 1; })) << node.err();

  ::kill(node.pid(), SIGTERM);
  const std::optional<int> status = node.wait_for(kMaxWait);
  ASSERT_TRUE(status) << "still running after SIGTERM; " << node.err();
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << node.err();

  // The job is as it was, and its page is there to take at the next start.
  auto [config, store] = open_store("next-start");
  auto jobs = jobs::job_store_of(config, *store);
  const auto job = jobs->job(id);
  ASSERT_TRUE(job);
  EXPECT_EQ(job->status, store::job_status::kInProgress);
  EXPECT_EQ(job->rows_count, 0);
  const auto claimed = jobs->claim_entry(std::chrono::seconds(60));
  ASSERT_TRUE(claimed) << "the entry is still leased by the stopped node";
  EXPECT_EQ(claimed->job.id, id);
  EXPECT_EQ(claimed->entry.url, site.url());
}

}  // namespace
}  // namespace gleaner::testing
