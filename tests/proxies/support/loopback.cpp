#include "tests/proxies/support/loopback.h"

#include "core/error.h"
#include "proxies/guard.h"
#include "proxies/http_head.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <utility>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

namespace gleaner::proxies::testing {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

// Copies bytes until `from` ends, then half-closes `to`.
void copy(tcp::socket& from, tcp::socket& to) {
  std::vector<char> buffer(8192);
  boost::system::error_code ec;
  for (;;) {
    const std::size_t n = from.read_some(asio::buffer(buffer), ec);
    if (ec) break;
    asio::write(to, asio::buffer(buffer.data(), n), ec);
    if (ec) break;
  }
  ::shutdown(to.native_handle(), SHUT_WR);
}

}  // namespace

std::shared_ptr<Resolver> test_names() {
  return std::make_shared<OverrideResolver>(
      std::map<std::string, std::vector<IpAddress>>{
          {"public.example", {ip("127.0.0.1")}},
          {"site.example", {ip("127.0.0.1")}},
          {"mixed.example", {ip("93.184.216.34"), ip("127.0.0.1")}},
          {"v6.example", {ip("::1")}},
          {"metadata.example", {ip("169.254.169.254")}},
      },
      nullptr);
}

CountingProxy::CountingProxy(std::string username, std::string password)
    : expected_authorization_(basic_credentials(username, password)),
      acceptor_(io_, tcp::endpoint(asio::ip::make_address_v4("127.0.0.1"), 0)) {
  port_ = acceptor_.local_endpoint().port();
  acceptor_thread_ = std::thread([this] { accept_loop(); });
}

CountingProxy::~CountingProxy() {
  stopping_ = true;
  {  // wake the blocking accept()
    tcp::socket poke(io_);
    boost::system::error_code ec;
    poke.connect(tcp::endpoint(asio::ip::make_address_v4("127.0.0.1"), port_), ec);
  }
  acceptor_thread_.join();
  std::vector<std::thread> workers;
  {
    std::lock_guard lock(mutex_);
    for (auto& socket : sockets_) ::shutdown(socket->native_handle(), SHUT_RDWR);
    workers.swap(workers_);
  }
  for (auto& worker : workers) worker.join();
}

int CountingProxy::tunnels() const {
  std::lock_guard lock(mutex_);
  return tunnels_;
}
int CountingProxy::plain_requests() const {
  std::lock_guard lock(mutex_);
  return plain_requests_;
}
int CountingProxy::auth_failures() const {
  std::lock_guard lock(mutex_);
  return auth_failures_;
}
std::vector<std::string> CountingProxy::targets() const {
  std::lock_guard lock(mutex_);
  return targets_;
}

void CountingProxy::accept_loop() {
  for (;;) {
    auto client = std::make_shared<tcp::socket>(io_);
    boost::system::error_code ec;
    acceptor_.accept(*client, ec);
    if (stopping_) return;
    if (ec) continue;
    std::lock_guard lock(mutex_);
    sockets_.push_back(client);
    workers_.emplace_back([this, client] { serve(client); });
  }
}

void CountingProxy::serve(std::shared_ptr<tcp::socket> client) {
  std::string buffer;
  boost::system::error_code ec;
  const std::size_t n = asio::read_until(*client, asio::dynamic_buffer(buffer), "\r\n\r\n", ec);
  if (ec) return;
  auto head = parse_request_head(buffer.substr(0, n));
  buffer.erase(0, n);
  if (!head) return;
  if (head->fields.get("Proxy-Authorization") != expected_authorization_) {
    {
      std::lock_guard lock(mutex_);
      ++auth_failures_;
    }
    asio::write(*client,
                asio::buffer(std::string("HTTP/1.1 407 Proxy Authentication Required\r\n"
                                         "Proxy-Authenticate: Basic realm=\"test\"\r\n"
                                         "Content-Length: 0\r\nConnection: close\r\n\r\n")),
                ec);
    return;
  }

  const bool tunnel = head->method == "CONNECT";
  std::string authority = head->target;
  std::string path = "/";
  if (!tunnel) {  // http://host:port/path
    authority = head->target.substr(7);
    if (const auto slash = authority.find('/'); slash != std::string::npos) {
      path = authority.substr(slash);
      authority.resize(slash);
    }
  }
  const auto colon = authority.rfind(':');
  auto target = std::make_shared<tcp::socket>(io_);
  tcp::resolver resolver(io_);
  const auto endpoints = resolver.resolve(authority.substr(0, colon),
                                          colon == std::string::npos ? "80" : authority.substr(colon + 1), ec);
  if (!ec) asio::connect(*target, endpoints, ec);
  if (ec) {
    asio::write(*client, asio::buffer(std::string("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")),
                ec);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    ++(tunnel ? tunnels_ : plain_requests_);
    targets_.push_back(head->target);
    sockets_.push_back(target);
  }
  if (tunnel) {
    asio::write(*client, asio::buffer(std::string("HTTP/1.1 200 Connection established\r\n\r\n")), ec);
  } else {
    head->target = path;
    head->fields.remove("Proxy-Authorization");
    buffer.insert(0, head->serialize());
  }
  if (!buffer.empty()) asio::write(*target, asio::buffer(buffer), ec);
  std::thread upstream([&] { copy(*client, *target); });
  copy(*target, *client);
  upstream.join();
}

