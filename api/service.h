#pragma once
// The whole service assembled from its parts: configuration → browser pool, store, routes, HTTP
// server. `gleaner serve` builds one; loopback tests build one on port 0.
#include "api/server.h"
#include "core/config.h"

#include <memory>

namespace gleaner::browser {
class Pool;
}

namespace gleaner::api {

/// What route handlers need. Owned by Service; handlers capture a reference.
struct Dependencies {
  Config config;
  std::unique_ptr<browser::Pool> pool;
};

class Service {
 public:
  /// Builds every part from `config` (starts the browser pool). Throws on bad configuration.
  explicit Service(Config config);
  ~Service();

  /// Binds the port; returns it (port 0 picks a free one).
  int bind();
  /// Serves until shutdown().
  void run();
  /// Stops accepting requests, lets leases finish within `grace`, then stops the browsers.
  void shutdown(Millis grace);

  Dependencies& dependencies() { return *deps_; }
  int port() const { return server_->port(); }

 private:
  std::unique_ptr<Dependencies> deps_;
  std::unique_ptr<HttpServer> server_;
};

/// Registers every route of the service on `router`.
void add_routes(Router& router, Dependencies& deps);

}  // namespace gleaner::api
