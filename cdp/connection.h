#pragma once
// One DevTools connection per browser, with flat sessions (Target.attachToTarget, flatten: true):
// messages are routed by session id, then by call id (replies) or by method (events).
//
// Threading: calls may be made from any thread. Replies and events arrive on the transport's
// thread; event handlers run there and must not wait on a reply (use notify() or send()).
#include "cdp/error.h"
#include "cdp/transport.h"
#include "core/clock.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gleaner::cdp {

using Json = nlohmann::json;
using EventHandler = std::function<void(const Json& params)>;
using SubscriptionId = std::uint64_t;

/// Connection::on's session for an event of every session, the browser's included.
inline constexpr const char* kAnySession = "*";

/// The reply to one command, waited for with the deadline it was sent with.
class PendingCall {
 public:
  PendingCall() = default;
  /// Waits for the reply's `result`. Throws cdp::Error: Timeout at the deadline (the call is then
  /// forgotten), Closed, Crashed or Protocol.
  Json get();
  bool valid() const { return state_ != nullptr; }

 private:
  friend class Connection;
  struct State;
  std::shared_ptr<State> state_;
};

class Connection {
 public:
  explicit Connection(std::unique_ptr<Transport> transport);
  /// Closes the transport; every pending call fails with Closed.
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Sends a command to the browser target (`session_id` empty) or to a session; returns at once.
  PendingCall send(const std::string& method, Json params, const std::string& session_id,
                   Deadline deadline);
  /// Sends and waits for the result.
  Json call(const std::string& method, Json params, const std::string& session_id,
            Deadline deadline);
  /// Sends without waiting for the reply; an error reply is logged. Safe inside event handlers.
  void notify(const std::string& method, Json params, const std::string& session_id);

  /// Calls `handler` for each event `method` on `session_id` ("" for browser-level events,
  /// kAnySession for every session's).
  SubscriptionId on(const std::string& method, const std::string& session_id,
                    EventHandler handler);
  /// After off() returns the handler is not running and will not run again (unless off() is
  /// called from that handler itself).
  void off(SubscriptionId id);

  /// Called once when the connection closes (browser exited or socket failed), after every
  /// pending call has failed. Set before the first call.
  void set_close_handler(std::function<void(const std::string& reason)> handler);

  bool closed() const { return closed_.load(); }
  /// Closes the connection; pending calls fail with Closed.
  void close();
  /// Number of calls awaiting a reply (for tests and health).
  std::size_t pending_count() const;

 private:
  void on_message(std::string message);
  void on_transport_closed(const std::string& reason);
  void fail_session(const std::string& session_id, ErrorKind kind, const std::string& why);
  void dispatch_event(const std::string& session_id, const std::string& method, const Json& params);
  friend class Session;
  /// Drops what is remembered of a dead session once its Session object is gone.
  void forget_session(const std::string& session_id);

  std::atomic<bool> closed_{false};
  std::atomic<std::int64_t> next_id_{1};

  mutable std::mutex mutex_;  // guards pending_, dead_sessions_, close_reason_, close_handler_
  std::map<std::int64_t, std::shared_ptr<PendingCall::State>> pending_;
  std::map<std::string, ErrorKind> dead_sessions_;  // crashed or detached sessions
  std::string close_reason_;
  std::function<void(const std::string&)> close_handler_;

  std::recursive_mutex handlers_mutex_;  // guards handlers_; held while a handler runs
  struct Subscription {
    std::string session_id;
    std::string method;
    EventHandler handler;
  };
  std::map<SubscriptionId, Subscription> handlers_;
  SubscriptionId next_subscription_ = 1;

  // Declared last: its thread calls back into the members above until it is destroyed.
  std::unique_ptr<Transport> transport_;
};

/// One attached target (a page) on a connection. Unsubscribes its handlers when destroyed.
class Session {
 public:
  Session(Connection& connection, std::string session_id);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::string& id() const { return id_; }
  Connection& connection() { return connection_; }

  PendingCall send(const std::string& method, Json params, Deadline deadline) {
    return connection_.send(method, std::move(params), id_, deadline);
  }
  Json call(const std::string& method, Json params, Deadline deadline) {
    return connection_.call(method, std::move(params), id_, deadline);
  }
  void notify(const std::string& method, Json params) {
    connection_.notify(method, std::move(params), id_);
  }
  SubscriptionId on(const std::string& method, EventHandler handler);

 private:
  Connection& connection_;
  std::string id_;
  std::mutex mutex_;  // guards subscriptions_
  std::vector<SubscriptionId> subscriptions_;
};

}  // namespace gleaner::cdp
