#include "api/server.h"

#include <httplib.h>
#include <malloc.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "api/connections.h"
#include "api/envelope.h"
#include "api/request_reader.h"
#include "core/error.h"
#include "core/ids.h"
#include "core/log.h"

namespace gleaner::api {

/// cpp-httplib's server with its socket handling replaced: accepting is HttpServer::accept_loop(),
/// reading and writing Connections; a request read there comes back through process_request(),
/// cpp-httplib's own parsing of the request line and writing of the response, over an in-memory
/// stream that holds the request's head.
class FrontServer : public httplib::Server {
 public:
  bool serve(httplib::Stream& stream, bool close_connection, bool& connection_closed) {
    return process_request(stream, close_connection, connection_closed, nullptr);
  }

  /// cpp-httplib 0.11 listens with a backlog of 5: a burst of connections (a hundred clients at
  /// once) overflows it and the kernel drops their SYNs, which clients only resend after a
  /// second or more. Listening again on the bound socket widens the queue.
  void widen_backlog() { ::listen(svr_sock_, SOMAXCONN); }

  int listening_socket() const { return svr_sock_; }
  void close_listening_socket() {
    const int fd = svr_sock_.exchange(INVALID_SOCKET);
    if (fd != INVALID_SOCKET) ::close(fd);
  }
};

namespace {

/// One request's head for process_request() to parse, and the response it writes, kept for
/// Connections to send. The body is not in it: the handler takes it from the IncomingRequest (see
/// CurrentRequest).
class HeadStream : public httplib::Stream {
 public:
  HeadStream(std::string head, const Peer& peer) : head_(std::move(head)), peer_(peer) {}

  bool is_readable() const override { return read_ < head_.size(); }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, head_.size() - read_);
    std::copy_n(head_.data() + read_, n, ptr);
    read_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    written_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  std::string take_written() { return std::move(written_); }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = peer_.remote_ip;
    port = peer_.remote_port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = peer_.local_ip;
    port = peer_.local_port;
  }
  // Debian's cpp-httplib is built with select(), and process_request() answers 500 to a stream
  // whose socket is at or above FD_SETSIZE, although it never selects on this stream.
  socket_t socket() const override { return peer_.fd < FD_SETSIZE ? peer_.fd : INVALID_SOCKET; }

