#include "tests/support/local_server.h"

#include "tests/support/chromium.h"

#include <stdexcept>

namespace gleaner::testing {

LocalServer::LocalServer() {
  // Short keep-alive: the destructor waits for open connections to wind down.
  server_.set_keep_alive_timeout(1);
  port_ = server_.bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("cannot bind a loopback port");
}

void LocalServer::start() {
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  // cpp-httplib's stop() does nothing before the server runs: a server stopped right after
  // start() would otherwise block its thread, and the destructor, for good.
  const Deadline end = max_wait();
  while (!server_.is_running() && SteadyClock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));  // polling pace, not an assertion
  }
  if (!server_.is_running()) throw std::runtime_error("the loopback server did not start");
}

LocalServer::~LocalServer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stopping_cv_.notify_all();
  server_.stop();
  if (thread_.joinable()) thread_.join();
}

std::string LocalServer::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void LocalServer::hang() {
  std::unique_lock lock(mutex_);
  stopping_cv_.wait_for(lock, kMaxWait, [this] { return stopping_; });
}

}  // namespace gleaner::testing
