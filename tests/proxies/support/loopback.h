#pragma once
// Loopback test support for the gateway: a forward proxy that stands for a paid upstream proxy
// (Basic credentials required, every request counted), an HTTP origin that notes what reached
// it, and a raw-socket client that never waits longer than the one shared maximum.
#include "proxies/lease.h"
#include "proxies/resolver.h"
#include "tests/support/chromium.h"
#include "tests/support/local_server.h"

#include <httplib.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gleaner::proxies::testing {

/// The one longest wait of all tests (tests/support/chromium.h): a socket that says nothing for
/// this long fails the test.
using gleaner::testing::kMaxWait;
using gleaner::testing::max_wait;

inline IpAddress ip(const char* text) { return boost::asio::ip::make_address(text); }

/// The names the tests use, so the system resolver is never asked: public.example and
/// site.example → 127.0.0.1, mixed.example → a public address and 127.0.0.1, v6.example → ::1,
/// metadata.example → 169.254.169.254. Every other name does not resolve.
std::shared_ptr<Resolver> test_names();

/// An HTTP/1.1 forward proxy (CONNECT and absolute-form requests) on 127.0.0.1 that requires
/// Basic credentials. One thread per connection; it is a test double, not a model.
class CountingProxy {
 public:
  CountingProxy(std::string username, std::string password);
  ~CountingProxy();
  CountingProxy(const CountingProxy&) = delete;
  CountingProxy& operator=(const CountingProxy&) = delete;

  std::uint16_t port() const { return port_; }
  /// CONNECT tunnels opened with the right credentials.
  int tunnels() const;
  /// Absolute-form requests forwarded with the right credentials.
  int plain_requests() const;
  /// Requests answered 407 (no or wrong credentials).
  int auth_failures() const;
  /// The target of every request with the right credentials ("host:port" or the URL).
  std::vector<std::string> targets() const;

 private:
  void accept_loop();
  void serve(std::shared_ptr<boost::asio::ip::tcp::socket> client);

  const std::string expected_authorization_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};

  mutable std::mutex mutex_;  // guards the counters, targets_, sockets_ and workers_
  int tunnels_ = 0;
  int plain_requests_ = 0;
  int auth_failures_ = 0;
  std::vector<std::string> targets_;
  std::vector<std::shared_ptr<boost::asio::ip::tcp::socket>> sockets_;
  std::vector<std::thread> workers_;
  // Declared last: accepts until the destructor stops it.
  std::thread acceptor_thread_;
};

/// What reached the origin.
struct OriginHit {
  std::string path;
  std::map<std::string, std::string> headers;
};

/// A site on 127.0.0.1 (tests/support LocalServer): routes can be added before start(); every
/// other GET answers a small HTML page. Every request is recorded.
class Origin {
 public:
  /// Starts at once unless `start_later` (then add routes with server() and call start()).
  explicit Origin(bool start_later = false);
  httplib::Server& server() { return local_.server(); }
  /// Adds the catch-all page route (after any added before) and starts answering.
  void start();
  int port() const { return local_.port(); }
  std::vector<OriginHit> hits() const;
  /// The paths requested, in order.
  std::vector<std::string> paths() const;

 private:
  void record(const httplib::Request& request);

  mutable std::mutex mutex_;  // guards hits_
  std::vector<OriginHit> hits_;
  // Declared last: its threads call record() until it is destroyed.
  gleaner::testing::LocalServer local_;
};

/// Connects to 127.0.0.1:`port`, writes `request`, and reads until the peer closes (or kMaxWait
/// of silence, which fails the test).
std::string exchange(std::uint16_t port, const std::string& request);

/// A raw client connection with bounded waits.
class RawClient {
 public:
  explicit RawClient(std::uint16_t port);
  ~RawClient();
  void send(const std::string& bytes);
  /// Reads until `marker` has arrived; returns everything read so far (including what follows
  /// the marker in the same read).
  std::string read_until(const std::string& marker);
  /// Reads until the peer closes.
  std::string read_all();
  /// Whether the peer closed (reads EOF) within kMaxWait.
  bool closed_by_peer();

 private:
  int fd_ = -1;
  std::string pending_;
};

/// Expects check_main_document() to throw the guard's 400 (invalid_parameter naming `url`);
/// returns the error's log detail.
std::string expect_main_document_refused(const GatewayLease& lease);

/// The status code of a response ("HTTP/1.1 407 ..." → 407), 0 when there is none.
int status_of(const std::string& response);
/// The body of a response (after the blank line).
std::string body_of(const std::string& response);

}  // namespace gleaner::proxies::testing
