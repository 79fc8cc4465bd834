// Sessions (docs/sessions.md, issue 36) end to end: a whole service on port 0, real Chromium, a
// site with a login served live on 127.0.0.1. A jsScenario logs in within a session; the next
// request of the session reads the page behind the login, while a request without the session,
// or another account's session of the same name, lands on the login page. TTL, DELETE, a killed
// browser (409 session_lost, uncharged), the session's queue (429), the per-account limit, and
// what a node that does not hold the session answers (409 session_lost: noted as held by another
// node, or by this node before a restart).
#include "extract/sessions.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>

#include "api/service.h"
#include "screenshots/png.h"
#include "store/session_store.h"
#include "tests/support/service_under_test.h"
#include "tests/web/login_site.h"

namespace gleaner {
namespace {

using gleaner::testing::json_of;
using gleaner::testing::LoginSite;
using gleaner::testing::ServiceUnderTest;
using gleaner::testing::TempDir;
using nlohmann::json;

struct World {
  World() {
    Config config = gleaner::testing::service_config(dir.path(), /*replay_dir=*/"");
    config.set("data_dir", dir.path());
    config.set("allow_private_addresses", true);
    config.set("node_id", "sessions-test-node");
    config.set("sessions_per_node", 3);
    config.set("screenshot_secret", "sessions-test-screenshot-secret-0123456789");
    service = std::make_unique<ServiceUnderTest>(config);
  }
  TempDir dir;
  std::unique_ptr<ServiceUnderTest> service;
  LoginSite site;
};

std::mutex world_mutex;
std::unique_ptr<World> world_ptr;

class WorldEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    std::lock_guard lock(world_mutex);
    world_ptr.reset();
  }
};
[[maybe_unused]] ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new WorldEnvironment);

World& world() {
  std::lock_guard lock(world_mutex);
  if (!world_ptr) world_ptr = std::make_unique<World>();
  return *world_ptr;
}

const json kLogIn = json::parse(gleaner::testing::kLogInScenario);