 private:
  std::string head_;
  std::size_t read_ = 0;
  std::string written_;
  const Peer& peer_;
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// The request the handler on this thread answers: its headers and body as read by Connections,
/// and its socket for client_connected().
struct CurrentRequest {
  IncomingRequest* incoming = nullptr;
  int fd = -1;
  /// when_delivered()'s callback, for the Reply.
  std::function<void(bool)> settle;
  /// An answer sent in pieces (Response::pieces): its head, without the Connection field that
  /// answer() adds, and its pieces. What cpp-httplib wrote is not sent then.
  std::string streamed_head;
  std::function<std::optional<std::string>()> pieces;
};
thread_local CurrentRequest current;

/// Sets `current` for the duration of one process_request() call.
class CurrentScope {
 public:
  CurrentScope(IncomingRequest& incoming, int fd) { current = {&incoming, fd, {}, {}, {}}; }
  ~CurrentScope() { current = {}; }
  CurrentScope(const CurrentScope&) = delete;
  CurrentScope& operator=(const CurrentScope&) = delete;
};

/// What process_request() is given: the request line and the headers it acts on (Accept-Encoding
/// for compressing the response, and the like). Left out are those about the body (it is not
/// there: the handler takes it from `current`, so cpp-httplib neither reads it again nor applies
/// its 8 KiB limit for form bodies nor decodes it) and Range (the API serves no partial content).
std::string head_for_httplib(const IncomingRequest& in, bool last) {
  std::string head = in.method + ' ' + in.target + " HTTP/1.1\r\n";
  for (const auto& [name, value] : in.headers) {
    const std::string key = lower(name);
    if (key == "content-type" || key == "content-encoding" || key == "connection" ||
        key == "range" || key == "content-length" || key == "transfer-encoding") {
      continue;
    }
    head += name + ": " + value + "\r\n";
  }
  head += "Content-Length: 0\r\n";
  if (last) head += "Connection: close\r\n";
  head += "\r\n";
  return head;
}

Request to_request(const httplib::Request& raw) {
  Request r;
  r.id = new_uuid();
  r.method = raw.method;
  r.path = raw.path;
  r.received = SteadyClock::now();
  for (const auto& [k, v] : raw.params) r.query.emplace(k, v);
  if (current.incoming) {
    IncomingRequest& in = *current.incoming;
    for (const auto& [k, v] : in.headers) r.headers[lower(k)] = v;
    if (in.framed_body) r.headers["content-length"] = std::to_string(in.body.size());
    r.body = std::move(in.body);
  } else {
    for (const auto& [k, v] : raw.headers) r.headers[lower(k)] = v;
    r.body = raw.body;
  }
  return r;
}

const char* reason_phrase(int status);

/// The head of an answer sent in pieces, for answer() to send in place of cpp-httplib's: the
/// chunked transfer coding, never compressed (each piece is sent as it is made).
std::string streamed_head(const Request& request, const Response& response) {
  std::string head = "HTTP/1.1 " + std::to_string(response.status) + ' ' +
                     reason_phrase(response.status) + "\r\nContent-Type: " + response.content_type +
                     "\r\nTransfer-Encoding: chunked\r\n";
  for (const auto& [k, v] : response.headers) head += k + ": " + v + "\r\n";
  head += "X-Request-Id: " + request.id + "\r\n";
  return head;
}

void write(httplib::Response& out, const Request& request, const Response& response) {
  if (response.pieces && current.incoming) {
    current.streamed_head = streamed_head(request, response);
    current.pieces = response.pieces;
    out.status = response.status;
    return;
  }
  if (response.pieces) {
    // Outside the front door (no Connections to send pieces): the whole body at once.
    std::string body;
    while (auto piece = response.pieces()) body += *piece;
    out.status = response.status;
    for (const auto& [k, v] : response.headers) out.set_header(k, v);
    out.set_header("X-Request-Id", request.id);
    out.set_content(body, response.content_type.c_str());
    return;
  }
  out.status = response.status;
  for (const auto& [k, v] : response.headers) out.set_header(k, v);
  out.set_header("X-Request-Id", request.id);
  if (response.raw_body) {
    out.set_content(*response.raw_body, response.content_type.c_str());
  } else {
    out.set_content(render_json(request, response), "application/json");
  }
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

}  // namespace

ClientState client_state() {
  if (current.fd < 0) return ClientState::Connected;
  pollfd p{current.fd, POLLIN | POLLRDHUP, 0};
  if (poll(&p, 1, 0) <= 0) return ClientState::Connected;  // nothing to read, no hang-up
  if (p.revents & (POLLHUP | POLLERR)) return ClientState::Gone;
  if (p.revents & POLLRDHUP) return ClientState::SendingClosed;
  // Readable without a hang-up: the client sent more (a pipelined request); a read of zero
  // bytes would mean it closed its side.
  char byte;
  return recv(current.fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) != 0 ? ClientState::Connected
                                                                  : ClientState::SendingClosed;
}

bool client_connected() {
  return client_state() == ClientState::Connected;
}

bool when_delivered(std::function<void(bool delivered)> settle) {
  if (current.fd < 0 || current.settle) return false;
  current.settle = std::move(settle);
  return true;
}

int connection_cap(long long descriptors, int reserved) {
  const long long cap = std::clamp<long long>(descriptors - reserved, descriptors / 4, 10000);
  return static_cast<int>(std::max<long long>(cap, 1));
}

long long prepare_process() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    rlimit raised = files;
    raised.rlim_cur = files.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) files = raised;
  }
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  return files.rlim_cur == RLIM_INFINITY ? 1 << 20 : static_cast<long long>(files.rlim_cur);
}

std::string Request::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

std::optional<std::string> Request::query_value(const std::string& name) const {
  auto it = query.find(name);
  if (it == query.end()) return std::nullopt;
  return it->second;
}

