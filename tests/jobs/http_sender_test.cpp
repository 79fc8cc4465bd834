// The real webhook sender against receivers on loopback: headers and body as sent, error
// statuses, a slow receiver timing out, a receiver hanging up, receivers whose answers never end
// (issue 23), and the address guard.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <functional>
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

/// A receiver on loopback that reads the request, then runs `answer` on the connection (on its
/// own thread) until it returns or the connection fails; the sender's url is url().
class RawReceiver {
 public:
  explicit RawReceiver(std::function<void(int fd)> answer) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(listener_, 4);
    socklen_t len = sizeof addr;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this, answer = std::move(answer)] {
      const int c = ::accept(listener_, nullptr, nullptr);
      if (c < 0) return;
      std::string request;
      char buffer[4096];
      while (request.find("\r\n\r\n{}") == std::string::npos) {
        const ssize_t n = ::recv(c, buffer, sizeof buffer, 0);
        if (n <= 0) break;
        request.append(buffer, static_cast<std::size_t>(n));
      }
      answer(c);
      ::close(c);
    });
  }
  ~RawReceiver() {
    ::shutdown(listener_, SHUT_RDWR);
    thread_.join();
    ::close(listener_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/hook"; }

 private:
  int listener_ = -1;
  int port_ = 0;
  std::thread thread_;
};

/// Sends `bytes` whole; false once the sender has gone.
bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

/// The resident memory of this process, in bytes.
std::size_t resident_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  }
  return 0;
}

