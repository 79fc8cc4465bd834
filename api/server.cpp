#include "api/server.h"

#include "api/envelope.h"
#include "core/error.h"
#include "core/ids.h"
#include "core/log.h"

#include <httplib.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>

namespace gleaner::api {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

Request to_request(const httplib::Request& raw) {
  Request r;
  r.id = new_uuid();
  r.method = raw.method;
  r.path = raw.path;
  r.received = SteadyClock::now();
  for (const auto& [k, v] : raw.params) r.query.emplace(k, v);
  for (const auto& [k, v] : raw.headers) r.headers[lower(k)] = v;
  r.body = raw.body;
  return r;
}

void write(httplib::Response& out, const Request& request, const Response& response) {
  out.status = response.status;
  for (const auto& [k, v] : response.headers) out.set_header(k, v);
  out.set_header("X-Request-Id", request.id);
  if (response.raw_body) {
    out.set_content(*response.raw_body, response.content_type.c_str());
  } else {
    out.set_content(render_json(request, response), "application/json");
  }
}

/// The cpp-httplib request this thread is handling, for client_connected().
thread_local const httplib::Request* current_raw_request = nullptr;

/// Sets current_raw_request for the duration of one handler call.
class CurrentRequest {
 public:
  explicit CurrentRequest(const httplib::Request& raw) { current_raw_request = &raw; }
  ~CurrentRequest() { current_raw_request = nullptr; }
  CurrentRequest(const CurrentRequest&) = delete;
  CurrentRequest& operator=(const CurrentRequest&) = delete;
};

/// The numeric host and port of a socket address, formatted as cpp-httplib formats them.
bool host_and_port(const sockaddr_storage& addr, socklen_t len, std::string& host, int& port) {
  char name[NI_MAXHOST];
  char service[NI_MAXSERV];
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&addr), len, name, sizeof name, service,
                  sizeof service, NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return false;
  }
  host = name;
  port = std::atoi(service);
  return true;
}

/// The open socket whose local and peer addresses are the request's, or -1.
int find_request_socket(const httplib::Request& raw) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
    const std::string name = entry.path().filename().string();
    int fd = -1;
    if (std::from_chars(name.data(), name.data() + name.size(), fd).ec != std::errc()) continue;
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    std::string host;
    int port = -1;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
        !host_and_port(addr, len, host, port) || port != raw.local_port ||
        host != raw.local_addr) {
      continue;
    }
    len = sizeof addr;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
        !host_and_port(addr, len, host, port) || port != raw.remote_port ||
        host != raw.remote_addr) {
      continue;
    }
    // A live TCP connection is the only socket with these four addresses.
    return fd;
  }
  return -1;
}

}  // namespace

bool client_connected() {
  if (!current_raw_request) return true;
  const int fd = find_request_socket(*current_raw_request);
  if (fd < 0) return true;
  pollfd p{fd, POLLIN | POLLRDHUP, 0};
  if (poll(&p, 1, 0) <= 0) return true;  // nothing to read, no hang-up: still there
  if (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) return false;
  // Readable without a hang-up: the client sent more (a pipelined request); a read of zero
  // bytes would mean it closed.
  char byte;
  return recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) != 0;
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
  if (o.threads < 1) throw std::invalid_argument("http_threads must be at least 1");
  return o;
}

HttpServer::HttpServer(ServerOptions options, Router router)
    : options_(std::move(options)), router_(std::move(router)),
      server_(std::make_unique<httplib::Server>()) {
  const int threads = options_.threads;
  server_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server_->set_payload_max_length(options_.max_body_bytes);
  server_->set_read_timeout(30, 0);
  server_->set_write_timeout(30, 0);
  server_->set_keep_alive_timeout(30);

  // Every request is answered by this one handler (cpp-httplib only reads the body): one place
  // for ids, routing (404 vs 405), error mapping and the request log.
  auto dispatch = [this](const httplib::Request& raw, httplib::Response& out) {
    Request request = to_request(raw);
    Response response;
    auto match = router_.match(request.method, request.path);
    request.route = match.pattern;
    if (match.handler) {
      request.path_params = std::move(match.params);
      try {
        CurrentRequest current(raw);
        response = (*match.handler)(request);
      } catch (...) {
        response = error_response(request, std::current_exception());
      }
    } else if (match.path_known) {
      response = error_response(
          request, gleaner::Error(ErrorCode::MethodNotAllowed,
                                  request.method + " is not allowed on " + request.path));
    } else {
      response = error_response(
          request, gleaner::Error(ErrorCode::NotFound, "no route " + request.path));
    }
    write(out, request, response);
    const auto elapsed =
        std::chrono::duration_cast<Millis>(SteadyClock::now() - request.received);
    log::info("http") << request.id << ' ' << request.method << ' '
                      << (request.route.empty() ? request.path : request.route) << ' '
                      << response.status << ' ' << elapsed.count() << "ms";
    if (observer_) observer_(request, response.status, elapsed);
  };
  const std::string any = ".*";
  server_->Get(any, dispatch);
  server_->Post(any, dispatch);
  server_->Put(any, dispatch);
  server_->Patch(any, dispatch);
  server_->Delete(any, dispatch);
  server_->Options(any, dispatch);

  // Errors cpp-httplib raises itself before routing (413 for a body over the limit, 400 for a
  // malformed request) still get the service's JSON error body.
  server_->set_error_handler([](const httplib::Request& raw, httplib::Response& out) {
    if (!out.body.empty()) return;
    Request request = to_request(raw);
    ErrorCode code = out.status == 413 ? ErrorCode::PayloadTooLarge
                     : out.status == 404 ? ErrorCode::NotFound
                                         : ErrorCode::InvalidParameter;
    std::string message = out.status == 413 ? "request body is larger than the limit"
                                            : "malformed HTTP request";
    write(out, request, error_response(request, gleaner::Error(code, message)));
  });
}

HttpServer::~HttpServer() { stop(); }

void HttpServer::set_observer(Observer observer) { observer_ = std::move(observer); }

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
  return port_;
}

void HttpServer::run() { server_->listen_after_bind(); }

void HttpServer::stop() {
  if (server_) server_->stop();
}

}  // namespace gleaner::api