// A book that notes every session, and holds each request's note (touch) until the test lets the
// notes go, or a minute passes.
class HeldNotes final : public store::SessionBook {
 public:
  ClaimResult claim(std::int64_t, const std::string&, const std::string& node, std::chrono::seconds,
                    const std::optional<std::string>&, int) override {
    return {Claim::Claimed, node};
  }
  void touch(std::int64_t, const std::string&, const std::string&, std::chrono::seconds) override {
    std::unique_lock lock(mutex_);
    if (!released_.wait_for(lock, std::chrono::minutes(1), [&] { return let_go_; }))
      held_past_a_minute_ = true;
  }
  void remove(std::int64_t, const std::string&, const std::string&) override {}
  std::vector<store::SessionRecord> list(std::int64_t) override { return {}; }
  std::optional<store::SessionRecord> find(std::int64_t, const std::string&) override {
    return std::nullopt;
  }
  void let_go() {
    std::lock_guard lock(mutex_);
    let_go_ = true;
    released_.notify_all();
  }
  bool held_past_a_minute() {
    std::lock_guard lock(mutex_);
    return held_past_a_minute_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable released_;
  bool let_go_ = false;
  bool held_past_a_minute_ = false;
};

// A registry of sessions on the service's pool, noting them in `book`.
std::unique_ptr<extract::SessionRegistry> registry_on(store::SessionBook& book) {
  return std::make_unique<extract::SessionRegistry>(
      *world().service->deps().pool, book, "registry-test-node", extract::SessionLimits{5, 2});
}

std::unique_ptr<extract::Tab> session_tab(extract::SessionRegistry& registry, const std::string& id,
                                          const extract::BrowserProfile& profile = {}) {
  extract::SessionTerms terms;
  terms.id = id;
  return registry.tabs(1, terms, proxies::Route::direct(), {})
      ->open(profile, deadline_in(Millis(60000)));
}

// A request's note in the book (a store write) is written while its tab loads the page, not
// before the tab is handed out.
TEST(SessionRegistry, ARequestsTabIsHandedOutWhileItsNoteIsWritten) {
  HeldNotes book;
  auto registry = registry_on(book);
  auto tab = session_tab(*registry, "noted");  // its note is held: nothing waited for it
  book.let_go();
  const auto nav = tab->navigate(world().site.url("/login"), extract::WaitFor::load(),
                                 deadline_in(Millis(60000)));
  EXPECT_EQ(nav.status, 200);
  EXPECT_FALSE(book.held_past_a_minute());
}

// A session's tab is painted only for the requests that need it (a screenshot, a scenario): a
// request that only reads the page has it in the background, unpainted.
TEST(SessionRegistry, ASessionsTabIsPaintedOnlyForTheRequestsThatNeedIt) {
  HeldNotes book;
  book.let_go();
  auto registry = registry_on(book);
  const auto deadline = deadline_in(Millis(60000));
  auto visibility = [&](bool painted) {
    extract::BrowserProfile profile;
    profile.painted = painted;
    auto tab = session_tab(*registry, "painted", profile);
    tab->navigate(world().site.url("/login"), extract::WaitFor::load(), deadline);
    return tab->evaluate("document.visibilityState", deadline, extract::World::Isolated)
        .get<std::string>();
  };
  EXPECT_EQ(visibility(false), "hidden");
  EXPECT_EQ(visibility(true), "visible");
  EXPECT_EQ(visibility(false), "hidden");
  EXPECT_EQ(registry->open_count(), 1);  // one session throughout
}

// A session's next request asks the browser nothing before its first call: a browser that died
// in between is found by that call, and the request hears session_lost.
TEST(SessionRegistry, ABrowserGoneBeforeARequestsFirstCallLosesTheSession) {
  HeldNotes book;
  book.let_go();
  auto registry = registry_on(book);
  const auto deadline = deadline_in(Millis(60000));
  session_tab(*registry, "fragile")
      ->navigate(world().site.url("/login"), extract::WaitFor::load(), deadline);
  const pid_t pid = registry->browser_pid(1, "fragile");
  ASSERT_GT(pid, 0);
  auto tab = session_tab(*registry, "fragile");
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  try {
    tab->navigate(world().site.url("/account"), extract::WaitFor::load(), deadline);
    FAIL() << "a session's tab loaded a page in a killed browser";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::SessionLost) << e.what();
  }
  tab.reset();
  EXPECT_EQ(registry->browser_pid(1, "fragile"), 0);
}

