// The real webhook sender (cpp-httplib) against receivers on loopback: headers and body as sent,
// error statuses, a slow receiver timing out, a receiver hanging up, and the address guard.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <thread>

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

TEST_F(HttpSenderTest, AReceiverThatHangsUpIsANetworkErrorNotATimeout) {
  // A listener that reads the request and closes the connection without a word.
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  socklen_t len = sizeof addr;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  std::thread hang_up([listener] {
    const int c = ::accept(listener, nullptr, nullptr);
    if (c < 0) return;
    char buffer[4096];
    (void)::recv(c, buffer, sizeof buffer, 0);
    ::close(c);
  });
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/hook";
  WebhookResult r = sender_.send({url, {}, "{}", Millis(10'000)});
  hang_up.join();
  ::close(listener);
  EXPECT_EQ(r.outcome, outcome::kNetworkError) << r.detail;
  EXPECT_NE(r.detail.find("closed the connection"), std::string::npos) << r.detail;
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
