// POST /scrape/web's interactions, rules and plain road through the whole service
// (conventions.md "Interactions, rules, no browser, main content"): what only the service decides
// (a failed strict step is 422 and never charged, a lenient one is charged, the plain road costs
// 1, browser-only fields are a 400) and answers carrying extractedData, jsScenarioReport and
// evaluateResults for the OpenAPI check. The behaviour of each option is web_roads_tests'.
// A service on port 0, real Chromium, pages served live on 127.0.0.1
// (tests/web/interaction_pages.h).
#include "api/service.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/proxies/support/loopback.h"
#include "tests/web/interaction_pages.h"
#include "tests/support/service_under_test.h"

namespace gleaner {
namespace {

using gleaner::testing::json_of;
using gleaner::testing::ServiceUnderTest;
using gleaner::testing::TempDir;
using nlohmann::json;

constexpr long long kMaxEvaluateBytes = 1'000'000;
constexpr long long kMaxAnswerBytes = 3'000'000;

struct World {
  World() {
    gleaner::testing::add_interaction_pages(origin.server());
    origin.start();
    Config config = gleaner::testing::service_config(dir.path(), /*replay_dir=*/"");
    config.set("data_dir", dir.path());
    config.set("endpoint_timeout_ms", 30000);
    config.set("node_id", "web-interactions-test");
    config.set("allow_private_addresses", true);
    // Small size limits, so that the tests of issue 41 pass them with small pages.
    config.set("max_evaluate_bytes", kMaxEvaluateBytes);
    config.set("max_answer_bytes", kMaxAnswerBytes);
    service = std::make_unique<ServiceUnderTest>(config);
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(origin.port()) + path;
  }
  bool requested(const std::string& path) const {
    const auto paths = origin.paths();
    return std::find(paths.begin(), paths.end(), path) != paths.end();
  }