class Sessions : public ::testing::Test {
 protected:
  void SetUp() override { account_ = new_account(); }
  // Every session a test opened ends with it: the node holds few.
  void TearDown() override {
    for (const auto& key : keys_) {
      const json listed = json_of(list(key));
      for (const auto& s : listed["sessions"]) end(key, s["id"].get<std::string>());
    }
  }
  std::string new_account() {
    keys_.push_back(world().service->create_account(1000).key);
    return keys_.back();
  }
  ServiceUnderTest::NewAccount new_account_with_id() {
    auto account = world().service->create_account(1000);
    keys_.push_back(account.key);
    return account;
  }
  httplib::Result scrape(const std::string& key, json body) {
    httplib::Headers headers{{"x-api-key", key}};
    return world().service->client()->Post("/scrape/web", headers, body.dump(), "application/json");
  }
  httplib::Result list(const std::string& key) {
    return world().service->get("/scrape/sessions", key);
  }
  httplib::Result end(const std::string& key, const std::string& id) {
    return world().service->client()->Delete("/scrape/sessions/" + id, {{"x-api-key", key}});
  }
  // The answer's body, expected with `status` (an empty object when there is no answer).
  static json answer(const httplib::Result& r, int status) {
    EXPECT_TRUE(r);
    if (!r) return json::object();
    EXPECT_EQ(r->status, status) << r->body;
    return json_of(r);
  }
  // Logs in within session `id`; returns the answer's html.
  std::string log_in(const std::string& key, const std::string& id, json extra = json::object()) {
    json body = {{"url", world().site.url("/login")}, {"sessionId", id}, {"jsScenario", kLogIn}};
    body.update(extra);
    return answer(scrape(key, body), 200).value("content", "");
  }
  // The page /account shows the caller in session `id` (none: without a session).
  std::string account_page(const std::string& key, const std::optional<std::string>& id) {
    json body = {{"url", world().site.url("/account")}};
    if (id) body["sessionId"] = *id;
    return answer(scrape(key, body), 200).value("content", "");
  }
  static bool signed_in(const std::string& html) {
    return html.find("Welcome, alice") != std::string::npos;
  }
  static bool login_form(const std::string& html) {
    return html.find("id=\"login\"") != std::string::npos;
  }
  std::int64_t balance(std::int64_t account) {
    return world().service->store().account_view(account).account.balance;
  }
  // POST /scrape/batch/web (docs/sessions.md "Batches").
  httplib::Result post_batch(const std::string& key, const json& body,
                             httplib::Headers headers = {}) {
    headers.emplace("x-api-key", key);
    return world().service->client()->Post("/scrape/batch/web", headers, body.dump(),
                                            "application/json");
  }
  // A batch of `paths` of the site, in session `id` (none: without one); its job's id.
  std::string batch(const std::string& key, const std::vector<std::string>& paths,
                    const std::optional<std::string>& id) {
    json body = {{"urls", json::array()}};
    for (const auto& path : paths) body["urls"].push_back(world().site.url(path));
    if (id) body["sessionId"] = *id;
    return answer(post_batch(key, body), 201).value("id", "");
  }
  // The job once it ended.
  json batch_end(const std::string& key, const std::string& job) {
    json j;
    EXPECT_TRUE(ServiceUnderTest::eventually([&] {
      j = json_of(world().service->get("/scrapers/jobs/" + job, key));
      const std::string status = j.value("status", "");
      return status == "finished" || status == "stopped" || status == "failed";
    })) << j.dump();
    return j;
  }
  // The job's rows by the path of their URL.
  std::map<std::string, json> batch_rows(const std::string& key, const std::string& job) {
    std::map<std::string, json> out;
    const json page = json_of(world().service->get("/scrapers/jobs/" + job + "/results", key));
    const std::string site = world().site.url("");
    for (const json& row : page["data"]) {
      out[row["url"].get<std::string>().substr(site.size())] = row;
    }
    return out;
  }

  std::string account_;
  std::vector<std::string> keys_;
};

TEST_F(Sessions, ALoginInASessionOpensThePageBehindItForThatSessionOnly) {
  EXPECT_TRUE(signed_in(log_in(account_, "shop")));
  // The next request of the session is signed in...
  EXPECT_TRUE(signed_in(account_page(account_, "shop")));
  // ...a request without it is not,
  const std::string fresh = account_page(account_, std::nullopt);
  EXPECT_TRUE(login_form(fresh)) << fresh;
  // nor another account's session of the same name.
  const std::string other = new_account();
  const std::string theirs = account_page(other, "shop");
  EXPECT_TRUE(login_form(theirs)) << theirs;
}

TEST_F(Sessions, TheListShowsOnlyTheCallersSessions) {
  ASSERT_TRUE(signed_in(log_in(account_, "listed")));
  EXPECT_TRUE(signed_in(account_page(account_, "listed")));
  const json mine = json_of(list(account_));
  ASSERT_EQ(mine["sessions"].size(), 1u) << mine;
  const json& s = mine["sessions"][0];
  EXPECT_EQ(s["id"], "listed");
  EXPECT_EQ(s["requests"], 2);
  EXPECT_TRUE(s["created"].is_string());
  EXPECT_TRUE(s["lastUsed"].is_string());
  EXPECT_TRUE(s["proxyCountry"].is_null());  // straight out: no upstream proxy
  // Another account sees none of it, and cannot end it.
  const std::string other = new_account();
  EXPECT_EQ(json_of(list(other))["sessions"], json::array());
  auto ended = end(other, "listed");
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->status, 404) << ended->body;
  EXPECT_TRUE(signed_in(account_page(account_, "listed")));
}

TEST_F(Sessions, DeleteEndsTheSessionAndTheIdStartsAFreshOne) {
  ASSERT_TRUE(signed_in(log_in(account_, "gone")));
  auto ended = end(account_, "gone");
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->status, 200) << ended->body;
  EXPECT_EQ(json_of(list(account_))["sessions"], json::array());
  const std::string after = account_page(account_, "gone");
  EXPECT_TRUE(login_form(after)) << after;
  ASSERT_TRUE(end(account_, "gone"));
  auto again = end(account_, "never-opened");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 404) << again->body;
}