ServerOptions ServerOptions::from_config(const Config& config) {
  ServerOptions o;
  o.host = config.get_string("host", o.host);
  o.port = static_cast<int>(config.get_int("port", o.port));
  o.threads = static_cast<int>(config.get_int("http_threads", o.threads));
  o.max_body_bytes = static_cast<std::size_t>(
      config.get_int("max_body_bytes", static_cast<long long>(o.max_body_bytes)));
  o.max_header_bytes = static_cast<std::size_t>(
      config.get_int("max_header_bytes", static_cast<long long>(o.max_header_bytes)));
  o.header_deadline = Millis(config.get_int("header_deadline_ms", o.header_deadline.count()));
  o.body_deadline = Millis(config.get_int("body_deadline_ms", o.body_deadline.count()));
  o.keep_alive = Millis(config.get_int("keep_alive_ms", o.keep_alive.count()));
  o.write_deadline = Millis(config.get_int("write_deadline_ms", o.write_deadline.count()));
  o.connections_per_address =
      static_cast<int>(config.get_int("connections_per_address", o.connections_per_address));
  o.max_connections = static_cast<int>(config.get_int("max_connections", o.max_connections));
  o.reserved_descriptors =
      static_cast<int>(config.get_int("reserved_descriptors", o.reserved_descriptors));
  o.max_buffered_body_bytes = static_cast<std::size_t>(
      config.get_int("max_buffered_body_bytes", static_cast<long long>(o.max_buffered_body_bytes)));
  o.max_answer_bytes = api::max_answer_bytes(config);
  if (o.threads < 1) throw std::invalid_argument("http_threads must be at least 1");
  if (o.max_header_bytes < 1024)
    throw std::invalid_argument("max_header_bytes must be at least 1024");
  if (o.header_deadline.count() < 1 || o.body_deadline.count() < 1 || o.keep_alive.count() < 1 ||
      o.write_deadline.count() < 1) {
    throw std::invalid_argument(
        "header_deadline_ms, body_deadline_ms, keep_alive_ms and write_deadline_ms must be "
        "positive");
  }
  if (o.connections_per_address < 1) {
    throw std::invalid_argument("connections_per_address must be at least 1");
  }
  if (o.max_connections < 0 || o.reserved_descriptors < 0) {
    throw std::invalid_argument("max_connections and reserved_descriptors may not be negative");
  }
  if (o.max_buffered_body_bytes < o.max_body_bytes) {
    throw std::invalid_argument("max_buffered_body_bytes must be at least max_body_bytes");
  }
  return o;
}

