#pragma once
// A scripted transport for tests (STYLE.md #1): records what the connection sends, lets the test
// answer by id, out of order or never, push events, and close the stream as a crashed peer would.
// Incoming messages are delivered on the fake's own thread, as the real transport does.
#include "cdp/transport.h"

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gleaner::cdp {

class FakeTransport final : public Transport {
 public:
  using Json = nlohmann::json;
  /// Called for each message the connection sends (on the sender's thread); may deliver().
  using Responder = std::function<void(const Json& message, FakeTransport& transport)>;

  FakeTransport();
  ~FakeTransport() override;

  void start(Handlers handlers) override;
  void send(std::string message) override;
  void close() override;

  void set_responder(Responder responder);
  /// Queues a message for delivery to the connection, in order, on the fake's thread.
  void deliver(Json message);
  /// A reply with `result` to command `id`.
  void reply(std::int64_t id, Json result);
  /// Ends the stream as the peer would (e.g. a crashed browser).
  void close_from_peer(std::string reason);

  /// Every message sent so far, parsed.
  std::vector<Json> sent() const;
  /// Waits (up to `timeout`) until at least `count` messages were sent; returns them.
  std::vector<Json> wait_for_sent(std::size_t count, Millis timeout = Millis(5000)) const;
  /// Waits until every delivered message has been handed to the connection.
  void flush();

 private:
  void run();

  mutable std::mutex mutex_;  // guards everything below but thread_
  mutable std::condition_variable cv_;
  Handlers handlers_;
  Responder responder_;
  std::vector<Json> sent_;
  std::deque<std::function<void()>> inbox_;
  bool delivering_ = false;
  bool stopping_ = false;
  bool closed_ = false;
  std::thread thread_;  // declared last
};

}  // namespace gleaner::cdp