TEST_F(Sessions, AFirstRequestThatCannotPayLeavesNoSession) {
  const auto poor = world().service->create_account(0);
  keys_.push_back(poor.key);
  auto r = scrape(poor.key, {{"url", world().site.url("/account")}, {"sessionId", "unpaid"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 402) << r->body;
  // Nothing was loaded in it: it does not hold one of the account's sessions until its TTL.
  EXPECT_EQ(json_of(list(poor.key))["sessions"], json::array());
  EXPECT_FALSE(world().service->deps().session_book->find(poor.id, "unpaid").has_value());
}

TEST_F(Sessions, AnIdleSessionEndsAfterItsTtl) {
  ASSERT_TRUE(signed_in(log_in(account_, "brief", {{"sessionTtl", 1}})));
  const auto account = world().service->store().authenticate(account_);
  ASSERT_TRUE(account);
  EXPECT_TRUE(ServiceUnderTest::eventually(
      [&] { return world().service->deps().sessions->browser_pid(account->id, "brief") == 0; }));
  EXPECT_EQ(json_of(list(account_))["sessions"], json::array());
  const std::string after = account_page(account_, "brief");
  EXPECT_TRUE(login_form(after)) << after;
}

TEST_F(Sessions, ASessionWhoseBrowserWasKilledIsLostUncharged) {
  const auto account = new_account_with_id();
  ASSERT_TRUE(signed_in(log_in(account.key, "fragile")));
  const pid_t pid = world().service->deps().sessions->browser_pid(account.id, "fragile");
  ASSERT_GT(pid, 0);
  const std::int64_t before = balance(account.id);
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  auto r = scrape(account.key, {{"url", world().site.url("/account")}, {"sessionId", "fragile"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 409) << r->body;
  EXPECT_EQ(json_of(r)["error"]["code"], "session_lost");
  EXPECT_EQ(balance(account.id), before);
  // The id starts over, in a fresh context on the browser that replaced the killed one.
  const std::string after = account_page(account.key, "fragile");
  EXPECT_TRUE(login_form(after)) << after;
  EXPECT_NE(world().service->deps().sessions->browser_pid(account.id, "fragile"), pid);
}

// A session's tab, unpainted while its requests only read, is painted for one that takes a
// screenshot (of the viewport that request asks for), and read unpainted again after it.
TEST_F(Sessions, ARequestThatTakesAScreenshotInASessionGetsOneBetweenRequestsThatOnlyRead) {
  const json read = {{"url", world().site.url("/login")}, {"sessionId", "shots"}};
  EXPECT_TRUE(login_form(answer(scrape(account_, read), 200).value("content", "")));
  json with_shot = read;
  with_shot.update({{"screenshot", true},
                    {"screenshotFullPage", false},
                    {"viewport", {{"width", 640}, {"height", 480}}}});
  const json shot = answer(scrape(account_, with_shot), 200);
  const std::string url = shot.value("screenshot", "");
  const auto at = url.find("/screenshots/");
  ASSERT_NE(at, std::string::npos) << shot.dump();
  const auto png = world().service->get(url.substr(at), /*key=*/"");
  ASSERT_TRUE(png);
  ASSERT_EQ(png->status, 200);
  const auto size = screenshots::png_size(png->body);
  EXPECT_EQ(size.width, 640);
  EXPECT_EQ(size.height, 480);
  EXPECT_TRUE(login_form(answer(scrape(account_, read), 200).value("content", "")));
  const json listed = json_of(list(account_));
  ASSERT_EQ(listed["sessions"].size(), 1u) << listed;
  EXPECT_EQ(listed["sessions"][0]["requests"], 3);
}

TEST_F(Sessions, ARequestBeyondTheSessionsQueueIs429) {
  const json slow = {
      {"url", world().site.url("/slow")}, {"sessionId", "busy"}, {"sessionQueue", 0}};
  int first_status = 0;
  std::thread holder([&] {
    auto first = scrape(account_, slow);
    first_status = first ? first->status : -1;
  });
  // The first holds the session's tab at /slow; the second may not wait (sessionQueue 0).
  const bool arrived = world().site.slow().wait_arrival();
  int second_status = 0;
  json second_body;
  bool retry_after = false;
  if (arrived) {
    auto second = scrape(account_, slow);
    second_status = second ? second->status : -1;
    if (second) {
      second_body = json_of(second);
      retry_after = second->has_header("Retry-After");
    }
  }
  world().site.slow().open();
  holder.join();
  ASSERT_TRUE(arrived);
  EXPECT_EQ(second_status, 429) << second_body;
  EXPECT_EQ(second_body["error"]["code"], "too_many_requests");
  EXPECT_TRUE(retry_after);
  EXPECT_EQ(first_status, 200);
}

TEST_F(Sessions, ANodeThatDoesNotHoldTheSessionSaysItIsLost) {
  const auto account = new_account_with_id();
  store::SessionBook& book = *world().service->deps().session_book;
  // Noted by another node: this one must not open a fresh context under the same name.
  ASSERT_EQ(book.claim(account.id, "elsewhere", "another-node", std::chrono::seconds(300),
                       std::nullopt, 5)
                .outcome,
            store::SessionBook::Claim::Claimed);
  auto r = scrape(account.key, {{"url", world().site.url("/account")}, {"sessionId", "elsewhere"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 409) << r->body;
  EXPECT_EQ(json_of(r)["error"]["code"], "session_lost");
  auto ended = end(account.key, "elsewhere");
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->status, 409) << ended->body;
  // Nor does a batch in it start here (docs/sessions.md "Batches"): it would be pinned here.
  auto batch = post_batch(account.key,
                          {{"urls", {world().site.url("/account")}}, {"sessionId", "elsewhere"}});
  ASSERT_TRUE(batch);
  EXPECT_EQ(batch->status, 409) << batch->body;
  EXPECT_EQ(json_of(batch)["error"]["code"], "session_lost");
  book.remove(account.id, "elsewhere", "another-node");
  // Noted by this node before it restarted: lost once, then the id starts over.
  ASSERT_EQ(book.claim(account.id, "before-restart", "sessions-test-node",
                       std::chrono::seconds(300), std::nullopt, 5)
                .outcome,
            store::SessionBook::Claim::Claimed);
  const std::int64_t before = balance(account.id);
  r = scrape(account.key, {{"url", world().site.url("/account")}, {"sessionId", "before-restart"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 409) << r->body;
  EXPECT_EQ(balance(account.id), before);
  EXPECT_TRUE(login_form(account_page(account.key, "before-restart")));
}

TEST_F(Sessions, AnAccountOpensAtMostItsLimitOfSessions) {
  const auto account = new_account_with_id();
  store::SessionBook& book = *world().service->deps().session_book;
  for (int i = 0; i < 5; ++i) {
    book.claim(account.id, "held-" + std::to_string(i), "another-node", std::chrono::seconds(300),
               std::nullopt, 5);
  }
  auto r = scrape(account.key, {{"url", world().site.url("/account")}, {"sessionId", "sixth"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 429) << r->body;
  EXPECT_NE(json_of(r)["error"]["message"].get<std::string>().find("most open sessions"),
            std::string::npos);
  for (int i = 0; i < 5; ++i) book.remove(account.id, "held-" + std::to_string(i), "another-node");
}

TEST_F(Sessions, TheAddressGuardAppliesInASession) {
  ASSERT_TRUE(signed_in(log_in(account_, "guarded")));
  // The cloud metadata address stays refused even where private addresses are allowed.
  auto refused = scrape(
      account_, {{"url", "http://169.254.169.254/latest/meta-data/"}, {"sessionId", "guarded"}});
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400) << refused->body;
  EXPECT_EQ(json_of(refused)["error"]["parameter"], "url");
  EXPECT_TRUE(signed_in(account_page(account_, "guarded")));
}

TEST_F(Sessions, SessionFieldsAreChecked) {
  auto bad_id = scrape(account_, {{"url", world().site.url("/account")}, {"sessionId", "a/b"}});
  ASSERT_TRUE(bad_id);
  EXPECT_EQ(bad_id->status, 400);
  EXPECT_EQ(json_of(bad_id)["error"]["parameter"], "sessionId");
  auto ttl_alone = scrape(account_, {{"url", world().site.url("/account")}, {"sessionTtl", 60}});
  ASSERT_TRUE(ttl_alone);
  EXPECT_EQ(ttl_alone->status, 400);
  EXPECT_EQ(json_of(ttl_alone)["error"]["parameter"], "sessionTtl");
  auto too_long = scrape(
      account_, {{"url", world().site.url("/account")}, {"sessionId", "x"}, {"sessionTtl", 1801}});
  ASSERT_TRUE(too_long);
  EXPECT_EQ(too_long->status, 400);
  auto plain =
      scrape(account_,
             {{"url", world().site.url("/account")}, {"sessionId", "x"}, {"jsRendering", false}});
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->status, 400);
  EXPECT_EQ(json_of(plain)["error"]["parameter"], "sessionId");
  // The header a balancer routes on must name the body's session, if the body names one.
  auto mismatch = world().service->client()->Post(
      "/scrape/web", {{"x-api-key", account_}, {"X-Session-Id", "one"}},
      json({{"url", world().site.url("/account")}, {"sessionId", "two"}}).dump(),
      "application/json");
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->status, 400);
  EXPECT_EQ(json_of(mismatch)["error"]["code"], "conflicting_parameters");
}

// docs/sessions.md "Batches": a batch's rows run in its session one after another, on the node
// that took it; the first opens the session, the later ones see what it left.
TEST_F(Sessions, ABatchsRowsShareItsSessionAndOnlyThat) {
  const auto account = new_account_with_id();
  const std::int64_t before = balance(account.id);
  const std::string job = batch(
      account.key, {"/sign-in?user=alice&pass=hunter2", "/account?row=2", "/account?row=3"},
      "batch-shop");
  const json done = batch_end(account.key, job);
  EXPECT_EQ(done["status"], "finished") << done;
  auto rows = batch_rows(account.key, job);
  ASSERT_EQ(rows.size(), 3u) << done;
  for (const auto& [path, row] : rows) {
    EXPECT_FALSE(row.contains("error")) << path << ": " << row;
    EXPECT_TRUE(signed_in(row.value("content", ""))) << path << ": " << row;
  }
  // Charged as rows without a session.
  EXPECT_EQ(done["creditsSpent"], 3 * world().service->deps().costs.of("web")) << done;
  EXPECT_EQ(before - balance(account.id), done["creditsSpent"].get<std::int64_t>());
  // The session the batch opened is the account's, as one /scrape/web opened.
  EXPECT_TRUE(signed_in(account_page(account.key, "batch-shop")));
  // A batch without the session is not signed in...
  const std::string plain = batch(account.key, {"/account?row=plain"}, std::nullopt);
  EXPECT_EQ(batch_end(account.key, plain)["status"], "finished");
  rows = batch_rows(account.key, plain);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(login_form(rows.begin()->second.value("content", ""))) << rows.begin()->second;
  // ...nor another account's batch in a session of the same name.
  const std::string other = new_account();
  const std::string theirs = batch(other, {"/account?row=theirs"}, "batch-shop");
  EXPECT_EQ(batch_end(other, theirs)["status"], "finished");
  rows = batch_rows(other, theirs);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(login_form(rows.begin()->second.value("content", ""))) << rows.begin()->second;
}

TEST_F(Sessions, ABatchRunsInASessionOpenedBefore) {
  ASSERT_TRUE(signed_in(log_in(account_, "opened-before")));
  const std::string job = batch(account_, {"/account?row=1", "/account?row=2"}, "opened-before");
  EXPECT_EQ(batch_end(account_, job)["status"], "finished");
  const auto rows = batch_rows(account_, job);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& [path, row] : rows) EXPECT_TRUE(signed_in(row.value("content", ""))) << row;
}

TEST_F(Sessions, ABatchsSessionLostMidwayFailsItsRemainingRowsUncharged) {
  const auto account = new_account_with_id();
  const std::int64_t before = balance(account.id);
  const std::string job = batch(account.key,
                                {"/sign-in?user=alice&pass=hunter2", "/held", "/account?row=3",
                                 "/account?row=4"},
                                "batch-fragile");
  // The second row holds the session's tab at /held: its browser is killed meanwhile.
  ASSERT_TRUE(world().site.held().wait_arrival());
  const pid_t pid = world().service->deps().sessions->browser_pid(account.id, "batch-fragile");
  EXPECT_GT(pid, 0);
  if (pid > 0) {
    EXPECT_EQ(::kill(pid, SIGKILL), 0);
  }
  world().site.held().open();
  const json done = batch_end(account.key, job);
  const auto rows = batch_rows(account.key, job);
  ASSERT_EQ(rows.size(), 4u) << done;
  EXPECT_TRUE(signed_in(rows.at("/sign-in?user=alice&pass=hunter2").value("content", "")));
  EXPECT_TRUE(rows.at("/held").contains("error")) << rows.at("/held");
  // Never a fresh context under the same name: the rows after say the session is lost.
  for (const char* path : {"/account?row=3", "/account?row=4"}) {
    EXPECT_EQ(rows.at(path)["error"]["code"], "session_lost") << rows.at(path);
    EXPECT_FALSE(rows.at(path).contains("content")) << rows.at(path);
  }
  EXPECT_EQ(done["creditsSpent"], world().service->deps().costs.of("web")) << done;
  EXPECT_EQ(before - balance(account.id), done["creditsSpent"].get<std::int64_t>());
  EXPECT_EQ(world().service->deps().sessions->browser_pid(account.id, "batch-fragile"), 0);
}

TEST_F(Sessions, BatchSessionFieldsAreChecked) {
  const json urls = {world().site.url("/account")};
  auto bad_id = post_batch(account_, {{"urls", urls}, {"sessionId", "a b"}});
  ASSERT_TRUE(bad_id);
  EXPECT_EQ(bad_id->status, 400) << bad_id->body;
  EXPECT_EQ(json_of(bad_id)["error"]["parameter"], "sessionId");
  auto queue_alone = post_batch(account_, {{"urls", urls}, {"sessionQueue", 2}});
  ASSERT_TRUE(queue_alone);
  EXPECT_EQ(queue_alone->status, 400) << queue_alone->body;
  EXPECT_EQ(json_of(queue_alone)["error"]["parameter"], "sessionQueue");
  auto mismatch =
      post_batch(account_, {{"urls", urls}, {"sessionId", "two"}}, {{"X-Session-Id", "one"}});
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->status, 400) << mismatch->body;
  EXPECT_EQ(json_of(mismatch)["error"]["code"], "conflicting_parameters");
  // The header alone names the batch's session.
  auto by_header = post_batch(account_, {{"urls", urls}}, {{"X-Session-Id", "by-header"}});
  ASSERT_TRUE(by_header);
  EXPECT_EQ(by_header->status, 201) << by_header->body;
  const std::string job = json_of(by_header).value("id", "");
  EXPECT_EQ(batch_end(account_, job)["status"], "finished");
  EXPECT_EQ(json_of(list(account_))["sessions"][0]["id"], "by-header");
  // A crawl runs in no session, named in its body or in the header.
  auto crawl = world().service->client()->Post(
      "/scrapers/crawler/jobs", {{"x-api-key", account_}},
      json({{"urls", urls}, {"sessionId", "crawl"}}).dump(), "application/json");
  ASSERT_TRUE(crawl);
  EXPECT_EQ(crawl->status, 400) << crawl->body;
  EXPECT_EQ(json_of(crawl)["error"]["parameter"], "sessionId");
  crawl = world().service->client()->Post("/scrapers/crawler/jobs",
                                          {{"x-api-key", account_}, {"X-Session-Id", "crawl"}},
                                          json({{"urls", urls}}).dump(), "application/json");
  ASSERT_TRUE(crawl);
  EXPECT_EQ(crawl->status, 400) << crawl->body;
  EXPECT_EQ(json_of(crawl)["error"]["parameter"], "sessionId");
}

}  // namespace
}  // namespace gleaner
