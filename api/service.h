#pragma once
// The whole service assembled from its parts: configuration → browser pool, store, routes, HTTP
// server. `gleaner serve` builds one; loopback tests build one on port 0.
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "api/server.h"
#include "core/config.h"
#include "extract/pool_tabs.h"
#include "store/costs.h"

namespace gleaner::browser {
class Pool;
}
namespace gleaner::store {
class Store;
}
namespace gleaner::proxies {
class Gateway;
class Resolver;
}  // namespace gleaner::proxies
namespace gleaner::screenshots {
class ScreenshotService;
}
namespace gleaner::store {
class JobStore;
class SessionBook;
}  // namespace gleaner::store
namespace gleaner::extract {
class PageTokens;
class SessionRegistry;
}  // namespace gleaner::extract

namespace gleaner::api {

class Admission;
class Metrics;

/// What route handlers need. Owned by Service; handlers capture a reference.
struct Dependencies {
  Config config;
  std::unique_ptr<browser::Pool> pool;
  /// Accounts, keys and credits (entry `store`), opened as this node.
  std::unique_ptr<store::Store> store;
  /// Credits per endpoint key (entry `costs`).
  store::Costs costs;
  /// Per-account limits and the queue in front of the pool (api/admission.h).
  std::unique_ptr<Admission> admission;
  /// Counters for GET /metrics.
  std::unique_ptr<Metrics> metrics;
  /// Name resolution for everything this node connects to itself (the gateway, webhooks): one
  /// cache of answers (proxies::make_resolver).
  std::shared_ptr<proxies::Resolver> resolver;
  /// The egress gateway every POST /scrape/web context goes through (address guard, upstream
  /// proxies). Null while the pool replays an archive: nothing reaches the network then.
  std::unique_ptr<proxies::Gateway> gateway;
  /// How site endpoints and the maps jobs reach the sites (through `gateway`, and an upstream
  /// proxy when entry `sites_proxy_type` asks for one).
  extract::SiteEgress site_egress;
  /// Screenshot capture, storage and signed URLs.
  std::unique_ptr<screenshots::ScreenshotService> screenshots;
  /// The scraper jobs' tables over `store` (store/jobs_store.h).
  std::shared_ptr<store::JobStore> jobs;
  /// Where every node notes the browser sessions it holds (store/session_store.h), and this
  /// node's sessions (extract/sessions.h, docs/sessions.md). Shared pointers, so that code that
  /// builds Dependencies (tests) need not see their classes.
  std::shared_ptr<store::SessionBook> session_book;
  std::shared_ptr<extract::SessionRegistry> sessions;
  /// Signs and checks the page tokens answers hand out (extract/page_token.h), under the secret
  /// every node shares for screenshot URLs. Shared, so that code that builds Dependencies (tests)
  /// need not see the class; without it an endpoint that mints or redeems tokens answers 500.
  std::shared_ptr<extract::PageTokens> page_tokens;
  /// Wakes this node's job worker (a job was created); does nothing when the node runs no jobs.
  std::function<void()> wake_job_worker = [] {};
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
  /// Every `reservation_sweep_seconds`: gives back credits held by requests that died on any
  /// node (docs/store.md asks every node to do it), and returns the allocator's free pages to
  /// the system, so that the resident set follows what the service uses (docs/api.md).
  void sweep();

  std::unique_ptr<Dependencies> deps_;
  /// The job worker, the maps source it reads with and the webhook outbox (service.cpp).
  struct Jobs;
  std::unique_ptr<Jobs> jobs_;
  std::unique_ptr<HttpServer> server_;
  std::mutex sweep_mutex_;  // guards stopping_
  std::condition_variable sweep_cv_;
  bool stopping_ = false;
  // Declared last: runs sweep() until shutdown() joins it.
  std::thread sweeper_;
};

/// Registers every route of the service on `router`.
void add_routes(Router& router, Dependencies& deps);

}  // namespace gleaner::api
