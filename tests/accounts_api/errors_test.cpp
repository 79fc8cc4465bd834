// Every error code of spec/conventions.md's table, over HTTP against a whole service on port 0:
// status, envelope, `error.code` (and `parameter`, Retry-After where they belong), and that
// nothing ending in an error is charged.
#include <gtest/gtest.h>

#include <future>

#include "tests/accounts_api/service_fixture.h"

namespace gleaner::testing {
namespace {

class ErrorsOverHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    svc = &shared_service();
    account = svc->create_account(1000);
  }

  /// The response is an error in the service's one shape, with `code`.
  static void expect_error(const httplib::Result& r, int status, const std::string& code) {
    ASSERT_TRUE(r) << "no response: " << httplib::to_string(r.error());
    EXPECT_EQ(r->status, status) << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
    const nlohmann::json body = json_of(r);
    ASSERT_TRUE(body.is_object()) << r->body;
    EXPECT_EQ(r->body.rfind("{\"requestMetadata\":", 0), 0u) << r->body;
    EXPECT_EQ(body["requestMetadata"]["status"], "error");
    EXPECT_EQ(body["requestMetadata"]["id"], r->get_header_value("X-Request-Id"));
    EXPECT_EQ(body["error"]["code"], code) << r->body;
    EXPECT_TRUE(body["error"]["message"].is_string());
  }

  /// Nothing was charged to the test's account: full balance, no usage, no credits held.
  void expect_uncharged() const {
    const store::AccountView view = svc->store().account_view(account.id);
    EXPECT_EQ(view.account.balance, 1000);
    EXPECT_TRUE(view.usage.empty());
  }

  std::string news(const std::string& query) const { return "/scrape/search/news?" + query; }

  ServiceUnderTest* svc = nullptr;
  ServiceUnderTest::NewAccount account;
};

TEST_F(ErrorsOverHttp, InvalidParameterNamesIt) {
  auto r = svc->get(news("gl=USA"), account.key);
  expect_error(r, 400, "invalid_parameter");
  EXPECT_EQ(json_of(r)["error"]["parameter"], "gl");
  expect_uncharged();
}

// Issue 16, item 6: /health showed Chromium's process ids to anyone.
TEST_F(ErrorsOverHttp, HealthShowsBrowserDetailOnlyToAValidKey) {
  // The pool starts its browser in the background: wait until it is up.
  ASSERT_TRUE(ServiceUnderTest::eventually([&] {
    auto r = svc->get("/health", "");
    return r && r->status == 200;
  }));
  auto open = svc->get("/health", "");
  ASSERT_TRUE(open);
  EXPECT_EQ(open->status, 200) << open->body;
  const nlohmann::json anyone = json_of(open);
  EXPECT_EQ(anyone["status"], "ok");
  EXPECT_GE(anyone["pool"]["processes"].get<int>(), 1);
  EXPECT_FALSE(anyone["pool"].contains("browsers")) << open->body;
  EXPECT_EQ(open->body.find("pid"), std::string::npos) << open->body;

  auto keyed = svc->get("/health", account.key);
  ASSERT_TRUE(keyed);
  const nlohmann::json detail = json_of(keyed);
  ASSERT_TRUE(detail["pool"]["browsers"].is_array()) << keyed->body;
  ASSERT_FALSE(detail["pool"]["browsers"].empty());
  EXPECT_GT(detail["pool"]["browsers"][0]["pid"].get<long>(), 0);
  // A service answering no phone or tablet yet runs the desktop's browsers only.
  EXPECT_EQ(detail["pool"]["browsers"][0]["device"], "desktop");

  expect_error(svc->get("/health", "gl_" + std::string(64, '0')), 401, "invalid_api_key");
}

TEST_F(ErrorsOverHttp, MissingParameterNamesIt) {
  auto r = svc->get("/scrape/search/finance", account.key);
  expect_error(r, 400, "missing_parameter");
  EXPECT_EQ(json_of(r)["error"]["parameter"], "q");
  expect_uncharged();
}

TEST_F(ErrorsOverHttp, ConflictingParametersNamesTheSecond) {
  auto r = svc->get(news("q=bears&topicToken=CAAqBwgKMNrVlwsw"), account.key);
  expect_error(r, 400, "conflicting_parameters");
  EXPECT_TRUE(json_of(r)["error"].contains("parameter"));
  expect_uncharged();
}

