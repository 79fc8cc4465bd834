#include "tests/support/fake_transport.h"

namespace gleaner::cdp {

FakeTransport::FakeTransport() : thread_([this] { run(); }) {}

FakeTransport::~FakeTransport() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void FakeTransport::start(Handlers handlers) {
  std::lock_guard lock(mutex_);
  handlers_ = std::move(handlers);
}

void FakeTransport::send(std::string message) {
  Responder responder;
  Json parsed = Json::parse(message);
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    sent_.push_back(parsed);
    responder = responder_;
  }
  cv_.notify_all();
  if (responder) responder(parsed, *this);
}

void FakeTransport::close() { close_from_peer("closed by us"); }

void FakeTransport::set_responder(Responder responder) {
  std::lock_guard lock(mutex_);
  responder_ = std::move(responder);
}

void FakeTransport::deliver(Json message) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    inbox_.push_back([this, text = message.dump()] {
      if (handlers_.on_message) handlers_.on_message(text);
    });
  }
  cv_.notify_all();
}

void FakeTransport::reply(std::int64_t id, Json result) {
  deliver({{"id", id}, {"result", std::move(result)}});
}

void FakeTransport::close_from_peer(std::string reason) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    inbox_.push_back([this, reason = std::move(reason)] {
      if (handlers_.on_close) handlers_.on_close(reason);
    });
  }
  cv_.notify_all();
}

std::vector<FakeTransport::Json> FakeTransport::sent() const {
  std::lock_guard lock(mutex_);
  return sent_;
}

std::vector<FakeTransport::Json> FakeTransport::wait_for_sent(std::size_t count,
                                                               Millis timeout) const {
  std::unique_lock lock(mutex_);
  cv_.wait_for(lock, timeout, [&] { return sent_.size() >= count; });
  return sent_;
}

void FakeTransport::flush() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [&] { return inbox_.empty() && !delivering_; });
}

void FakeTransport::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [&] { return stopping_ || !inbox_.empty(); });
    if (inbox_.empty()) return;  // stopping with nothing left to hand over
    auto task = std::move(inbox_.front());
    inbox_.pop_front();
    delivering_ = true;
    lock.unlock();
    task();
    lock.lock();
    delivering_ = false;
    cv_.notify_all();
  }
}

}  // namespace gleaner::cdp
