// The Beast websocket transport against a loopback websocket server on port 0.
#include "cdp/connection.h"
#include "cdp/transport.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <gtest/gtest.h>

#include <future>
#include <thread>

using namespace gleaner;
namespace net = boost::asio;
namespace websocket = boost::beast::websocket;
using tcp = net::ip::tcp;

namespace {

constexpr Millis kWait(5000);

/// Accepts one websocket client and answers each command `{"id":N,...}` with
/// `{"id":N,"result":{"echo":<params>}}`; a command with method "Test.quit" makes it close.
class EchoServer {
 public:
  EchoServer() : acceptor_(ioc_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
    thread_ = std::thread([this] {
      try {
        tcp::socket socket(ioc_);
        acceptor_.accept(socket);
        websocket::stream<tcp::socket> ws(std::move(socket));
        ws.read_message_max(64u << 20);
        ws.accept();
        for (;;) {
          boost::beast::flat_buffer buffer;
          ws.read(buffer);
          auto msg = nlohmann::json::parse(boost::beast::buffers_to_string(buffer.data()));
          if (msg["method"] == "Test.quit") {
            ws.close(websocket::close_code::normal);
            return;
          }
          nlohmann::json reply = {{"id", msg["id"]}, {"result", {{"echo", msg["params"]}}}};
          ws.text(true);
          ws.write(net::buffer(reply.dump()));
        }
      } catch (const std::exception&) {
        // The client went away: the test is over.
      }
    });
  }
  ~EchoServer() {
    acceptor_.close();
    thread_.join();
  }
  std::string url() const {
    return "ws://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + "/devtools";
  }

 private:
  net::io_context ioc_;
  tcp::acceptor acceptor_;
  std::thread thread_;
};

}  // namespace

TEST(WebSocketTransport, CallsRoundTripInOrderIncludingLargeMessages) {
  EchoServer server;
  cdp::Connection connection(cdp::connect_websocket(server.url(), deadline_in(kWait)));
  std::vector<cdp::PendingCall> calls;
  for (int i = 0; i < 100; ++i) {
    calls.push_back(connection.send("Test.echo", {{"i", i}}, "", deadline_in(kWait)));
  }
  for (int i = 0; i < 100; ++i) EXPECT_EQ(calls[i].get()["echo"]["i"], i);
  // As large as a tall page's screenshot: above Beast's default 16 MiB message limit. The echo
  // parses and writes 20 MiB of JSON on each side (about 2 s alone, far more beside the Chromium
  // suites on two cores), so this call gets a deadline about size, not speed.
  std::string big(20u << 20, 'x');
  auto r = connection.call("Test.echo", {{"data", big}}, "", deadline_in(Millis(120000)));
  EXPECT_EQ(r["echo"]["data"].get<std::string>().size(), big.size());
}

TEST(WebSocketTransport, PeerCloseFailsPendingCallsAndReportsIt) {
  EchoServer server;
  cdp::Connection connection(cdp::connect_websocket(server.url(), deadline_in(kWait)));
  std::promise<std::string> closed;
  connection.set_close_handler([&](const std::string& why) { closed.set_value(why); });
  connection.notify("Test.quit", nlohmann::json::object(), "");
  auto future = closed.get_future();
  ASSERT_EQ(future.wait_for(kWait), std::future_status::ready);
  EXPECT_TRUE(connection.closed());
  try {
    connection.call("Test.echo", nlohmann::json::object(), "", deadline_in(kWait));
    FAIL();
  } catch (const cdp::Error& e) {
    EXPECT_EQ(e.kind(), cdp::ErrorKind::Closed);
  }
}

TEST(WebSocketTransport, RefusedConnectionIsATypedError) {
  net::io_context ioc;
  tcp::acceptor probe(ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  auto port = probe.local_endpoint().port();
  probe.close();  // nothing listens there now
  try {
    cdp::connect_websocket("ws://127.0.0.1:" + std::to_string(port) + "/x", deadline_in(kWait));
    FAIL();
  } catch (const cdp::Error& e) {
    EXPECT_EQ(e.kind(), cdp::ErrorKind::Closed);
    EXPECT_EQ(e.method(), "connect");
  }
}

TEST(WebSocketTransport, SilentPeerTimesOutAtTheDeadline) {
  net::io_context ioc;
  tcp::acceptor silent(ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));  // never accepts
  auto url = "ws://127.0.0.1:" + std::to_string(silent.local_endpoint().port()) + "/x";
  auto started = SteadyClock::now();
  try {
    cdp::connect_websocket(url, deadline_in(Millis(200)));
    FAIL();
  } catch (const cdp::Error& e) {
    EXPECT_EQ(e.kind(), cdp::ErrorKind::Timeout);
  }
  EXPECT_LT(SteadyClock::now() - started, kWait);
}

TEST(WebSocketTransport, RejectsUrlsThatAreNotWebsockets) {
  EXPECT_THROW(cdp::connect_websocket("http://127.0.0.1:9222/", deadline_in(kWait)), cdp::Error);
}