TEST_F(ErrorsOverHttp, AMalformedBodyIsInvalidJson) {
  httplib::Headers headers{{"x-api-key", account.key}};
  expect_error(svc->client()->Post("/scrape/web", headers, "{\"url\": ", "application/json"), 400,
               "invalid_json");
  expect_error(svc->client()->Post("/scrape/web", headers, "[1, 2]", "application/json"), 400,
               "invalid_json");
  expect_uncharged();
}

// Issue 34, finding 2: a 100 KB body of 50,000 nested arrays under any field of a batch or a
// crawl took the whole service down (recursive copy and dump of the body).
TEST_F(ErrorsOverHttp, ABodyNestedDeeperThanTheLimitIsInvalidJsonAndTheServiceKeepsAnswering) {
  httplib::Headers headers{{"x-api-key", account.key}};
  // 50,000 levels where the route takes 100 KB (the batch's own body limit); elsewhere as deep as
  // this suite's 4 KiB bodies allow, still far past the limit.
  const std::string deep = std::string(50'000, '[') + std::string(50'000, ']');
  const std::string small = std::string(1'900, '[') + std::string(1'900, ']');
  const std::string page = R"("url": "https://example.com/", )";
  const std::string pages = R"("urls": ["https://example.com/"], )";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/scrape/web", "{" + page + R"("extractRules": )" + small + "}"},
      {"/scrape/batch/web", "{" + pages + R"("extractRules": )" + deep + "}"},
      {"/scrape/batch/web", "{" + pages + R"("webhook": )" + deep + "}"},
      {"/scrapers/crawler/jobs", "{" + pages + R"("includePaths": )" + small + "}"},
      {"/scrapers/crawler/jobs", "{" + pages + R"("anything": )" + small + "}"},
      {"/scrapers/maps/jobs", R"({"keywords": )" + small + "}"},
  };
  for (const auto& [route, body] : cases) {
    SCOPED_TRACE(route + " " + body.substr(0, 60));
    auto r = svc->client()->Post(route, headers, body, "application/json");
    expect_error(r, 400, "invalid_json");
    EXPECT_NE(json_of(r)["error"]["message"].get<std::string>().find("deeper than 64 levels"),
              std::string::npos);
    ASSERT_TRUE(svc->get("/health", "")) << "the service stopped answering";
  }
  // 64 levels, the body's own included, are still a body (a 400 for what the field holds).
  auto r = svc->client()->Post(
      "/scrape/web", headers,
      "{" + page + R"("extractRules": )" + std::string(63, '[') + std::string(63, ']') + "}",
      "application/json");
  expect_error(r, 400, "invalid_parameter");
  // A GET's query is read into a body the same way.
  std::string query = "/scrape/web?url=https%3A%2F%2Fexample.com%2F&extractRules=";
  for (int i = 0; i < 65; ++i) query += "%5B";
  for (int i = 0; i < 65; ++i) query += "%5D";
  expect_error(svc->get(query, account.key), 400, "invalid_json");
  expect_uncharged();
}

TEST_F(ErrorsOverHttp, NoKeyIsMissingApiKey) {
  expect_error(svc->get(news(news::kFeed), ""), 401, "missing_api_key");
  expect_error(svc->get("/account", ""), 401, "missing_api_key");
  expect_uncharged();
}

TEST_F(ErrorsOverHttp, AnUnknownOrRevokedKeyIsInvalidApiKey) {
  expect_error(svc->get(news(news::kFeed), "gl_" + std::string(64, '0')), 401, "invalid_api_key");
  expect_error(svc->get("/account", "not-a-key"), 401, "invalid_api_key");
  auto second = svc->store().create_key(account.id);
  ASSERT_TRUE(svc->store().revoke_key(second.info.id));
  expect_error(svc->get(news(news::kFeed), second.key), 401, "invalid_api_key");
  expect_uncharged();
}

TEST_F(ErrorsOverHttp, AKeyIsCheckedBeforeTheParameters) {
  // A request that is wrong twice hears about the key first.
  expect_error(svc->get(news("gl=USA"), ""), 401, "missing_api_key");
}

TEST_F(ErrorsOverHttp, ABalanceBelowTheCostIsInsufficientCreditsBeforeAnyPageLoads) {
  auto poor = svc->create_account(9);  // the feed costs 10
  auto replay = svc->deps().pool->replay();
  ASSERT_TRUE(replay);
  const std::size_t loads_before = replay->requests().size();
  auto r = svc->get(news(news::kFeed), poor.key);
  expect_error(r, 402, "insufficient_credits");
  EXPECT_EQ(replay->requests().size(), loads_before) << "a page was loaded for a refused request";
  EXPECT_EQ(svc->store().account_view(poor.id).account.balance, 9);
  // Validation still comes first: a bad request from a poor account is a 400.
  expect_error(svc->get(news("gl=USA"), poor.key), 400, "invalid_parameter");
}

TEST_F(ErrorsOverHttp, AnUnknownRouteIsNotFound) {
  expect_error(svc->get("/scrape/nowhere/page", account.key), 404, "not_found");
  expect_error(svc->get("/", ""), 404, "not_found");
}

// The routes without a key answer without one (their answers are checked against the OpenAPI
// document like every other, by openapi_suite_answers).
TEST_F(ErrorsOverHttp, TheOpenApiDocumentAndTheMetricsNeedNoKey) {
  auto doc = svc->get("/openapi.json", "");
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->status, 200);
  EXPECT_EQ(json_of(doc)["openapi"], "3.1.0");
  auto metrics = svc->get("/metrics", "");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  EXPECT_NE(metrics->body.find("gleaner_pool_processes"), std::string::npos);
}

