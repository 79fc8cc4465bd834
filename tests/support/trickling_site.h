#pragma once
// A page that never finishes: /trickle answers 200 at once and then sends its body three bytes
// every 100 ms for as long as the client reads, so a fetch of it ends only when the client gives
// up (its deadline, or a cancellation). It counts the requests and the connections the client
// closed while the body was still coming: how a test sees that a fetch it stopped really stopped.
// Header-only, over LocalServer.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "tests/support/local_server.h"

namespace gleaner::testing {

class TricklingSite {
 public:
  TricklingSite() {
    server_.server().Get("/trickle", [this](const httplib::Request&, httplib::Response& response) {
      ++requests_;
      response.set_chunked_content_provider(
          "text/html", [this](std::size_t, httplib::DataSink& sink) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the pace, not a wait
            if (released_) {
              sink.done();
              return true;
            }
            if (!sink.write("<p>", 3)) {
              ++dropped_;
              return false;
            }
            return true;
          });
    });
    server_.start();
  }
  /// Ends the bodies still coming, then (server_ goes first) stops the server.
  ~TricklingSite() { released_ = true; }
  TricklingSite(const TricklingSite&) = delete;
  TricklingSite& operator=(const TricklingSite&) = delete;

  std::string url() const { return server_.url("/trickle"); }
  /// Requests of /trickle so far.
  int requests() const { return requests_; }
  /// Of them, those whose client closed the connection while the body was coming.
  int dropped() const { return dropped_; }

 private:
  std::atomic<int> requests_{0};
  std::atomic<int> dropped_{0};
  std::atomic<bool> released_{false};
  // Declared last: stopped before the counters its handlers use.
  LocalServer server_;
};

}  // namespace gleaner::testing
