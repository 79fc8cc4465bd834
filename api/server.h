#pragma once
// The HTTP server. All routing, request ids, error mapping and the one-line-per-request log happen
// here, so every route behaves alike: an unknown route is a JSON 404, a wrong method a 405, an
// oversized body a 413, an exception a 500 naming the request id.
//
// Connections are accepted by cpp-httplib and read by api/connections.h, which applies the limits
// (body size, header and body deadlines, connections per address) before any worker thread is
// involved; cpp-httplib then parses the request's target and writes the response. docs/security.md
// ("Limits of the HTTP server") says why it is split so.
#include "api/connections.h"
#include "api/router.h"
#include "core/clock.h"
#include "core/config.h"

#include <atomic>
#include <functional>
#include <memory>

namespace gleaner::api {

class FrontServer;

struct ServerOptions {
  std::string host = "0.0.0.0";
  int port = 8080;
  /// Worker threads answering requests (each blocks while its page loads).
  int threads = 64;
  /// Request bodies above this (chunked or not) are refused with 413 once the excess is known.
  std::size_t max_body_bytes = 1u << 20;
  /// Request heads (request line and header fields) above this are refused with 431.
  std::size_t max_header_bytes = 64 * 1024;
  /// A request's headers must have arrived this long after its first byte (for a connection's
  /// first request, after the connection was accepted), or it is refused with 408.
  Millis header_deadline{10000};
  /// The whole request, body included, must have arrived this long after its first byte, or 408.
  Millis body_deadline{30000};
  /// How long a kept-alive connection may wait for its next request.
  Millis keep_alive{30000};
  /// How long a client may take to receive a response once it is ready; then it is closed.
  Millis write_deadline{30000};
  /// Open connections one client address may hold; one more is refused with 429.
  int connections_per_address = 32;

  /// Entries `host`, `port`, `http_threads`, `max_body_bytes`, `max_header_bytes`,
  /// `header_deadline_ms`, `body_deadline_ms`, `keep_alive_ms`, `write_deadline_ms`,
  /// `connections_per_address`.
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
  /// Serves until stop(), then returns once the requests in flight have been answered. Call
  /// bind() first.
  void run();
  /// Stops accepting connections and reading requests, and returns at once; requests already
  /// read are still answered.
  void stop();
  int port() const { return port_; }

 private:
  /// Answers one request read by connections_ (on a worker thread): the response's bytes.
  Connections::Reply answer(const Peer& peer, IncomingRequest& incoming, bool last);

  ServerOptions options_;
  Router router_;
  Observer observer_;
  int port_ = 0;
  std::unique_ptr<FrontServer> server_;
  /// After server_: its workers call server_, so it is destroyed (stopped) first.
  std::unique_ptr<Connections> connections_;
};

/// Whether the client of the request this thread is handling still holds its connection open: a
/// peek at the request's socket (a closed or reset peer is gone; a client that only half-closed
/// its side counts as gone too). True outside a handler: then the write of the response is the
/// only test left.
bool client_connected();

}  // namespace gleaner::api