HttpServer::HttpServer(ServerOptions options, Router router)
    : options_(std::move(options)),
      router_(std::move(router)),
      server_(std::make_unique<FrontServer>()) {
  if (router_.largest_body_limit() > options_.max_buffered_body_bytes) {
    throw std::invalid_argument(
        "max_buffered_body_bytes must be at least the largest body a route takes (" +
        std::to_string(router_.largest_body_limit()) + " bytes)");
  }
  stop_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (stop_fd_ < 0) throw std::runtime_error("eventfd failed");
  // Responses are written by Connections, without waiting; this bounds each send of those
  // written at shutdown, when its thread has stopped (cpp-httplib sets it on accepted sockets).
  server_->set_write_timeout(30, 0);
  server_->set_keep_alive_timeout(std::max<time_t>(
      1, std::chrono::duration_cast<std::chrono::seconds>(options_.keep_alive).count()));

  ConnectionLimits limits;
  limits.request.max_head_bytes = options_.max_header_bytes;
  limits.request.max_body_bytes = options_.max_body_bytes;
  // A route may take larger bodies than the rest (Router::add). The target's path is matched as
  // sent: a path written another way (percent-encoded) keeps the server's limit.
  limits.request.body_limit_of = [this](std::string_view method, std::string_view target) {
    return router_.match(method, target.substr(0, target.find('?'))).max_body_bytes;
  };
  limits.header_deadline = options_.header_deadline;
  limits.body_deadline = options_.body_deadline;
  limits.keep_alive_idle = options_.keep_alive;
  limits.write_deadline = options_.write_deadline;
  limits.connections_per_address = options_.connections_per_address;
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  const long long descriptors =
      files.rlim_cur == RLIM_INFINITY ? 1 << 20 : static_cast<long long>(files.rlim_cur);
  limits.max_connections = options_.max_connections > 0
                               ? options_.max_connections
                               : connection_cap(descriptors, options_.reserved_descriptors);
  if (limits.max_connections > descriptors - 64) {
    log::warn("http") << "max_connections " << limits.max_connections
                      << " leaves too few of the process's " << descriptors
                      << " descriptors for the rest (raise the open files limit)";
  }
  limits.max_buffered_bytes = options_.max_buffered_body_bytes;
  log::info("http") << "client connections capped at " << limits.max_connections << " ("
                    << descriptors << " descriptors), request bodies buffered at once at "
                    << (limits.max_buffered_bytes >> 20) << " MiB";
  // The Keep-Alive header cpp-httplib writes announces this count.
  server_->set_keep_alive_max_count(static_cast<std::size_t>(limits.requests_per_connection));

  // Requests refused before they could be routed (too large, too slow, malformed, too many
  // connections) get the service's JSON error body and a line in the request log.
  auto refusal = [this](const Peer& peer, const ReadError& error) {
    Request request;
    request.id = new_uuid();
    request.received = SteadyClock::now();
    Response response;
    response.status = error.status;
    response.body = {{"error", {{"code", code_name(error.code)}, {"message", error.message}}}};
    if (error.status == 429 || error.status == 503) response.headers["Retry-After"] = "1";
    const std::string body = render_json(request, response);
    std::string out = "HTTP/1.1 " + std::to_string(error.status) + ' ' +
                      reason_phrase(error.status) + "\r\nContent-Type: application/json\r\n" +
                      "Content-Length: " + std::to_string(body.size()) +
                      "\r\nConnection: close\r\nX-Request-Id: " + request.id + "\r\n";
    for (const auto& [k, v] : response.headers) out += k + ": " + v + "\r\n";
    out += "\r\n" + body;
    // A flood is refused one connection after another: its lines are limited per status.
    if (log::allow("http refused " + std::to_string(error.status))) {
      log::info("http") << request.id << " refused " << peer.remote_ip << ' ' << error.status << ' '
                        << code_name(error.code) << ": " << error.message;
    }
    if (observer_) observer_(request, response, Millis(0));
    return out;
  };
  connections_ = std::make_unique<Connections>(
      limits, options_.threads,
      [this](const Peer& peer, IncomingRequest& incoming, bool last) {
        return answer(peer, incoming, last);
      },
      refusal);

  // Every request is answered by this one handler (cpp-httplib only parses the head): one place
  // for ids, routing (404 vs 405), error mapping and the request log.
  auto dispatch = [this](const httplib::Request& raw, httplib::Response& out) {
    Request request = to_request(raw);
    // Every line this thread logs until the answer is written carries the request's id.
    log::RequestScope scope(request.id);
    Response response;
    auto match = router_.match(request.method, request.path);
    request.route = match.pattern;
    if (match.handler) {
      request.path_params = std::move(match.params);
      try {
        response = (*match.handler)(request);
      } catch (...) {
        response = error_response(request, std::current_exception());
      }
    } else if (match.path_known) {
      response = error_response(
          request, gleaner::Error(ErrorCode::MethodNotAllowed,
                                  request.method + " is not allowed on " + request.path));
    } else {
      response =
          error_response(request, gleaner::Error(ErrorCode::NotFound, "no route " + request.path));
    }
    // Every JSON answer is held to one size (a charged one was measured before its charge).
    try {
      render_within(request, response, options_.max_answer_bytes);
    } catch (...) {
      response = error_response(request, std::current_exception());
    }
    write(out, request, response);
    const auto elapsed = std::chrono::duration_cast<Millis>(SteadyClock::now() - request.received);
    log::info("http") << request.id << ' ' << request.method << ' '
                      << (request.route.empty() ? request.path : request.route) << ' '
                      << response.status << ' ' << elapsed.count() << "ms";
    if (observer_) observer_(request, response, elapsed);
  };
  // Any target, newlines included (a decoded `%0a`): "." would not match it, and such a request
  // would miss the dispatcher's log line and JSON 404.
  const std::string any = "[\\s\\S]*";
  server_->Get(any, dispatch);
  server_->Post(any, dispatch);
  server_->Put(any, dispatch);
  server_->Patch(any, dispatch);
  server_->Delete(any, dispatch);
  server_->Options(any, dispatch);

  // Errors cpp-httplib raises itself before routing (a malformed request line or target, a
  // method it does not know) still get the service's JSON error body.
  server_->set_error_handler([](const httplib::Request& raw, httplib::Response& out) {
    if (!out.body.empty()) return;
    Request request = to_request(raw);
    ErrorCode code = out.status == 413   ? ErrorCode::PayloadTooLarge
                     : out.status == 404 ? ErrorCode::NotFound
                                         : ErrorCode::InvalidParameter;
    std::string message =
        out.status == 413 ? "request body is larger than the limit" : "malformed HTTP request";
    write(out, request, error_response(request, gleaner::Error(code, message)));
    // Every answer has its line in the request log, these too.
    log::info("http") << request.id << ' ' << request.method << ' ' << request.path << ' '
                      << out.status << " (refused by the request parser)";
  });
}

