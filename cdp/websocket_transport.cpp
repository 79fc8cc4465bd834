// The real transport: one websocket to a Chromium DevTools endpoint (Boost.Beast), with its own
// I/O thread. Writes are queued and issued from the queue head, one in flight at a time, all on
// that thread (the pattern of Beast's chat-multi example), so send() never blocks.
#include "cdp/error.h"
#include "cdp/transport.h"
#include "core/log.h"
#include "core/regex.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <atomic>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

namespace gleaner::cdp {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

// A screenshot of a tall page arrives as one large base64 message.
constexpr std::size_t kMaxMessageBytes = 512u * 1024 * 1024;

class WebSocketTransport final : public Transport {
 public:
  WebSocketTransport() : work_(net::make_work_guard(ioc_)), ws_(ioc_) {}

  ~WebSocketTransport() override {
    close();
    work_.reset();
    if (thread_.joinable()) thread_.join();
  }

  void connect(const std::string& host, const std::string& port, const std::string& path,
               Deadline deadline) {
    std::promise<beast::error_code> done;
    auto result = done.get_future();
    auto resolver = std::make_shared<tcp::resolver>(ioc_);
    beast::get_lowest_layer(ws_).expires_after(time_left(deadline));
    resolver->async_resolve(host, port, [this, resolver, host, port, path, &done](
                                            beast::error_code ec, tcp::resolver::results_type r) {
      if (ec) return done.set_value(ec);
      beast::get_lowest_layer(ws_).async_connect(
          r, [this, host, port, path, &done](beast::error_code ec2, const tcp::endpoint&) {
            if (ec2) return done.set_value(ec2);
            ws_.async_handshake(host + ":" + port, path,
                                [&done](beast::error_code ec3) { done.set_value(ec3); });
          });
    });
    // run_one_for, not run_for: the work guard would keep run_for going until the deadline.
    while (result.wait_for(std::chrono::seconds(0)) != std::future_status::ready &&
           SteadyClock::now() < deadline + Millis(50)) {
      ioc_.run_one_for(time_left(deadline) + Millis(50));
    }
    if (result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      ioc_.stop();  // abandons the pending operations; their handlers never run
      throw Error(ErrorKind::Timeout, "connect", "websocket handshake with " + host + ":" + port +
                                                     " did not finish in time");
    }
    if (auto ec = result.get()) {
      if (ec == beast::error::timeout) {
        throw Error(ErrorKind::Timeout, "connect", "websocket handshake with " + host + ":" +
                                                       port + " did not finish in time");
      }
      throw Error(ErrorKind::Closed, "connect",
                  "websocket to " + host + ":" + port + path + ": " + ec.message());
    }
    ioc_.restart();
    beast::get_lowest_layer(ws_).expires_never();
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws_.read_message_max(kMaxMessageBytes);
    ws_.text(true);
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
  }

  void start(Handlers handlers) override {
    handlers_ = std::move(handlers);
    net::post(ioc_, [this] { read(); });
    thread_ = std::thread([this] { ioc_.run(); });
  }

  void send(std::string message) override {
    if (closed_) return;
    net::post(ioc_, [this, message = std::move(message)]() mutable {
      if (closed_) return;
      queue_.push_back(std::move(message));
      if (queue_.size() == 1) write();
    });
  }

  void close() override {
    if (closed_.exchange(true)) return;
    net::post(ioc_, [this] {
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
      beast::get_lowest_layer(ws_).socket().close(ignored);
      finish("closed by us");
    });
    // When the I/O thread never started (start() not called), nobody else reports the close.
    if (!thread_.joinable()) finish("closed by us");
  }

 private:
  void read() {
    ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
      if (ec) {
        closed_ = true;
        return finish(ec == websocket::error::closed ? "peer closed the websocket" : ec.message());
      }
      std::string message = beast::buffers_to_string(buffer_.data());
      buffer_.consume(buffer_.size());
      if (handlers_.on_message) handlers_.on_message(std::move(message));
      read();
    });
  }

  void write() {
    ws_.async_write(net::buffer(queue_.front()), [this](beast::error_code ec, std::size_t) {
      if (ec) {
        closed_ = true;
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().close(ignored);
        return finish("write failed: " + ec.message());
      }
      queue_.pop_front();
      if (!queue_.empty()) write();
    });
  }

  void finish(const std::string& reason) {
    std::call_once(finished_, [&] {
      queue_.clear();
      if (handlers_.on_close) handlers_.on_close(reason);
    });
  }

  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;  // touched only on the I/O thread
  Handlers handlers_;
  std::atomic<bool> closed_{false};
  std::once_flag finished_;
  std::thread thread_;  // declared last: runs ioc_ with everything above
};

}  // namespace

std::unique_ptr<Transport> connect_websocket(const std::string& url, Deadline deadline) {
  static const Regex form(R"(ws://([^/:]+|\[[^\]]+\]):(\d+)(/.*)?)");
  RegexMatch m;
  if (!form.full_match(url, m)) {
    throw Error(ErrorKind::Closed, "connect", "not a ws:// URL with a port: " + url);
  }
  std::string host = m[1].str();
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  auto transport = std::make_unique<WebSocketTransport>();
  transport->connect(host, m[2].str(), m[3].matched ? m[3].str() : "/", deadline);
  return transport;
}

}  // namespace gleaner::cdp
