#include "api/service.h"

#include "api/routes/routes.h"
#include "browser/pool.h"
#include "core/log.h"

namespace gleaner::api {

void add_routes(Router& router, Dependencies& deps) {
  add_health_routes(router, deps);
  add_endpoint_routes(router, deps);
}

Service::Service(Config config) : deps_(std::make_unique<Dependencies>()) {
  deps_->config = std::move(config);
  deps_->pool = std::make_unique<browser::Pool>(browser::PoolOptions::from_config(deps_->config));
  Router router;
  add_routes(router, *deps_);
  for (const auto& route : router.describe()) log::debug("api") << "route " << route;
  server_ = std::make_unique<HttpServer>(ServerOptions::from_config(deps_->config),
                                         std::move(router));
}

Service::~Service() { shutdown(Millis(0)); }

int Service::bind() { return server_->bind(); }

void Service::run() { server_->run(); }

void Service::shutdown(Millis grace) {
  // New connections are refused first; requests in flight keep their pages until `grace`.
  if (server_) server_->stop();
  if (deps_ && deps_->pool) deps_->pool->shutdown(grace);
}

}  // namespace gleaner::api
