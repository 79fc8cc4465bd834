// Charging over HTTP against a whole service: exactly the successful requests are charged, never
// past the balance, whatever the concurrency; GET /account shows it; a client that leaves before
// its answer is not charged; GET /metrics counts it all.
#include "tests/accounts_api/service_fixture.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <map>
#include <vector>

namespace gleaner::testing {
namespace {

const std::string kFeed = std::string("/scrape/search/news?") + news::kFeed;

TEST(CreditsOverHttp, FiftyParallelRequestsWithCreditsForTwenty) {
  ServiceUnderTest& svc = shared_service();
  auto account = svc.create_account(200, 50);  // 20 feeds at 10 credits

  // A watcher reads the balance all along: it must never be seen below zero.
  std::atomic<bool> done{false};
  std::atomic<std::int64_t> lowest{200};
  std::thread watcher([&] {
    while (!done) {
      const std::int64_t b = svc.store().account_view(account.id).account.balance;
      std::int64_t seen = lowest.load();
      while (b < seen && !lowest.compare_exchange_weak(seen, b)) {
      }
      std::this_thread::sleep_for(Millis(2));  // reading pace: leave the store to the requests
    }
  });

  std::vector<std::future<int>> requests;
  for (int i = 0; i < 50; ++i) {
    requests.push_back(std::async(std::launch::async, [&] {
      auto r = svc.get(kFeed, account.key);
      if (!r) return -1;
      if (r->status == 200) {
        const auto body = json_of(r);
        if (body["requestMetadata"]["status"] != "ok" || body["newsResults"].size() != 92u) {
          return -2;
        }
      }
      return r->status;
    }));
  }
  std::map<int, int> statuses;
  for (auto& f : requests) ++statuses[f.get()];
  done = true;
  watcher.join();

  EXPECT_EQ(statuses[200], 20);
  EXPECT_EQ(statuses[402], 30);
  EXPECT_EQ(statuses.size(), 2u) << "other outcomes: -1 no response, -2 a 200 without the feed";
  const store::AccountView view = svc.store().account_view(account.id);
  EXPECT_EQ(view.account.balance, 0);
  EXPECT_GE(lowest.load(), 0);
  ASSERT_EQ(view.usage.size(), 1u);
  EXPECT_EQ(view.usage[0].endpoint, "search/news");
  EXPECT_EQ(view.usage[0].requests, 20);
  EXPECT_EQ(view.usage[0].credits, 200);
}

TEST(CreditsOverHttp, AccountShowsBalanceAllowancePeriodAndUsage) {
  ServiceUnderTest& svc = shared_service();
  auto account = svc.create_account(100);
  ASSERT_EQ(svc.get(kFeed, account.key)->status, 200);
  ASSERT_EQ(svc.get(kFeed, account.key)->status, 200);
  ASSERT_EQ(svc.get(std::string("/scrape/search/news?") + news::kBlocked, account.key)->status,
            502);  // not charged, not counted

  auto r = svc.get("/account", account.key);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const auto body = json_of(r);
  EXPECT_EQ(body["requestMetadata"]["status"], "ok");
  EXPECT_EQ(body["account"]["id"], account.id);
  EXPECT_EQ(body["balance"], 80);
  EXPECT_EQ(body["allowance"], 100);
  EXPECT_EQ(body["concurrencyLimit"], 10);  // the suite's account_concurrency
  const std::string end = body["periodEnd"];
  const std::string start = body["periodStart"];
  EXPECT_EQ(end.size(), 20u) << end;  // 2026-12-21T02:55:51Z
  EXPECT_EQ(end.back(), 'Z');
  EXPECT_LT(start, end);
  EXPECT_EQ(body["usage"]["requests"], 2);
  EXPECT_EQ(body["usage"]["credits"], 20);
  ASSERT_EQ(body["usage"]["endpoints"].size(), 1u);
  EXPECT_EQ(body["usage"]["endpoints"][0],
            (nlohmann::json{{"endpoint", "search/news"}, {"requests", 2}, {"credits", 20}}));
  // The failure is free, and counted among the account's errors by route and code.
  EXPECT_EQ(
      body["usage"]["errors"],
      (nlohmann::json::array(
          {{{"route", "/scrape/search/news"}, {"code", "upstream_blocked"}, {"requests", 1}}})));

  // Another account sees only its own.
  auto other = svc.create_account(50, 3);
  const auto theirs = json_of(svc.get("/account", other.key));
  EXPECT_EQ(theirs["balance"], 50);
  EXPECT_EQ(theirs["concurrencyLimit"], 3);
  EXPECT_EQ(theirs["usage"]["requests"], 0);
  EXPECT_TRUE(theirs["usage"]["endpoints"].empty());
  EXPECT_TRUE(theirs["usage"]["errors"].empty());
}

TEST(CreditsOverHttp, ErrorsAreCountedPerAccountRouteAndCode) {
  ServiceUnderTest& svc = shared_service();
  auto account = svc.create_account(100);
  auto other = svc.create_account(100);
  // Two refusals of a parameter, one unknown job: each counted on the key's account only.
  auto refused = svc.get("/scrape/search/news?q=x&gl=ZZZ", account.key);
  ASSERT_EQ(refused->status, 400) << refused->body;
  const std::string refusal = json_of(refused)["error"]["code"];
  ASSERT_EQ(svc.get("/scrape/search/news?q=x&gl=ZZZ", account.key)->status, 400);
  ASSERT_EQ(svc.get("/scrapers/jobs/00000000-0000-0000-0000-000000000000", account.key)->status,
            404);
  // A key that is not valid has no account to count on.
  ASSERT_EQ(svc.get("/scrape/search/news?q=x&gl=ZZZ", "gl_" + std::string(64, '0'))->status, 401);

  const auto body = json_of(svc.get("/account", account.key));
  const nlohmann::json& errors = body["usage"]["errors"];
  ASSERT_EQ(errors.size(), 2u) << errors.dump();
  EXPECT_EQ(errors[0],
            (nlohmann::json{{"route", "/scrape/search/news"}, {"code", refusal}, {"requests", 2}}))
      << errors.dump();
  EXPECT_EQ(
      errors[1],
      (nlohmann::json{{"route", "/scrapers/jobs/{id}"}, {"code", "not_found"}, {"requests", 1}}))
      << errors.dump();
  EXPECT_TRUE(json_of(svc.get("/account", other.key))["usage"]["errors"].empty());
}

/// Sends a GET over a raw socket and returns the socket (the caller closes it).
int send_raw_get(int port, const std::string& path, const std::string& key) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  const std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: " + key +
                              "\r\nConnection: close\r\n\r\n";
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    ::close(fd);
    return -1;
  }
  return fd;
}

