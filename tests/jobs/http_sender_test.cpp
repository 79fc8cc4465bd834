// The real webhook sender (cpp-httplib) against receivers on loopback: headers and body as sent,
// error statuses, a slow receiver timing out, and the address guard.
#include <gtest/gtest.h>

#include <mutex>

#include "jobs/http_webhook_sender.h"
#include "tests/support/gate.h"
#include "tests/support/local_server.h"

namespace gleaner::jobs {
namespace {

/// Loopback receivers are allowed here by the guard's explicit setting only.
class HttpSenderTest : public ::testing::Test {
 protected:
  HttpWebhookSender sender_{proxies::AddressGuard(true),
                            std::make_shared<proxies::SystemResolver>()};
};

TEST_F(HttpSenderTest, PostsTheBodyWithTheCustomHeaders) {
  std::mutex mutex;  // guards got_*
  std::string got_body, got_token, got_type;
  testing::LocalServer receiver;
  receiver.server().Post("/hook", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex);
    got_body = req.body;
    got_token = req.get_header_value("X-Token");
    got_type = req.get_header_value("Content-Type");
    res.status = 204;
  });
  receiver.start();
  WebhookResult r = sender_.send({receiver.url("/hook?x=1"),
                                  {{"X-Token", "s3cret"}},
                                  R"({"event":"scraper.job.started"})",
                                  Millis(10'000)});
  EXPECT_TRUE(r.ok()) << r.detail;
  EXPECT_EQ(r.http_status, 204);
  std::lock_guard lock(mutex);
  EXPECT_EQ(got_body, R"({"event":"scraper.job.started"})");
  EXPECT_EQ(got_token, "s3cret");
  EXPECT_EQ(got_type, "application/json");
}

TEST_F(HttpSenderTest, AnErrorStatusIsAnHttpError) {
  testing::LocalServer receiver;
  receiver.server().Post("/hook",
                         [](const httplib::Request&, httplib::Response& res) { res.status = 500; });
  receiver.start();
  WebhookResult r = sender_.send({receiver.url("/hook"), {}, "{}", Millis(10'000)});
  EXPECT_EQ(r.outcome, outcome::kHttpError);
  EXPECT_EQ(r.http_status, 500);
}

TEST_F(HttpSenderTest, ASlowReceiverTimesOut) {
  testing::Gate answer;
  testing::LocalServer receiver;
  receiver.server().Post("/hook", [&](const httplib::Request&, httplib::Response& res) {
    answer.wait();  // held until the test has seen the timeout
    res.status = 200;
  });
  receiver.start();
  WebhookResult r = sender_.send({receiver.url("/hook"), {}, "{}", Millis(300)});
  answer.open();
  EXPECT_EQ(r.outcome, outcome::kTimeout) << r.detail;
  EXPECT_FALSE(r.http_status.has_value());
}

TEST_F(HttpSenderTest, TheAddressGuardRefusesLoopbackUnlessAllowed) {
  HttpWebhookSender strict(proxies::AddressGuard(false),
                           std::make_shared<proxies::SystemResolver>());
  EXPECT_EQ(strict.send({"http://127.0.0.1:9/hook", {}, "{}", Millis(1000)}).outcome,
            outcome::kRefused);
  EXPECT_EQ(strict.send({"http://localhost:9/hook", {}, "{}", Millis(1000)}).outcome,
            outcome::kRefused);
}

}  // namespace
}  // namespace gleaner::jobs
