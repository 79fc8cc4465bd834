// Sessions on two nodes (docs/sessions.md "Several nodes"): two whole services on one PostgreSQL
// store, behind a real nginx running the compose configuration (docker/nginx.conf, its ports
// filled in as docker/nginx/entrypoint.sh does). A session opened through nginx stays on the node
// that opened it: its later requests through nginx (X-Session-Id) reach that node and are signed
// in, while a request naming it that reaches the other node is 409 session_lost (uncharged), not
// a fresh context under the same name; both nodes list it. A batch in the session runs on the
// node that holds it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "extract/sessions.h"
#include "store/jobs_store.h"
#include "tests/store/test_postgres.h"
#include "tests/support/service_under_test.h"
#include "tests/web/login_site.h"

extern char** environ;

namespace gleaner::testing {
namespace {

using nlohmann::json;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// nginx (Debian's package) on docker/nginx.conf, its files in `dir`; stopped at the end.
class Nginx {
 public:
  Nginx(const std::string& dir, int port, int node1, int node2) : dir_(dir), port_(port) {
    std::string conf = read_text(std::string(GLEANER_SOURCE_DIR) + "/docker/nginx.conf");
    replace_all(conf, "${NGINX_PORT}", std::to_string(port));
    replace_all(conf, "${GLEANER_NODE1_PORT}", std::to_string(node1));
    replace_all(conf, "${GLEANER_NODE2_PORT}", std::to_string(node2));
    std::ofstream(dir + "/nginx.conf") << conf;
    const std::string globals = "daemon off; pid " + dir + "/nginx.pid;";
    std::vector<std::string> args = {"/usr/sbin/nginx",   "-p", dir + "/", "-c",
                                     dir + "/nginx.conf", "-g", globals};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string log = dir + "/nginx.log";
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) pid_ = -1;
  }
  ~Nginx() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  bool started() const { return pid_ > 0; }
  std::string log() const { return read_text(dir_ + "/nginx.log"); }
  std::unique_ptr<httplib::Client> client() const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
    c->set_read_timeout(std::chrono::duration_cast<std::chrono::seconds>(kMaxWait).count() * 2);
    return c;
  }

 private:
  std::string dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

Config node_config(const std::string& dir, const std::string& db, const std::string& node,
                   bool jobs = false) {
  Config config = service_config(dir, /*replay_dir=*/"");
  config.set("store", db);
  config.set("node_id", node);
  config.set("data_dir", dir);
  config.set("allow_private_addresses", true);
  config.set("jobs_enabled", jobs);
  return config;
}

// Two nodes on one fresh PostgreSQL database behind nginx, an account, and the login site.
struct TwoNodes {
  explicit TwoNodes(bool jobs)
      : db(store::testing::TestPostgres::instance().fresh_database()),
        node1(node_config(dir1.path(), db, "node-1", jobs)),
        node2(node_config(dir2.path(), db, "node-2", jobs)),
        account(node1.create_account(1000)),
        nginx(nginx_dir.path(), store::testing::free_loopback_port(), node1.port(),
              node2.port()) {}
  /// Whether nginx answers.
  bool up() {
    return nginx.started() && ServiceUnderTest::eventually([&] {
             auto r = nginx.client()->Get("/health");
             return r && r->status == 200;
           });
  }