HttpServer::~HttpServer() {
  stop();
  if (connections_) connections_->join();
  if (stop_fd_ >= 0) ::close(stop_fd_);
}

Connections::Reply HttpServer::answer(const Peer& peer, IncomingRequest& incoming, bool last) {
  HeadStream stream(head_for_httplib(incoming, last), peer);
  CurrentScope scope(incoming, peer.fd);
  bool connection_closed = false;
  const bool complete = server_->serve(stream, last, connection_closed);
  if (current.pieces) {
    const bool close = connection_closed || last;
    return Connections::Reply{
        current.streamed_head + (close ? "Connection: close\r\n\r\n" : "\r\n"), close,
        std::move(current.settle), std::move(current.pieces)};
  }
  return Connections::Reply{
      stream.take_written(), !complete || connection_closed || last, std::move(current.settle), {}};
}

void HttpServer::set_observer(Observer observer) {
  observer_ = std::move(observer);
}

int HttpServer::bind() {
  if (options_.port == 0) {
    port_ = server_->bind_to_any_port(options_.host);
  } else {
    port_ = server_->bind_to_port(options_.host, options_.port) ? options_.port : -1;
  }
  if (port_ <= 0) {
    throw std::runtime_error("cannot listen on " + options_.host + ":" +
                             std::to_string(options_.port));
  }
  server_->widen_backlog();
  return port_;
}

void HttpServer::run() {
  accept_loop();
  // As cpp-httplib's own run does, return once the requests in flight have been answered.
  connections_->join();
}

void HttpServer::accept_loop() {
  // Our own loop rather than cpp-httplib's: out of descriptors (EMFILE), accept fails at once
  // for as long as a connection waits in the backlog, and cpp-httplib retries every millisecond.
  // Here the pause doubles up to a second, and the failure is logged a few times a second at
  // most (core/log.h), instead of a core spinning and hundreds of thousands of lines.
  const int listener = server_->listening_socket();
  Millis pause{0};
  for (;;) {
    pollfd p[2] = {{listener, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
    const int ready = ::poll(p, 2, -1);
    if (p[1].revents != 0) break;
    if (ready < 0 && errno != EINTR) {
      log::error("http") << "poll on the listening socket failed: " << std::strerror(errno);
      break;
    }
    if (!(p[0].revents & POLLIN)) continue;
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED) {
        continue;
      }
      pause = std::clamp(pause * 2, Millis(10), Millis(1000));
      log::warn("http") << "accept failed: " << std::strerror(errno) << "; pausing accepts";
      pollfd stop{stop_fd_, POLLIN, 0};
      ::poll(&stop, 1, static_cast<int>(pause.count()));  // a stop() ends the pause
      continue;
    }
    pause = Millis(0);
    // As cpp-httplib sets them: the sends of answers written at shutdown, when the read thread
    // is gone, wait at most this long.
    timeval send_timeout{30, 0};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof send_timeout);
    connections_->adopt(fd);
  }
  server_->close_listening_socket();
}

void HttpServer::stop() {
  // Returns at once: no new connection, no new request; those in flight are answered (run()
  // returns after them), so that a shutdown can give their pages a grace period meanwhile.
  if (stop_fd_ >= 0) {
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(stop_fd_, &one, sizeof one);
  }
  // Refuses new connections from now on (accept_loop closes the socket as it ends).
  if (server_ && server_->listening_socket() != INVALID_SOCKET) {
    ::shutdown(server_->listening_socket(), SHUT_RDWR);
  }
  if (connections_) connections_->stop();
}

}  // namespace gleaner::api
