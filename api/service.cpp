#include "api/service.h"

#include "api/admission.h"
#include "api/metrics.h"
#include "api/routes/routes.h"
#include "browser/pool.h"
#include "proxies/gateway.h"
#include "screenshots/serve.h"
#include "core/log.h"
#include "store/store.h"

namespace gleaner::api {

void add_routes(Router& router, Dependencies& deps) {
  add_health_routes(router, deps);
  add_metrics_routes(router, deps);
  add_account_routes(router, deps);
  add_endpoint_routes(router, deps);
  add_web_routes(router, deps);
  add_jobs_routes(router, deps);
}

Service::Service(Config config) : deps_(std::make_unique<Dependencies>()) {
  deps_->config = std::move(config);
  // The store opens first: a bad `store` or `costs` entry stops the start before any browser.
  deps_->costs = store::Costs::from_config(deps_->config);
  deps_->store = store::open_store(deps_->config, SystemClock::instance(), store::StoreRole::Node);
  auto pool_options = browser::PoolOptions::from_config(deps_->config);
  deps_->admission = std::make_unique<Admission>(AdmissionOptions::from_config(
      deps_->config, pool_options.processes * pool_options.pages_per_process));
  deps_->metrics = std::make_unique<Metrics>();
  const bool replaying = !pool_options.replay_dir.empty();
  deps_->pool = std::make_unique<browser::Pool>(std::move(pool_options));
  if (!replaying) deps_->gateway = proxies::Gateway::from_config(deps_->config);
  deps_->screenshots = std::make_unique<screenshots::ScreenshotService>(deps_->config);
  Router router;
  add_routes(router, *deps_);
  for (const auto& route : router.describe()) log::debug("api") << "route " << route;
  server_ = std::make_unique<HttpServer>(ServerOptions::from_config(deps_->config),
                                         std::move(router));
  server_->set_observer([metrics = deps_->metrics.get()](const Request& request, int status,
                                                         Millis elapsed) {
    metrics->observe_request(request.route, request.method, status, elapsed);
  });
  sweeper_ = std::thread([this] { sweep_reservations(); });
}

Service::~Service() { shutdown(Millis(0)); }

int Service::bind() { return server_->bind(); }

void Service::run() { server_->run(); }

void Service::shutdown(Millis grace) {
  // New connections are refused first; requests in flight keep their pages until `grace`.
  if (server_) server_->stop();
  if (deps_ && deps_->pool) deps_->pool->shutdown(grace);
  {
    std::lock_guard lock(sweep_mutex_);
    stopping_ = true;
  }
  sweep_cv_.notify_all();
  if (sweeper_.joinable() && sweeper_.get_id() != std::this_thread::get_id()) sweeper_.join();
}

void Service::sweep_reservations() {
  const std::chrono::seconds every(
      std::max<long long>(deps_->config.get_int("reservation_sweep_seconds", 60), 1));
  std::unique_lock lock(sweep_mutex_);
  while (!sweep_cv_.wait_for(lock, every, [this] { return stopping_; })) {
    lock.unlock();
    try {
      if (int n = deps_->store->release_expired(); n > 0) {
        log::info("api") << "released " << n << " expired credit reservations";
      }
    } catch (const std::exception& e) {
      log::warn("api") << "could not release expired reservations: " << e.what();
    }
    lock.lock();
  }
}

}  // namespace gleaner::api