// Issue 23, item 1: a receiver answering 200 with `Content-Length: 50G` and streaming took the
// service to 8.25 GB. Only the status is read: the delivery is ok, and memory stays flat while
// the receiver goes on sending until the sender has closed.
TEST_F(HttpSenderTest, AnEndlessAnswerIsNotRead) {
  std::atomic<std::size_t> streamed{0};
  RawReceiver receiver([&](int fd) {
    if (!send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 53687091200\r\n\r\n")) return;
    const std::string chunk(1 << 20, 'x');
    while (streamed < (std::size_t{1} << 32) && send_all(fd, chunk)) streamed += chunk.size();
  });
  WebhookResult r = sender_.send({receiver.url(), {}, "{}", Millis(10'000)});
  EXPECT_TRUE(r.ok()) << r.detail;
  EXPECT_EQ(r.http_status, 200);
  EXPECT_LT(resident_bytes(), 200u << 20);
}

// 300,000 answer headers cost 75 MB before: the status line is all that is read.
TEST_F(HttpSenderTest, EndlessAnswerHeadersAreNotRead) {
  RawReceiver receiver([](int fd) {
    if (!send_all(fd, "HTTP/1.1 503 Busy\r\n")) return;
    const std::string headers = [] {
      std::string h;
      for (int i = 0; i < 1000; ++i) h += "X-Padding-" + std::to_string(i) + ": aaaaaaaaaaaaaaaa\r\n";
      return h;
    }();
    for (int i = 0; i < 300 && send_all(fd, headers); ++i) {
    }
  });
  WebhookResult r = sender_.send({receiver.url(), {}, "{}", Millis(10'000)});
  EXPECT_EQ(r.outcome, outcome::kHttpError) << r.detail;
  EXPECT_EQ(r.http_status, 503);
  EXPECT_LT(resident_bytes(), 200u << 20);
}

// Interim answers that never end cost the first kMaxAnswerBytes of the answer, then the attempt
// ends as a network error.
TEST_F(HttpSenderTest, AnAnswerWithoutAStatusInItsFirstBytesIsANetworkError) {
  RawReceiver receiver([](int fd) {
    if (!send_all(fd, "HTTP/1.1 102 Processing\r\n")) return;
    const std::string line = "X-Still-Working: " + std::string(100, 'w') + "\r\n";
    for (int i = 0; i < 100000 && send_all(fd, line); ++i) {
    }
  });
  WebhookResult r = sender_.send({receiver.url(), {}, "{}", Millis(10'000)});
  EXPECT_EQ(r.outcome, outcome::kNetworkError) << r.detail;
  EXPECT_NE(r.detail.find(std::to_string(HttpWebhookSender::kMaxAnswerBytes)), std::string::npos)
      << r.detail;
}

// One deadline per attempt, not per read: a receiver that sends its status line a byte at a
// time, each byte well within any per-read timeout, is cut off at the attempt's deadline.
TEST_F(HttpSenderTest, ATricklingReceiverIsCutOffAtTheAttemptsDeadline) {
  std::atomic<bool> stop{false};
  RawReceiver receiver([&](int fd) {
    const std::string slow = "HTTP/1.1 102 Processing\r\nX: " + std::string(4000, 'z');
    for (char ch : slow) {
      if (stop || !send_all(fd, std::string_view(&ch, 1))) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  const auto began = std::chrono::steady_clock::now();
  WebhookResult r = sender_.send({receiver.url(), {}, "{}", Millis(500)});
  const auto took = std::chrono::steady_clock::now() - began;
  stop = true;
  EXPECT_EQ(r.outcome, outcome::kTimeout) << r.detail;
  // The bytes alone would take 80 s; the bound is loose so that a loaded machine passes.
  EXPECT_LT(took, std::chrono::seconds(10));
}

// Issue 34, item 10: the sender is the service's one HTTP client (libcurl) now, with the limits
// its own client had: no redirect is followed, and the name is connected to only at the address
// checked, whatever it is called.
TEST_F(HttpSenderTest, ARedirectIsNotFollowed) {
  std::atomic<int> followed{0};
  testing::LocalServer receiver;
  receiver.server().Post("/hook", [&](const httplib::Request&, httplib::Response& res) {
    res.status = 307;
    res.set_header("Location", "/elsewhere");
  });
  receiver.server().Post("/elsewhere", [&](const httplib::Request&, httplib::Response& res) {
    ++followed;
    res.status = 204;
  });
  receiver.start();
  WebhookResult r = sender_.send({receiver.url("/hook"), {}, "{}", Millis(10'000)});
  EXPECT_EQ(r.outcome, outcome::kHttpError) << r.detail;
  EXPECT_EQ(r.http_status, 307);
  EXPECT_EQ(followed, 0);
}

TEST_F(HttpSenderTest, ANameIsConnectedToOnlyAtTheAddressesChecked) {
  testing::LocalServer receiver;
  std::atomic<int> delivered{0};
  std::string host_seen;
  std::mutex mutex;  // guards host_seen
  receiver.server().Post("/hook", [&](const httplib::Request& req, httplib::Response& res) {
    ++delivered;
    std::lock_guard lock(mutex);
    host_seen = req.get_header_value("Host");
    res.status = 204;
  });
  receiver.start();
  const std::string port = std::to_string(receiver.port());
  const auto names =
      proxies::OverrideResolver::parse({{"hooks.test", "127.0.0.1"}, {"inside.test", "10.0.0.1"}});
  // A name that does not exist for the system resolver: only the sender's own resolution finds
  // it, so a delivery that arrives was connected to the address it checked.
  HttpWebhookSender allowed(proxies::AddressGuard(true),
                            std::make_shared<proxies::OverrideResolver>(
                                names, std::make_shared<proxies::SystemResolver>()));
  WebhookResult r = allowed.send({"http://HOOKS.test:" + port + "/hook", {}, "{}", Millis(10'000)});
  EXPECT_TRUE(r.ok()) << r.detail;
  EXPECT_EQ(delivered, 1);
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(host_seen, "hooks.test:" + port);
  }

  HttpWebhookSender strict(proxies::AddressGuard(false),
                           std::make_shared<proxies::OverrideResolver>(
                               names, std::make_shared<proxies::SystemResolver>()));
  for (const char* name : {"hooks.test", "inside.test"}) {
    SCOPED_TRACE(name);
    WebhookResult refused =
        strict.send({std::string("http://") + name + ":" + port + "/hook", {}, "{}", Millis(1000)});
    EXPECT_EQ(refused.outcome, outcome::kRefused) << refused.detail;
    // What the name resolved to is the service's network: not told.
    EXPECT_EQ(refused.detail.find("127.0.0.1"), std::string::npos) << refused.detail;
    EXPECT_EQ(refused.detail.find("10.0.0.1"), std::string::npos) << refused.detail;
  }
  EXPECT_EQ(delivered, 1);
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
