#include "jobs/http_webhook_sender.h"

#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>

#include "core/error.h"

namespace gleaner::jobs {
namespace {

WebhookResult result(const char* kind, std::string detail, std::optional<int> status = {}) {
  return {kind, status, std::move(detail)};
}

/// The path and query of `url` ("/" when it has none), as sent in the request line.
std::string path_of(const std::string& url) {
  const auto scheme_end = url.find("://");
  const auto path = url.find_first_of("/?#", scheme_end == std::string::npos ? 0 : scheme_end + 3);
  if (path == std::string::npos || url[path] == '#') return "/";
  std::string rest = url.substr(path);
  if (auto hash = rest.find('#'); hash != std::string::npos) rest.resize(hash);
  return rest[0] == '?' ? "/" + rest : rest;
}

/// Why an attempt ended early: the outcome it is recorded as, and words for people.
struct Failure {
  const char* outcome;
  std::string detail;
};

/// The client's shared TLS settings: peers are verified against the system's certificate store.
SSL_CTX* tls_context() {
  static SSL_CTX* context = [] {
    SSL_CTX* c = SSL_CTX_new(TLS_client_method());
    if (c) {
      SSL_CTX_set_default_verify_paths(c);
      SSL_CTX_set_verify(c, SSL_VERIFY_PEER, nullptr);
      SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION);
    }
    return c;
  }();
  return context;
}

/// One connection to a receiver, every step of it bounded by the attempt's one deadline. The
/// socket is non-blocking; each step waits in poll() for at most the time left.
class Connection {
 public:
  explicit Connection(SteadyClock::time_point deadline) : deadline_(deadline) {}
  ~Connection() {
    if (tls_) SSL_free(tls_);
    if (fd_ >= 0) ::close(fd_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  std::optional<Failure> connect(const proxies::IpAddress& address, int port) {
    addrinfo hints{};
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(address.to_string().c_str(), std::to_string(port).c_str(), &hints, &found) !=
            0 ||
        !found) {
      return Failure{outcome::kNetworkError, "cannot use address " + address.to_string()};
    }
    fd_ = ::socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int started = fd_ < 0 ? -1 : ::connect(fd_, found->ai_addr, found->ai_addrlen);
    freeaddrinfo(found);
    if (fd_ < 0) return Failure{outcome::kNetworkError, std::string("socket: ") + strerror(errno)};
    if (started != 0 && errno != EINPROGRESS) {
      return Failure{outcome::kNetworkError, strerror(errno)};
    }
    if (started != 0) {
      if (!wait(POLLOUT)) return timeout("connecting");
      int error = 0;
      socklen_t len = sizeof error;
      getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &len);
      if (error != 0) return Failure{outcome::kNetworkError, strerror(error)};
    }
    return std::nullopt;
  }

  /// TLS over the connection, the peer's certificate checked for `host` (a name or an address).
  std::optional<Failure> start_tls(const std::string& host, bool literal) {
    SSL_CTX* context = tls_context();
    if (!context) return Failure{outcome::kNetworkError, "TLS is not available"};
    tls_ = SSL_new(context);
    SSL_set_fd(tls_, fd_);
    X509_VERIFY_PARAM* param = SSL_get0_param(tls_);
    if (literal) {
      X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
    } else {
      SSL_set_tlsext_host_name(tls_, host.c_str());
      X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
    }
    for (;;) {
      ERR_clear_error();
      const int r = SSL_connect(tls_);
      if (r == 1) return std::nullopt;
      const int error = SSL_get_error(tls_, r);
      if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
        if (!wait(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT)) return timeout("the TLS handshake");
        continue;
      }
      const long verify = SSL_get_verify_result(tls_);
      if (verify != X509_V_OK) {
        return Failure{outcome::kNetworkError, std::string("TLS: ") +
                                                    X509_verify_cert_error_string(verify)};
      }
      return Failure{outcome::kNetworkError, "the TLS handshake failed"};
    }
  }