TEST_F(ErrorsOverHttp, APageThatDoesNotExistIsNotFound) {
  expect_error(svc->get(news(news::kMissing), account.key), 404, "not_found");
  expect_uncharged();
}

TEST_F(ErrorsOverHttp, AWrongMethodIsMethodNotAllowed) {
  httplib::Headers headers{{"x-api-key", account.key}};
  expect_error(svc->client()->Post("/account", headers, "{}", "application/json"), 405,
               "method_not_allowed");
  expect_error(svc->client()->Delete("/scrape/search/news", headers), 405, "method_not_allowed");
  expect_uncharged();
}

TEST_F(ErrorsOverHttp, ABodyOverTheLimitIsPayloadTooLarge) {
  httplib::Headers headers{{"x-api-key", account.key}};
  const std::string big(8192, 'x');  // the suite's limit is 4096 bytes
  expect_error(svc->client()->Post("/account", headers, big, "application/json"), 413,
               "payload_too_large");
}

TEST_F(ErrorsOverHttp, ABlockPageIsUpstreamBlocked) {
  expect_error(svc->get(news(news::kBlocked), account.key), 502, "upstream_blocked");
  expect_uncharged();
}

// A page that is no wall and no error page but holds no feed: extraction_failed, not charged,
// and counted in field health as an answer without any of the endpoint's fields.
TEST_F(ErrorsOverHttp, APageWithoutItsDataIsExtractionFailedAndCountedInFieldHealth) {
  const std::string absent =
      R"(gleaner_extract_field_total{endpoint="search/news",field="newsResults[].title",)"
      R"(present="false"} )";
  auto count = [&]() -> long long {
    auto metrics = svc->get("/metrics", "");
    if (!metrics) return -1;
    const auto at = metrics->body.find(absent);
    return at == std::string::npos ? 0 : std::stoll(metrics->body.substr(at + absent.size()));
  };
  const long long before = count();
  expect_error(svc->get(news(news::kNoFeed), account.key), 502, "extraction_failed");
  expect_uncharged();
  EXPECT_EQ(count(), before + 1);
}

TEST_F(ErrorsOverHttp, ASiteErrorIsUpstreamError) {
  expect_error(svc->get(news(news::kBroken), account.key), 502, "upstream_error");
  expect_uncharged();
}

