#pragma once
// A page that never finishes: /trickle answers 200 at once and then sends its body three bytes
// every 100 ms until the site goes, so a fetch of it ends only when the client gives up (its
// deadline, or a cancellation). It counts the requests. Header-only, over LocalServer.
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
            return sink.write("<p>", 3);
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

 private:
  std::atomic<int> requests_{0};
  std::atomic<bool> released_{false};
  // Declared last: stopped before the counters its handlers use.
  LocalServer server_;
};

}  // namespace gleaner::testing
