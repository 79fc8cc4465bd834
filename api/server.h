#pragma once
// The HTTP server (cpp-httplib underneath). All routing, request ids, error mapping and the
// one-line-per-request log happen here, so every route behaves alike: an unknown route is a JSON
// 404, a wrong method a 405, an oversized body a 413, an exception a 500 naming the request id.
#include "api/router.h"
#include "core/config.h"

#include <atomic>
#include <functional>
#include <memory>

namespace httplib {
class Server;
}

namespace gleaner::api {

struct ServerOptions {
  std::string host = "0.0.0.0";
  int port = 8080;
  /// Worker threads answering requests (each blocks while its page loads).
  int threads = 64;
  /// Request bodies above this are refused with 413.
  std::size_t max_body_bytes = 1u << 20;

  /// Entries `host`, `port`, `http_threads`, `max_body_bytes`.
  static ServerOptions from_config(const Config& config);
};

class HttpServer {
 public:
  HttpServer(ServerOptions options, Router router);
  ~HttpServer();

  /// Called after every request with the matched route ("" when none), status and duration.
  using Observer = std::function<void(const Request&, int status, Millis elapsed)>;
  void set_observer(Observer observer);

  /// Binds the listening socket; returns the port (useful with port 0).
  int bind();
  /// Serves until stop(). Call bind() first.
  void run();
  /// Stops accepting and returns once run() has ended its accept loop.
  void stop();
  int port() const { return port_; }

 private:
  void handle(const struct httplib_request_view& view);

  ServerOptions options_;
  Router router_;
  Observer observer_;
  int port_ = 0;
  std::unique_ptr<httplib::Server> server_;
};

/// Whether the client of the request this thread is handling still holds its connection open.
/// cpp-httplib 0.11.4 does not tell a handler that its client left, so this finds the request's
/// socket by its four addresses and peeks at it (a closed or reset peer is gone; a client that
/// only half-closed its side counts as gone too). True outside a handler and when the socket
/// cannot be found: then the write of the response is the only test left.
bool client_connected();

}  // namespace gleaner::api