  std::optional<Failure> write_all(std::string_view bytes) {
    while (!bytes.empty()) {
      short want = POLLOUT;
      const ssize_t n = transfer(want, [&] {
        return tls_ ? SSL_write(tls_, bytes.data(), static_cast<int>(std::min<std::size_t>(
                                                        bytes.size(), 1 << 30)))
                    : ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      });
      if (n > 0) {
        bytes.remove_prefix(static_cast<std::size_t>(n));
      } else if (n == 0 || want == 0) {
        return closed();
      } else if (!wait(want)) {
        return timeout("sending");
      }
    }
    return std::nullopt;
  }

  /// Appends what arrives (at most `room` bytes) to `into`; a failure once the receiver closes or
  /// the deadline passes.
  std::optional<Failure> read_some(std::string& into, std::size_t room) {
    char buffer[4096];
    room = std::min(room, sizeof buffer);
    for (;;) {
      short want = POLLIN;
      const ssize_t n = transfer(want, [&] {
        return tls_ ? SSL_read(tls_, buffer, static_cast<int>(room)) : ::recv(fd_, buffer, room, 0);
      });
      if (n > 0) {
        into.append(buffer, static_cast<std::size_t>(n));
        return std::nullopt;
      }
      if (n == 0 || want == 0) return closed();
      if (!wait(want)) return timeout("waiting for the answer");
    }
  }

 private:
  /// One send or receive (`io`, plain or TLS): the bytes moved (> 0); 0 when the receiver
  /// closed; -1 with `want` the event to wait for before trying again, or 0 after a failure.
  template <typename Io>
  ssize_t transfer(short& want, Io io) {
    if (tls_) ERR_clear_error();
    const auto r = io();
    if (r > 0) return static_cast<ssize_t>(r);
    if (tls_) {
      const int error = SSL_get_error(tls_, static_cast<int>(r));
      if (error == SSL_ERROR_ZERO_RETURN) return 0;
      want = error == SSL_ERROR_WANT_READ ? POLLIN : error == SSL_ERROR_WANT_WRITE ? POLLOUT : 0;
      return -1;
    }
    if (r == 0) return 0;
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) want = 0;
    return -1;
  }

  /// Waits for `events` until the deadline; false when it passed first.
  bool wait(short events) {
    for (;;) {
      const auto left =
          std::chrono::ceil<Millis>(deadline_ - SteadyClock::now()).count();
      if (left <= 0) return false;
      pollfd p{fd_, events, 0};
      const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 60'000)));
      if (r > 0) return true;  // ready, or an error the next call reports
      if (r < 0 && errno != EINTR) return true;
    }
  }
  static Failure closed() {
    return {outcome::kNetworkError, "the receiver closed the connection before answering"};
  }
  static Failure timeout(const char* while_doing) {
    return {outcome::kTimeout, std::string("the attempt's deadline passed while ") + while_doing};
  }

  SteadyClock::time_point deadline_;
  int fd_ = -1;
  SSL* tls_ = nullptr;
};

/// The status of the receiver's final answer from the first bytes of it: interim (1xx) answers
/// are skipped. nullopt while more bytes are needed; -1 when the answer is not HTTP.
std::optional<int> final_status(std::string& answer) {
  for (;;) {
    const auto line_end = answer.find("\r\n");
    if (line_end == std::string::npos) return std::nullopt;
    // "HTTP/1.1 204 No Content"
    const std::string line = answer.substr(0, line_end);
    if (line.size() < 12 || line.compare(0, 5, "HTTP/") != 0 || line[8] != ' ' ||
        !std::all_of(line.begin() + 9, line.begin() + 12,
                     [](unsigned char c) { return std::isdigit(c); })) {
      return -1;
    }
    const int status = std::stoi(line.substr(9, 3));
    if (status >= 200) return status;
    const auto head_end = answer.find("\r\n\r\n");
    if (head_end == std::string::npos) return std::nullopt;
    answer.erase(0, head_end + 4);
  }
}

}  // namespace

