// The real `gleaner` binary killed (SIGKILL, no cleanup) in the middle of charged requests and
// started again on the same store: the requests that finished stay charged, the unfinished ones
// are neither charged nor keep their credits.
#include <gtest/gtest.h>

#include <future>

#include "tests/accounts_api/service_fixture.h"
#include "tests/support/answer_log.h"
#include "tests/support/gleaner_process.h"

namespace gleaner::testing {
namespace {

class RestartTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const {
    return {{"GLEANER_STORE", "sqlite:" + dir.path() + "/gleaner.db"},
            {"GLEANER_NODE_ID", "restarted-node"},
            {"GLEANER_HOST", "127.0.0.1"},
            {"GLEANER_PORT", "0"},
            {"GLEANER_BROWSER_PROCESSES", "1"},
            {"GLEANER_PAGES_PER_PROCESS", "4"},
            {"GLEANER_REPLAY_DIR", shared_archive().dir()},
            {"GLEANER_CHROMIUM_FLAGS", kLoopbackOnlyFlag},
            // The hung pages must still be loading when the process is killed.
            {"GLEANER_ENDPOINT_TIMEOUT_MS", "120000"},
            {"GLEANER_LOG_LEVEL", "info"}};
  }

  std::unique_ptr<GleanerProcess> serve(const std::string& name) {
    return std::make_unique<GleanerProcess>(std::vector<std::string>{"serve"}, env(),
                                            dir.path() + "/" + name + ".out",
                                            dir.path() + "/" + name + ".err");
  }

  /// A view of the account in the store file, as an admin command would open it.
  store::AccountView view(std::int64_t account_id) const {
    Config config;
    config.set("store", "sqlite:" + dir.path() + "/gleaner.db");
    auto store = store::open_store(config, SystemClock::instance(), store::StoreRole::Admin);
    return store->account_view(account_id);
  }

  TempDir dir;
};

httplib::Result get(int port, const std::string& path, const std::string& key) {
  httplib::Client client("127.0.0.1", port);
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(kMaxWait).count();
  client.set_read_timeout(static_cast<time_t>(seconds), 0);
  record_answers(client);
  return client.Get(path.c_str(), {{"x-api-key", key}});
}

double metric(int port, const std::string& series) {
  httplib::Client client("127.0.0.1", port);
  auto r = client.Get("/metrics");
  if (!r) return -1;
  std::istringstream in(r->body);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
  }
  return -1;
}

TEST_F(RestartTest, AKilledNodeLosesNoCreditsAndChargesNoUnfinishedRequest) {
  // The account comes from the admin command, as an operator makes one.
  GleanerProcess create({"accounts", "create", "--name", "restart", "--credits", "100"}, env(),
                        dir.path() + "/create.out", dir.path() + "/create.err");
  const int created = create.wait();
  ASSERT_TRUE(WIFEXITED(created) && WEXITSTATUS(created) == 0) << create.err();
  const std::string out = create.out();
  const std::string key = out.substr(out.rfind('\n', out.size() - 2) + 1, 67);
  ASSERT_EQ(key.rfind("gl_", 0), 0u) << out;
  const std::int64_t account_id = 1;

  auto first = serve("first");
  const int port = first->port();
  ASSERT_GT(port, 0) << first->err();
  // A store that already has an account gets no bootstrap account.
  EXPECT_EQ(first->out().find("API key"), std::string::npos) << first->out();

  const std::string feed = std::string("/scrape/search/news?") + news::kFeed;
  const std::string hang = std::string("/scrape/search/news?") + news::kHang;
  auto done = get(port, feed, key);
  ASSERT_TRUE(done);
  ASSERT_EQ(done->status, 200) << done->body;

  // Three charged requests on pages that are still loading when the node dies.
  std::vector<std::future<httplib::Result>> hung;
  for (int i = 0; i < 3; ++i) {
    hung.push_back(std::async(std::launch::async, [&] { return get(port, hang, key); }));
  }
  // Running is not yet reserved: a request's reservation overlaps the opening of its tab
  // (billed_overlapped), so the test waits for both.
  ASSERT_TRUE(ServiceUnderTest::eventually([&] {
    return metric(port, "gleaner_admission_running") == 3 &&
           view(account_id).account.balance == 60;
  })) << first->err();
  EXPECT_EQ(view(account_id).account.balance, 60);  // 10 charged, 30 held
  const int status = first->stop(SIGKILL);
  EXPECT_TRUE(WIFSIGNALED(status));
  for (auto& h : hung) {
    auto r = h.get();
    EXPECT_TRUE(!r || r->status != 200) << "a request answered 200 by a killed node";
  }

  // Dead, the node still holds the three reservations; the finished request stays charged.
  store::AccountView dead = view(account_id);
  EXPECT_EQ(dead.account.balance, 60);
  ASSERT_EQ(dead.usage.size(), 1u);
  EXPECT_EQ(dead.usage[0].requests, 1);

  // Started again as the same node: its leftovers are released before it takes requests.
  auto second = serve("second");
  const int port2 = second->port();
  ASSERT_GT(port2, 0) << second->err();
  auto account = get(port2, "/account", key);
  ASSERT_TRUE(account);
  ASSERT_EQ(account->status, 200) << account->body;
  const auto body = json_of(account);
  EXPECT_EQ(body["balance"], 90);
  EXPECT_EQ(body["usage"]["requests"], 1);
  EXPECT_EQ(body["usage"]["credits"], 10);

  // And it charges as before; a graceful stop ends it cleanly.
  auto again = get(port2, feed, key);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
  EXPECT_EQ(view(account_id).account.balance, 80);
  const int stopped = second->stop(SIGTERM);
  EXPECT_TRUE(WIFEXITED(stopped) && WEXITSTATUS(stopped) == 0) << second->err();
}

TEST_F(RestartTest, TheFirstStartOnAnEmptyStorePrintsTheDefaultAccountsKey) {
  auto node = serve("bootstrap");
  ASSERT_GT(node->port(), 0) << node->err();
  const std::string out = node->out();
  const Regex key_line("\n(gl_[0-9a-f]{64})\n");
  RegexMatch m;
  ASSERT_TRUE(key_line.search(out, m)) << out;
  const std::string key = m[1];
  auto account = get(node->port(), "/account", key);
  ASSERT_TRUE(account);
  ASSERT_EQ(account->status, 200) << account->body;
  EXPECT_EQ(json_of(account)["account"]["name"], "default");
  EXPECT_EQ(json_of(account)["allowance"], 10000);
  // The key goes to standard output only, never into the log.
  EXPECT_EQ(node->err().find(key), std::string::npos);
  EXPECT_EQ(node->err().find(key.substr(11)), std::string::npos);
  node->stop(SIGTERM);
}

}  // namespace
}  // namespace gleaner::testing