  const std::string db;
  TempDir dir1, dir2, nginx_dir;
  LoginSite site;
  ServiceUnderTest node1;
  ServiceUnderTest node2;
  const ServiceUnderTest::NewAccount account;
  Nginx nginx;
};

TEST(SessionsOnTwoNodes, ASessionStaysOnItsNodeAndAnotherNodeSaysItIsLost) {
  TwoNodes nodes(/*jobs=*/false);
  ASSERT_TRUE(nodes.up()) << nodes.nginx.log();
  auto [node1, node2, account, nginx, site] =
      std::tie(nodes.node1, nodes.node2, nodes.account, nodes.nginx, nodes.site);

  const httplib::Headers in_session{{"x-api-key", account.key}, {"x-session-id", "two-nodes"}};
  auto through_nginx = [&](const json& body) {
    return nginx.client()->Post("/scrape/web", in_session, body.dump(), "application/json");
  };
  auto logged_in =
      through_nginx({{"url", site.url("/login")}, {"jsScenario", json::parse(kLogInScenario)}});
  ASSERT_TRUE(logged_in) << nginx.log();
  ASSERT_EQ(logged_in->status, 200) << logged_in->body;
  EXPECT_NE(json_of(logged_in)["content"].get<std::string>().find("Welcome, alice"),
            std::string::npos);
  // Its next requests reach the same node, signed in.
  for (int i = 0; i < 3; ++i) {
    auto again = through_nginx({{"url", site.url("/account")}});
    ASSERT_TRUE(again);
    ASSERT_EQ(again->status, 200) << again->body;
    EXPECT_NE(json_of(again)["content"].get<std::string>().find("Welcome, alice"),
              std::string::npos);
  }
  const int on1 = node1.deps().sessions->open_count();
  const int on2 = node2.deps().sessions->open_count();
  ASSERT_EQ(on1 + on2, 1);
  ServiceUnderTest& holder = on1 == 1 ? node1 : node2;
  ServiceUnderTest& other = on1 == 1 ? node2 : node1;

  // A request that reaches the other node: session_lost, uncharged, and no context opened there.
  const std::int64_t before = other.store().account_view(account.id).account.balance;
  auto stray = other.client()->Post(
      "/scrape/web", {{"x-api-key", account.key}},
      json({{"url", site.url("/account")}, {"sessionId", "two-nodes"}}).dump(), "application/json");
  ASSERT_TRUE(stray);
  EXPECT_EQ(stray->status, 409) << stray->body;
  EXPECT_EQ(json_of(stray)["error"]["code"], "session_lost");
  EXPECT_EQ(other.store().account_view(account.id).account.balance, before);
  EXPECT_EQ(other.deps().sessions->open_count(), 0);

  // Both nodes list it: the book is the store's.
  for (ServiceUnderTest* node : {&holder, &other}) {
    const json listed = json_of(node->get("/scrape/sessions", account.key));
    ASSERT_EQ(listed["sessions"].size(), 1u) << listed;
    EXPECT_EQ(listed["sessions"][0]["id"], "two-nodes");
  }
  // DELETE through nginx reaches the holder (routed by the path's id) and ends it.
  auto ended = nginx.client()->Delete("/scrape/sessions/two-nodes", {{"x-api-key", account.key}});
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->status, 200) << ended->body;
  EXPECT_EQ(holder.deps().sessions->open_count(), 0);
}

// docs/sessions.md "Batches": a batch sent through nginx with the session's header lands on the
// node holding the session and is pinned there; both nodes' page workers run, and every row is
// signed in (a row the other node took would be session_lost). A batch naming the session sent
// straight to the other node is refused.
TEST(SessionsOnTwoNodes, ABatchInASessionRunsOnTheNodeHoldingIt) {
  TwoNodes nodes(/*jobs=*/true);
  ASSERT_TRUE(nodes.up()) << nodes.nginx.log();
  auto [node1, node2, account, nginx, site] =
      std::tie(nodes.node1, nodes.node2, nodes.account, nodes.nginx, nodes.site);
  const httplib::Headers in_session{{"x-api-key", account.key}, {"x-session-id", "batch-nodes"}};
  auto logged_in = nginx.client()->Post(
      "/scrape/web", in_session,
      json({{"url", site.url("/login")}, {"jsScenario", json::parse(kLogInScenario)}}).dump(),
      "application/json");
  ASSERT_TRUE(logged_in) << nginx.log();
  ASSERT_EQ(logged_in->status, 200) << logged_in->body;
  const bool on1 = node1.deps().sessions->open_count() == 1;
  ServiceUnderTest& holder = on1 ? node1 : node2;
  ServiceUnderTest& other = on1 ? node2 : node1;

  json urls = json::array();
  for (int i = 0; i < 4; ++i) urls.push_back(site.url("/account?row=" + std::to_string(i)));
  auto created = nginx.client()->Post("/scrape/batch/web", in_session,
                                      json({{"urls", urls}}).dump(), "application/json");
  ASSERT_TRUE(created);
  ASSERT_EQ(created->status, 201) << created->body;
  const std::string id = json_of(created)["id"].get<std::string>();
  const auto pinned = holder.deps().jobs->job(id);
  ASSERT_TRUE(pinned);
  EXPECT_EQ(pinned->pinned_node, holder.deps().jobs->node_id());
  json job;
  ASSERT_TRUE(ServiceUnderTest::eventually([&] {
    job = json_of(holder.get("/scrapers/jobs/" + id, account.key));
    return job.value("status", "") == "finished";
  })) << job;
  const json rows = json_of(holder.get("/scrapers/jobs/" + id + "/results", account.key))["data"];
  ASSERT_EQ(rows.size(), 4u) << rows;
  for (const json& row : rows) {
    EXPECT_NE(row.value("content", "").find("Welcome, alice"), std::string::npos) << row;
  }
  EXPECT_EQ(other.deps().sessions->open_count(), 0);

  auto stray = other.client()->Post(
      "/scrape/batch/web", {{"x-api-key", account.key}},
      json({{"urls", urls}, {"sessionId", "batch-nodes"}}).dump(), "application/json");
  ASSERT_TRUE(stray);
  EXPECT_EQ(stray->status, 409) << stray->body;
  EXPECT_EQ(json_of(stray)["error"]["code"], "session_lost");
}

}  // namespace
}  // namespace gleaner::testing