  proxies::testing::Origin origin{/*start_later=*/true};
  TempDir dir;
  std::unique_ptr<ServiceUnderTest> service;
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

class Interactions : public ::testing::Test {
 protected:
  void SetUp() override { account_ = world().service->create_account(100); }
  httplib::Result scrape(const json& body) {
    httplib::Headers headers{{"x-api-key", account_.key}};
    return world().service->client()->Post("/scrape/web", headers, body.dump(), "application/json");
  }
  std::int64_t spent() {
    return 100 - world().service->store().account_view(account_.id).account.balance;
  }
  json ok(const httplib::Result& r) {
    if (!r) {
      ADD_FAILURE() << "no answer";
      return json::object();
    }
    EXPECT_EQ(r->status, 200) << r->body;
    return json_of(r);
  }
  ServiceUnderTest::NewAccount account_;
};

// ---- jsScenario ----

TEST_F(Interactions, AFailedStrictStepIs422AndNotCharged) {
  auto r = scrape({{"url", world().url("/product")},
                   {"jsScenario", json::parse(R"J([{"scrollY": 100}, {"waitFor": "#absent"}, {"click": "h1"}])J")},
                   {"timeout", 8000}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 422) << r->body;
  json body = json_of(r);
  EXPECT_EQ(body["requestMetadata"]["status"], "error");
  EXPECT_EQ(body["error"]["code"], "scenario_failed");
  EXPECT_EQ(body["error"]["step"], 1);
  EXPECT_EQ(spent(), 0);
}

TEST_F(Interactions, ALenientScenarioIsReportedAndCharged) {
  json body = ok(scrape({{"url", world().url("/product")},
                         {"jsScenarioStrict", false},
                         {"jsScenario", json::parse(R"J([{"click": "#absent"}, {"evaluate": "document.title"},
                                                        {"infiniteScroll": {"maxCount": 2, "delay": 50}}])J")},
                         {"extractRules", {{"name", "h1"}, {"specs", {{"selector", "#specs"}, {"output", "table_json"}}}}}}));
  const json& report = body["jsScenarioReport"];
  ASSERT_EQ(report.size(), 3u);
  EXPECT_EQ(report[0]["ok"], false);
  EXPECT_NE(report[0]["error"].get<std::string>().find("#absent"), std::string::npos);
  EXPECT_EQ(report[1]["ok"], true);
  EXPECT_TRUE(report[1]["ms"].is_number());
  EXPECT_EQ(body["evaluateResults"], json({"Kettle"}));
  EXPECT_EQ(body["extractedData"]["name"], "Blue Kettle");
  EXPECT_EQ(spent(), 5);
}

// Issue 34, item 2: what a page's script returns is held to the depth a body is.
TEST_F(Interactions, AnEvaluateValueNestedTooDeepFailsItsStep) {
  const json deep_step = {{"evaluate", "let v = 1; for (let i = 0; i < 200; i++) v = [v]; v"}};
  const json title_step = {{"evaluate", "document.title"}};
  auto r = scrape({{"url", world().url("/product")},
                   {"jsScenario", json::array({deep_step})},
                   {"timeout", 8000}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 422) << r->body;
  const json strict = json_of(r);
  EXPECT_EQ(strict["error"]["code"], "scenario_failed");
  EXPECT_NE(strict["error"]["message"].get<std::string>().find("deeper than 64 levels"),
            std::string::npos)
      << r->body;
  EXPECT_EQ(spent(), 0);

  json lenient = ok(scrape({{"url", world().url("/product")},
                            {"jsScenarioStrict", false},
                            {"jsScenario", json::array({deep_step, title_step})}}));
  EXPECT_EQ(lenient["jsScenarioReport"][0]["ok"], false);
  EXPECT_NE(lenient["jsScenarioReport"][0]["error"].get<std::string>().find("deeper than"),
            std::string::npos);
  EXPECT_EQ(lenient["evaluateResults"], json({nullptr, "Kettle"}));
}

// Issue 41, item 2: a 500 MB evaluate value closed the DevTools connection and restarted the
// shared browser. A value past max_evaluate_bytes is measured in the page and fails its step; the
// browser, and the tab, carry on.
TEST_F(Interactions, AnEvaluateValueOverItsLimitFailsItsStepAndTheBrowserCarriesOn) {
  const auto restarts = [] {
    auto r = world().service->get("/health", "");
    return r ? json_of(r)["pool"]["restarts"].get<int>() : -1;
  };
  const int restarts_before = restarts();
  const json large = {{"evaluate", "'x'.repeat(" + std::to_string(kMaxEvaluateBytes + 1) + ")"}};
  const json fits = {
      {"evaluate", "return 'y'.repeat(" + std::to_string(kMaxEvaluateBytes - 2) + ")"}};
  const json title = {{"evaluate", "document.title"}};
  auto r = scrape({{"url", world().url("/product")}, {"jsScenario", json::array({large})}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 422) << r->body.substr(0, 300);
  const json strict = json_of(r);
  EXPECT_EQ(strict["error"]["code"], "scenario_failed");
  EXPECT_EQ(strict["error"]["step"], 0);
  EXPECT_NE(strict["error"]["message"].get<std::string>().find("larger than the 1000000 bytes"),
            std::string::npos)
      << r->body.substr(0, 300);
  EXPECT_LT(r->body.size(), 2000u);
  EXPECT_EQ(spent(), 0);

  json lenient = ok(scrape({{"url", world().url("/product")},
                            {"jsScenarioStrict", false},
                            {"jsScenario", json::array({large, fits, title})}}));
  const json& report = lenient["jsScenarioReport"];
  ASSERT_EQ(report.size(), 3u);
  EXPECT_EQ(report[0]["ok"], false);
  EXPECT_EQ(report[1]["ok"], true) << report[1];
  EXPECT_EQ(report[2]["ok"], true);
  ASSERT_EQ(lenient["evaluateResults"].size(), 3u);
  EXPECT_TRUE(lenient["evaluateResults"][0].is_null());
  EXPECT_EQ(lenient["evaluateResults"][1].get<std::string>().size(),
            static_cast<std::size_t>(kMaxEvaluateBytes - 2));
  EXPECT_EQ(lenient["evaluateResults"][2], "Kettle");
  EXPECT_EQ(restarts(), restarts_before);
}

// Issue 41, item 2: an answer has a size (max_answer_bytes); one past it is a 502
// answer_too_large, never charged, and the same request with less asked of it is answered.
TEST_F(Interactions, AnAnswerOverItsLimitIs502AndNotCharged) {
  const json step = {{"evaluate", "'z'.repeat(900000)"}};
  auto r = scrape(
      {{"url", world().url("/product")}, {"jsScenario", json::array({step, step, step, step})}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 502) << r->body.substr(0, 300);
  const json body = json_of(r);
  EXPECT_EQ(body["error"]["code"], "answer_too_large");
  EXPECT_NE(body["error"]["message"].get<std::string>().find("3000000 bytes"), std::string::npos);
  EXPECT_EQ(spent(), 0);

  json fits =
      ok(scrape({{"url", world().url("/product")}, {"jsScenario", json::array({step, step})}}));
  EXPECT_EQ(fits["evaluateResults"].size(), 2u);
  EXPECT_EQ(spent(), 5);
}

// ---- the plain road ----

TEST_F(Interactions, ThePlainRoadCostsOneCredit) {
  json body = ok(scrape({{"url", world().url("/article")},
                         {"jsRendering", false},
                         {"outputFormat", {"html", "text", "markdown", "json"}},
                         {"extractLinks", true},
                         {"onlyMainContent", true},
                         {"extractRules", {{"title", "h1"}, {"links", {{"selector", "a"}, {"type", "list"}, {"output", "@href"}}}}}}));
  EXPECT_EQ(body["extractedData"]["title"], "The river rose overnight");
  EXPECT_EQ(body["json"]["title"], "Story");
  EXPECT_EQ(spent(), 1);
}

TEST_F(Interactions, BrowserOnlyFieldsAreRefusedWithoutRendering) {
  auto r = scrape({{"url", world().url("/product")}, {"jsRendering", false}, {"waitFor", "h1"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(json_of(r)["error"]["parameter"], "waitFor");
  r = scrape({{"url", world().url("/product")}, {"extractRules", {{"price", {{"selector", "p >"}}}}}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(json_of(r)["error"]["parameter"], "extractRules.price.selector");
  EXPECT_EQ(spent(), 0);
}

}  // namespace
}  // namespace gleaner