Origin::Origin(bool start_later) {
  local_.server().set_pre_routing_handler([this](const httplib::Request& request, httplib::Response&) {
    record(request);
    return httplib::Server::HandlerResponse::Unhandled;
  });
  if (!start_later) start();
}

void Origin::start() {
  local_.server().Get(".*", [](const httplib::Request& request, httplib::Response& response) {
    response.set_content("<html><body>page " + request.path + "</body></html>", "text/html");
  });
  local_.start();
  // httplib's stop() does nothing until the listening loop runs, and a test that never makes the
  // server accept can end sooner: wait for the loop so the destructor can always stop it.
  const Deadline deadline = max_wait();
  while (!local_.server().is_running() && SteadyClock::now() < deadline)
    std::this_thread::sleep_for(Millis(1));
  if (!local_.server().is_running()) ADD_FAILURE() << "the origin did not start listening";
}

void Origin::record(const httplib::Request& request) {
  OriginHit hit{request.path, {}};
  for (const auto& [name, value] : request.headers) hit.headers[name] = value;
  std::lock_guard lock(mutex_);
  hits_.push_back(std::move(hit));
}

std::vector<OriginHit> Origin::hits() const {
  std::lock_guard lock(mutex_);
  return hits_;
}

std::vector<std::string> Origin::paths() const {
  std::vector<std::string> paths;
  for (const auto& hit : hits()) paths.push_back(hit.path);
  return paths;
}

RawClient::RawClient(std::uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, static_cast<sockaddr*>(static_cast<void*>(&address)), sizeof address) != 0)
    ADD_FAILURE() << "cannot connect to 127.0.0.1:" << port;
}

RawClient::~RawClient() {
  if (fd_ >= 0) ::close(fd_);
}

void RawClient::send(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      ADD_FAILURE() << "send failed";
      return;
    }
    sent += static_cast<std::size_t>(n);
  }
}

namespace {

// One read with the shared maximum wait: bytes, "" at EOF, nullopt on silence or error.
std::optional<std::string> read_some(int fd) {
  pollfd p{fd, POLLIN, 0};
  const int ready = ::poll(&p, 1, static_cast<int>(kMaxWait.count()));
  if (ready <= 0) return std::nullopt;
  char buffer[8192];
  const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
  if (n < 0) return std::nullopt;
  return std::string(buffer, static_cast<std::size_t>(n));
}

}  // namespace

std::string RawClient::read_until(const std::string& marker) {
  while (pending_.find(marker) == std::string::npos) {
    auto more = read_some(fd_);
    if (!more || more->empty()) {
      ADD_FAILURE() << "no '" << marker << "' after: " << pending_;
      break;
    }
    pending_ += *more;
  }
  return std::exchange(pending_, {});
}

std::string RawClient::read_all() {
  for (;;) {
    auto more = read_some(fd_);
    if (!more) {
      ADD_FAILURE() << "the peer neither answered nor closed within the maximum wait";
      break;
    }
    if (more->empty()) break;
    pending_ += *more;
  }
  return std::exchange(pending_, {});
}

bool RawClient::closed_by_peer() {
  for (;;) {
    auto more = read_some(fd_);
    if (!more) return false;
    if (more->empty()) return true;
  }
}

std::string exchange(std::uint16_t port, const std::string& request) {
  RawClient client(port);
  client.send(request);
  return client.read_all();
}

std::string expect_main_document_refused(const GatewayLease& lease) {
  try {
    lease.check_main_document();
    ADD_FAILURE() << "the refused main document was not reported";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
    EXPECT_EQ(e.parameter().value_or(""), "url");
    EXPECT_EQ(std::string(e.what()), kPrivateAddressMessage);
    return e.detail();
  }
  return {};
}

int status_of(const std::string& response) {
  if (response.rfind("HTTP/1.", 0) != 0 || response.size() < 12) return 0;
  return std::stoi(response.substr(9, 3));
}

std::string body_of(const std::string& response) {
  const auto end = response.find("\r\n\r\n");
  return end == std::string::npos ? std::string() : response.substr(end + 4);
}

}  // namespace gleaner::proxies::testing
