#pragma once
// The seam under the DevTools connection: a stream of text messages to one DevTools endpoint.
// WebSocketTransport speaks to a real Chromium; tests use tests/support/fake_transport.h.
#include "core/clock.h"

#include <functional>
#include <memory>
#include <string>

namespace gleaner::cdp {

class Transport {
 public:
  struct Handlers {
    /// Each incoming message, in arrival order, on the transport's own thread.
    std::function<void(std::string message)> on_message;
    /// Called once when the stream ends (peer closed, I/O error, or close()), on any thread.
    std::function<void(std::string reason)> on_close;
  };

  virtual ~Transport() = default;
  /// Starts delivering messages. Called once, before any send().
  virtual void start(Handlers handlers) = 0;
  /// Queues one message and returns at once; never blocks on the network. Thread-safe. Messages are
  /// written in the order queued, one write in flight at a time. Dropped after close.
  virtual void send(std::string message) = 0;
  /// Closes the stream; on_close follows. Thread-safe and idempotent.
  virtual void close() = 0;
};

/// Opens a websocket to `url` (`ws://host:port/devtools/browser/...`), finishing the handshake
/// before `deadline`. Throws cdp::Error(Closed) when it cannot.
std::unique_ptr<Transport> connect_websocket(const std::string& url, Deadline deadline);

}  // namespace gleaner::cdp
