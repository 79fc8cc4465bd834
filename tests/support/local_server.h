#pragma once
// A real HTTP server on 127.0.0.1, port 0 (cpp-httplib), for tests that need a live site: slow
// answers, answers that never come, cookies set by a server. Register routes on server() before
// start(); the destructor releases hanging handlers, stops the server and joins its thread.
//
// Declare it after everything its handlers use (and before the leases that load from it): Chromium
// may still request something (a favicon) as a test ends, and the server must stop first.
#include <httplib.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace gleaner::testing {

class LocalServer {
 public:
  LocalServer();
  ~LocalServer();
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  httplib::Server& server() { return server_; }
  /// Starts answering (on its own thread). Call once, after registering the routes.
  void start();
  int port() const { return port_; }
  /// "http://127.0.0.1:<port><path>"
  std::string url(const std::string& path) const;

  /// For a handler that must never answer: blocks until the server stops (at most kMaxWait).
  void hang();

 private:
  httplib::Server server_;
  int port_ = 0;
  std::mutex mutex_;  // guards stopping_
  std::condition_variable stopping_cv_;
  bool stopping_ = false;
  // Declared last: runs server_.listen_after_bind() until the destructor stops it.
  std::thread thread_;
};

}  // namespace gleaner::testing
