#include "cdp/connection.h"

#include <condition_variable>
#include <optional>
#include <utility>

#include "core/error.h"
#include "core/log.h"

namespace gleaner::cdp {

// One command awaiting its reply. Completed exactly once: by the reply, by a session's death, by
// the connection closing, or by the sweep of abandoned calls.
struct PendingCall::State {
  std::string method;
  std::string session_id;
  Deadline deadline;
  bool wanted = true;  // false for notify(): nobody waits, errors are only logged

  std::mutex mutex;  // guards done, result, error
  std::condition_variable cv;
  bool done = false;
  Json result;
  std::optional<Error> error;

  void complete(Json value) {
    {
      std::lock_guard lock(mutex);
      if (done) return;
      done = true;
      result = std::move(value);
    }
    cv.notify_all();
  }
  void fail(Error e) {
    {
      std::lock_guard lock(mutex);
      if (done) return;
      done = true;
      error.emplace(std::move(e));
    }
    cv.notify_all();
    if (!wanted) log::debug("cdp") << "ignored reply failed: " << error->detail();
  }
};

Json PendingCall::get() {
  if (!state_) throw Error(ErrorKind::Closed, "?", "no call was sent");
  std::unique_lock lock(state_->mutex);
  if (!state_->cv.wait_until(lock, state_->deadline, [&] { return state_->done; })) {
    state_->done = true;  // the reply, if it ever comes, is dropped
    throw Error(ErrorKind::Timeout, state_->method, "no reply before the deadline");
  }
  if (state_->error) throw *state_->error;
  return std::move(state_->result);
}

namespace {
// Calls whose waiter gave up stay registered until their reply comes; past this many pending
// calls, send() sweeps those whose deadline passed so a hung page cannot grow the registry.
constexpr std::size_t kSweepThreshold = 256;
constexpr auto kNotifyDeadline = std::chrono::seconds(60);
}  // namespace

Connection::Connection(std::unique_ptr<Transport> transport) : transport_(std::move(transport)) {
  transport_->start({
      .on_message = [this](std::string message) { on_message(std::move(message)); },
      .on_close = [this](std::string reason) { on_transport_closed(reason); },
  });
}

Connection::~Connection() {
  if (transport_) {
    transport_->close();
    transport_.reset();  // joins the transport's thread: no callback runs after this
  }
  on_transport_closed("connection destroyed");
}

void Connection::close() {
  if (transport_) transport_->close();
}

void Connection::set_close_handler(std::function<void(const std::string&)> handler) {
  std::lock_guard lock(mutex_);
  close_handler_ = std::move(handler);
}

std::size_t Connection::pending_count() const {
  std::lock_guard lock(mutex_);
  return pending_.size();
}

PendingCall Connection::send(const std::string& method, Json params, const std::string& session_id,
                             Deadline deadline) {
  PendingCall call;
  call.state_ = std::make_shared<PendingCall::State>();
  auto& state = *call.state_;
  state.method = method;
  state.session_id = session_id;
  state.deadline = deadline;

  const std::int64_t id = next_id_++;
  Json message = {{"id", id}, {"method", method}, {"params", std::move(params)}};
  if (!session_id.empty()) message["sessionId"] = session_id;
  std::string frame = message.dump(-1, ' ', false, Json::error_handler_t::replace);

  std::vector<std::shared_ptr<PendingCall::State>> swept;
  {
    std::lock_guard lock(mutex_);
    if (closed_) {
      state.fail(Error(ErrorKind::Closed, method, "connection closed: " + close_reason_));
      return call;
    }
    if (auto dead = dead_sessions_.find(session_id); dead != dead_sessions_.end()) {
      state.fail(Error(
          dead->second, method,
          dead->second == ErrorKind::Crashed ? "the target crashed" : "the session is detached"));
      return call;
    }
    if (pending_.size() >= kSweepThreshold) {
      const auto now = SteadyClock::now();
      for (auto it = pending_.begin(); it != pending_.end();) {
        if (it->second->deadline < now) {
          swept.push_back(std::move(it->second));
          it = pending_.erase(it);
        } else {
          ++it;
        }
      }
    }
    pending_.emplace(id, call.state_);
  }
  for (auto& s : swept)
    s->fail(Error(ErrorKind::Timeout, s->method, "no reply before the deadline"));
  transport_->send(std::move(frame));
  return call;
}

Json Connection::call(const std::string& method, Json params, const std::string& session_id,
                      Deadline deadline) {
  return send(method, std::move(params), session_id, deadline).get();
}

void Connection::notify(const std::string& method, Json params, const std::string& session_id) {
  PendingCall call = send(method, std::move(params), session_id, deadline_in(kNotifyDeadline));
  std::lock_guard lock(call.state_->mutex);
  call.state_->wanted = false;
}

SubscriptionId Connection::on(const std::string& method, const std::string& session_id,
                              EventHandler handler) {
  std::lock_guard lock(handlers_mutex_);
  const SubscriptionId id = next_subscription_++;
  handlers_.emplace(id, Subscription{session_id, method, std::move(handler)});
  return id;
}

void Connection::off(SubscriptionId id) {
  std::lock_guard lock(handlers_mutex_);  // waits for a handler running on another thread
  handlers_.erase(id);
}

void Connection::on_message(std::string message) {
  Json msg = Json::parse(message, nullptr, /*allow_exceptions=*/false);
  if (!msg.is_object()) {
    log::warn("cdp") << "dropped a message that is not a JSON object (" << message.size()
                     << " bytes)";
    return;
  }
  if (auto id_it = msg.find("id"); id_it != msg.end() && id_it->is_number_integer()) {
    std::shared_ptr<PendingCall::State> state;
    {
      std::lock_guard lock(mutex_);
      auto it = pending_.find(id_it->get<std::int64_t>());
      if (it == pending_.end()) return;  // its waiter gave up
      state = std::move(it->second);
      pending_.erase(it);
    }
    if (auto err = msg.find("error"); err != msg.end()) {
      std::string detail = err->value("message", std::string("error"));
      if (err->contains("data")) detail += " (" + err->at("data").dump() + ")";
      state->fail(Error(ErrorKind::Protocol, state->method, detail));
    } else {
      auto result = msg.find("result");
      state->complete(result != msg.end() ? std::move(*result) : Json::object());
    }
    return;
  }
  auto method_it = msg.find("method");
  if (method_it == msg.end() || !method_it->is_string()) return;
  const std::string method = method_it->get<std::string>();
  const std::string session_id = msg.value("sessionId", std::string());
  static const Json kEmpty = Json::object();
  auto params_it = msg.find("params");
  const Json& params = params_it != msg.end() ? *params_it : kEmpty;

  if (method == "Inspector.targetCrashed") {
    fail_session(session_id, ErrorKind::Crashed, "the target crashed");
  } else if (method == "Target.detachedFromTarget") {
    fail_session(params.value("sessionId", std::string()), ErrorKind::Closed,
                 "the session is detached");
  }
  dispatch_event(session_id, method, params);
}

void Connection::fail_session(const std::string& session_id, ErrorKind kind,
                              const std::string& why) {
  if (session_id.empty()) return;
  std::vector<std::shared_ptr<PendingCall::State>> failed;
  {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = dead_sessions_.emplace(session_id, kind);
    if (!inserted && kind == ErrorKind::Crashed) it->second = kind;
    for (auto p = pending_.begin(); p != pending_.end();) {
      if (p->second->session_id == session_id) {
        failed.push_back(std::move(p->second));
        p = pending_.erase(p);
      } else {
        ++p;
      }
    }
  }
  for (auto& s : failed) s->fail(Error(kind, s->method, why));
}

void Connection::forget_session(const std::string& session_id) {
  std::lock_guard lock(mutex_);
  dead_sessions_.erase(session_id);
}

void Connection::dispatch_event(const std::string& session_id, const std::string& method,
                                const Json& params) {
  std::lock_guard lock(handlers_mutex_);
  // Collect first: a handler may subscribe or unsubscribe (itself included) while we run.
  std::vector<SubscriptionId> matching;
  for (const auto& [id, sub] : handlers_) {
    if (sub.method == method && (sub.session_id == session_id || sub.session_id == kAnySession))
      matching.push_back(id);
  }
  for (SubscriptionId id : matching) {
    auto it = handlers_.find(id);
    if (it == handlers_.end()) continue;
    EventHandler handler = it->second.handler;  // a copy: the handler may erase its own entry
    try {
      handler(params);
    } catch (const std::exception& e) {
      log::error("cdp") << "handler of " << method << " threw: " << describe(e);
    }
  }
}

void Connection::on_transport_closed(const std::string& reason) {
  std::map<std::int64_t, std::shared_ptr<PendingCall::State>> failed;
  std::function<void(const std::string&)> handler;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    close_reason_ = reason;
    failed.swap(pending_);
    handler = std::move(close_handler_);
  }
  for (auto& [id, s] : failed) {
    s->fail(Error(ErrorKind::Closed, s->method, "connection closed: " + reason));
  }
  if (handler) handler(reason);
}

Session::Session(Connection& connection, std::string session_id)
    : connection_(connection), id_(std::move(session_id)) {}

Session::~Session() {
  std::vector<SubscriptionId> subscriptions;
  {
    std::lock_guard lock(mutex_);
    subscriptions.swap(subscriptions_);
  }
  for (SubscriptionId id : subscriptions) connection_.off(id);
  connection_.forget_session(id_);
}

SubscriptionId Session::on(const std::string& method, EventHandler handler) {
  SubscriptionId id = connection_.on(method, id_, std::move(handler));
  std::lock_guard lock(mutex_);
  subscriptions_.push_back(id);
  return id;
}

}  // namespace gleaner::cdp