HttpWebhookSender::HttpWebhookSender(proxies::AddressGuard guard,
                                     std::shared_ptr<proxies::Resolver> resolver)
    : guard_(guard), resolver_(std::move(resolver)) {}

WebhookResult HttpWebhookSender::send(const WebhookRequest& request) {
  // One deadline for the whole attempt: resolving, connecting, sending and the answer's status.
  const auto deadline = SteadyClock::now() + request.timeout;
  const std::string budget = " (" + std::to_string(request.timeout.count()) + " ms)";
  proxies::UrlTarget target;
  try {
    target = guard_.check_url(request.url, "webhook.url");
  } catch (const Error& e) {
    return result(outcome::kRefused, e.what());
  }
  // Every address the name has must be allowed, and the one connected to is one of those checked.
  proxies::IpAddress address;
  if (target.host.literal) {
    address = *target.host.literal;
  } else {
    const auto resolved = proxies::resolve_before(resolver_, target.host.text, deadline);
    if (!resolved) {
      return result(outcome::kTimeout, "no address for " + target.host.text + " in time" + budget);
    }
    if (resolved->addresses.empty()) {
      return result(outcome::kNetworkError, "cannot resolve " + target.host.text + ": " +
                                                resolved->error);
    }
    for (const proxies::IpAddress& a : resolved->addresses) {
      if (!guard_.allows(a)) {
        return result(outcome::kRefused, std::string(proxies::kPrivateAddressMessage));
      }
    }
    address = resolved->addresses.front();
  }
  const bool default_port = target.port == (target.scheme == "https" ? 443 : 80);
  const std::string host_field =
      (target.host.form == proxies::Host::Form::Ipv6 ? "[" + target.host.text + "]"
                                                     : target.host.text) +
      (default_port ? "" : ":" + std::to_string(target.port));

  std::string head = "POST " + path_of(request.url) + " HTTP/1.1\r\nHost: " + host_field +
                     "\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(request.body.size()) + "\r\nConnection: close\r\n";
  bool has_agent = false;
  for (const auto& [name, value] : request.headers) {
    // Checked when the job was created (jobs/job_request.cpp): tokens and values without CR/LF.
    has_agent = has_agent || strcasecmp(name.c_str(), "User-Agent") == 0;
    head += name + ": " + value + "\r\n";
  }
  // The caller's own User-Agent wins.
  if (!has_agent) head += "User-Agent: gleaner-webhooks/1\r\n";
  head += "\r\n";

  Connection connection(deadline);
  auto failure = connection.connect(address, target.port);
  if (!failure && target.scheme == "https") {
    failure = connection.start_tls(target.host.text, target.host.literal.has_value());
  }
  if (!failure) failure = connection.write_all(head);
  if (!failure) failure = connection.write_all(request.body);
  // Only the status counts, so only the first bytes of the answer are read: a receiver that
  // answers with an endless body or endless headers costs at most kMaxAnswerBytes.
  std::string answer;
  std::optional<int> status;
  while (!failure && !(status = final_status(answer))) {
    if (answer.size() >= kMaxAnswerBytes) {
      return result(outcome::kNetworkError, "the answer's status did not come in its first " +
                                                std::to_string(kMaxAnswerBytes) + " bytes");
    }
    failure = connection.read_some(answer, kMaxAnswerBytes - answer.size());
  }
  if (failure) {
    std::string detail = std::move(failure->detail);
    if (failure->outcome == outcome::kTimeout) detail = "no answer in time: " + detail + budget;
    return result(failure->outcome, std::move(detail));
  }
  if (*status < 0) return result(outcome::kNetworkError, "the answer is not HTTP");
  if (*status < 300) return result(outcome::kOk, "HTTP " + std::to_string(*status), *status);
  return result(outcome::kHttpError, "HTTP " + std::to_string(*status), *status);
}

}  // namespace gleaner::jobs