TEST_F(ErrorsOverHttp, APagesOwnScriptCannotBreakTheReading) {
  // It once could (a 500): the endpoints' scripts now run in a world of their own. A script of
  // ours that fails is an internal error (tests/extract's PageFlow; the 500 itself: tests/api).
  auto r = svc->get(news(news::kTampered), account.key);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const auto body = json_of(r);
  ASSERT_EQ(body["newsResults"].size(), 1u) << r->body;
  EXPECT_EQ(body["newsResults"][0]["title"], "Kept");
}

// One account allowed one request at a time: while a page hangs, its second request is a 429
// with Retry-After; the hung page then runs out of its time budget, a 504. Neither is charged.
// A service of its own, with a short budget, whose Chromium (busy with the hung page) ends with it.
TEST_F(ErrorsOverHttp, OverTheAccountsLimitIsTooManyRequestsAndAHungPageIsATimeout) {
  TempDir dir;
  Config config = service_config(dir.path(), shared_archive().dir());
  config.set("endpoint_timeout_ms", 3000);
  ServiceUnderTest short_budget(std::move(config));
  auto single = short_budget.create_account(1000, 1);
  auto hung = std::async(std::launch::async,
                         [&] { return short_budget.get(news(news::kHang), single.key); });
  ASSERT_TRUE(ServiceUnderTest::eventually(
      [&] { return short_budget.metric("gleaner_admission_running") == 1; }));

  auto refused = short_budget.get(news(news::kFeed), single.key);
  expect_error(refused, 429, "too_many_requests");
  EXPECT_FALSE(refused->get_header_value("Retry-After").empty());
  EXPECT_GT(std::stoi(refused->get_header_value("Retry-After")), 0);

  expect_error(hung.get(), 504, "timeout");
  const store::AccountView view = short_budget.store().account_view(single.id);
  EXPECT_EQ(view.account.balance, 1000);
  EXPECT_TRUE(view.usage.empty());
}

// No browser can be had: a service whose Chromium never starts answers 503 once the lease wait
// is over, and charges nothing.
TEST_F(ErrorsOverHttp, NoBrowserIsUnavailable) {
  TempDir dir;
  Config config = service_config(dir.path(), shared_archive().dir());
  config.set("chromium_path", "/bin/false");
  config.set("lease_wait_ms", 500);
  ServiceUnderTest broken(std::move(config));
  auto poorly = broken.create_account(100);
  expect_error(broken.get(news(news::kFeed), poorly.key), 503, "unavailable");
  const store::AccountView view = broken.store().account_view(poorly.id);
  EXPECT_EQ(view.account.balance, 100);
  EXPECT_TRUE(view.usage.empty());
}

// Issue 41, item 2: the store's disk is watched. Short of room (here: a threshold no disk
// meets), a new job is a 507 and GET /health says so, the free bytes only to a key. The node
// has no browser: the disk's answer does not wait for one.
TEST_F(ErrorsOverHttp, ADiskShortOfRoomRefusesNewJobsAndHealthSaysSo) {
  TempDir dir;
  Config config = service_config(dir.path(), shared_archive().dir());
  config.set("chromium_path", "/bin/false");
  config.set("min_free_disk_bytes", static_cast<long long>(std::int64_t{1} << 62));
  ServiceUnderTest full(std::move(config));
  auto caller = full.create_account(100);
  auto open = full.get("/health", "");
  ASSERT_TRUE(open);
  const nlohmann::json anyone = json_of(open);
  EXPECT_EQ(anyone["storage"], nlohmann::json({{"low", true}})) << open->body;
  auto keyed = full.get("/health", caller.key);
  ASSERT_TRUE(keyed);
  const nlohmann::json detail = json_of(keyed)["storage"];
  EXPECT_EQ(detail["low"], true);
  EXPECT_GT(detail["freeBytes"].get<std::int64_t>(), 0) << keyed->body;
  EXPECT_EQ(detail["minFreeBytes"].get<std::int64_t>(), std::int64_t{1} << 62);

  httplib::Headers headers{{"x-api-key", caller.key}};
  auto refused = full.client()->Post("/scrape/batch/web", headers,
                                     R"({"urls": ["https://example.com/"]})", "application/json");
  expect_error(refused, 507, "insufficient_storage");
  const store::AccountView view = full.store().account_view(caller.id);
  EXPECT_EQ(view.account.balance, 100);
}

}  // namespace
}  // namespace gleaner::testing
