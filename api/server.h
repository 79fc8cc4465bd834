#pragma once
// The HTTP server. All routing, request ids, error mapping and the one-line-per-request log happen
// here, so every route behaves alike: an unknown route is a JSON 404, a wrong method a 405, an
// oversized body a 413, an exception a 500 naming the request id.
//
// Connections are accepted here (accept_loop) and read by api/connections.h, which applies the
// limits (body size, header and body deadlines, connections per address and in all, the bytes
// buffered) before any worker thread is involved; cpp-httplib then parses the request's target
// and writes the response. docs/security.md ("Limits of the HTTP server") says why it is split so.
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
  /// Open client connections from all addresses together (api/connections.h says what happens at
  /// the cap). 0: connection_cap() of the process's descriptor limit.
  int max_connections = 0;
  /// Descriptors kept for everything but client connections (Chromium's pipes and sockets, the
  /// gateway's two per browser connection, the store, webhooks) when max_connections is derived.
  int reserved_descriptors = 2048;
  /// Request bytes (bodies being received) all connections may buffer together; past it a new
  /// body is refused with 503.
  std::size_t max_buffered_body_bytes = 256u << 20;
  /// JSON answers above this are replaced by 502 `answer_too_large` (api/envelope.h).
  std::size_t max_answer_bytes = 50'000'000;

  /// Entries `host`, `port`, `http_threads`, `max_body_bytes`, `max_header_bytes`,
  /// `header_deadline_ms`, `body_deadline_ms`, `keep_alive_ms`, `write_deadline_ms`,
  /// `connections_per_address`, `max_connections`, `reserved_descriptors`,
  /// `max_buffered_body_bytes`, `max_answer_bytes`.
  static ServerOptions from_config(const Config& config);
};

/// The default cap of client connections for a process allowed `descriptors` open files:
/// `descriptors - reserved`, at most 10000, and at least a quarter of `descriptors`.
int connection_cap(long long descriptors, int reserved);

/// Prepares the process for serving many clients; call once at start, before any thread:
/// raises the soft limit of open files to the hard one (systemd's default soft limit, 1024, is
/// far below what a server needs), and fixes glibc's mmap threshold at 128 KiB so that a freed
/// request body (up to max_body_bytes) goes back to the system at once instead of staying in the
/// heap (by default the threshold grows with every large block freed, and 4,000 half-sent 1 MiB
/// bodies left gigabytes behind after their connections closed). Returns the soft limit now.
long long prepare_process();

class HttpServer {
 public:
  HttpServer(ServerOptions options, Router router);
  ~HttpServer();

  /// Called after every request with the request (its matched route, "" when none), the answer
  /// and the duration.
  using Observer = std::function<void(const Request&, const Response&, Millis elapsed)>;
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
  /// Accepts connections until stop(), backing off while the process is out of descriptors.
  void accept_loop();

  ServerOptions options_;
  Router router_;
  Observer observer_;
  int port_ = 0;
  /// Written by stop() to end accept_loop().
  int stop_fd_ = -1;
  std::unique_ptr<FrontServer> server_;
  /// After server_: its workers call server_, so it is destroyed (stopped) first.
  std::unique_ptr<Connections> connections_;
};

/// What a peek at the socket of the request this thread is handling tells about its client.
enum class ClientState {
  Connected,      ///< nothing says otherwise
  SendingClosed,  ///< it closed its sending side: it only half-closed (still reading) or left;
                  ///< only writing the answer tells which
  Gone,           ///< the connection was reset or failed
};
/// Connected outside a handler.
ClientState client_state();

/// Whether the client of the request this thread is handling still holds its connection open
/// for sure (client_state() is Connected): for work that may stop early when it is not. True
/// outside a handler.
bool client_connected();

/// Asks to be told, on a worker thread, whether the answer to the request this thread handles
/// was delivered (see Connections::Reply::on_delivered). Returns false outside a handler (nothing
/// will be told); inside one, once per request.
bool when_delivered(std::function<void(bool delivered)> settle);

}  // namespace gleaner::api