TEST(CreditsOverHttp, AClientThatLeavesBeforeItsAnswerIsNotCharged) {
  ServiceUnderTest& svc = shared_service();
  auto account = svc.create_account(100);
  const std::string gone_series = R"(gleaner_uncharged_successes_total{reason="client_gone"})";
  const double gone_before = svc.metric(gone_series);
  const double running_before = svc.metric("gleaner_admission_running");

  // The slow page takes seconds to load; the client hangs up once its request is on a page.
  const int fd = send_raw_get(svc.port(), std::string("/scrape/search/news?") + news::kSlow,
                              account.key);
  ASSERT_GE(fd, 0);
  // The reservation overlaps the tab's opening (api/billing.cpp), so admission comes first and
  // the held credits a moment later: wait for both before hanging up.
  ASSERT_TRUE(ServiceUnderTest::eventually(
      [&] { return svc.metric("gleaner_admission_running") > running_before; }));
  EXPECT_TRUE(ServiceUnderTest::eventually(
      [&] { return svc.store().account_view(account.id).account.balance == 90; }))
      << "reserved while running";
  ::close(fd);

  // The page finishes (a 200 for nobody): released, not committed.
  ASSERT_TRUE(ServiceUnderTest::eventually(
      [&] { return svc.metric(gone_series) > gone_before; }));
  const store::AccountView view = svc.store().account_view(account.id);
  EXPECT_EQ(view.account.balance, 100);
  EXPECT_TRUE(view.usage.empty());

  // The same page for a client that waits is charged.
  auto r = svc.get(std::string("/scrape/search/news?") + news::kSlow, account.key);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(svc.store().account_view(account.id).account.balance, 90);
}

TEST(CreditsOverHttp, MetricsCountRequestsCreditsAndThePool) {
  ServiceUnderTest& svc = shared_service();
  auto account = svc.create_account(100);
  const std::string ok_series =
      R"(gleaner_http_requests_total{route="/scrape/search/news",method="GET",status="200"})";
  const std::string credits_series = R"(gleaner_credits_charged_total{endpoint="search/news"})";
  const double ok_before = svc.metric(ok_series);
  const double credits_before = svc.metric(credits_series);
  ASSERT_EQ(svc.get(kFeed, account.key)->status, 200);
  ASSERT_EQ(svc.get("/nowhere", "")->status, 404);

  auto r = svc.client()->Get("/metrics");  // no key needed
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(svc.metric(ok_series), ok_before + 1);
  EXPECT_EQ(svc.metric(credits_series), credits_before + 10);
  EXPECT_GE(svc.metric(R"(gleaner_http_requests_total{route="unmatched",method="GET",status="404"})"), 1);
  EXPECT_GE(svc.metric(R"(gleaner_http_request_duration_seconds_count{route="/scrape/search/news"})"),
            1);
  EXPECT_EQ(svc.metric("gleaner_pool_processes"), 1);
  EXPECT_GE(svc.metric("gleaner_pool_pages_served_total"), 1);
  EXPECT_NE(r->body.find("# TYPE gleaner_browser_restarts_total counter"), std::string::npos);
  EXPECT_NE(r->body.find("# TYPE gleaner_admission_queue_length gauge"), std::string::npos);
}

}  // namespace
}  // namespace gleaner::testing
