#include "api/service.h"

#include <cmath>

#include "api/admission.h"
#include "api/metrics.h"
#include "api/routes/routes.h"
#include "browser/pool.h"
#include "core/error.h"
#include "core/heap.h"
#include "core/json_depth.h"
#include "core/log.h"
#include "extract/page_token.h"
#include "extract/pool_tabs.h"
#include "extract/registry.h"
#include "extract/scenario/scenario.h"
#include "extract/sessions.h"
#include "jobs/http_webhook_sender.h"
#include "jobs/job_store_of.h"
#include "jobs/maps_source.h"
#include "jobs/page_worker.h"
#include "jobs/web_page_source.h"
#include "jobs/webhook_outbox.h"
#include "jobs/worker.h"
#include "proxies/gateway.h"
#include "proxies/guard.h"
#include "screenshots/serve.h"
#include "screenshots/signing.h"
#include "store/session_store.h"
#include "store/sql_store.h"
#include "store/store.h"

namespace gleaner::api {

/// The scraper jobs run by this node: maps searches in tabs of the service's pool, batches and
/// crawls by /scrape/web's page fetch, rows charged and stored by the workers, webhooks delivered
/// by the outbox (docs/jobs.md).
struct Service::Jobs {
  Jobs(Dependencies& deps, int pool_pages)
      : tabs(*deps.pool, {}, deps.site_egress),
        source(tabs, jobs::emails_by_page_fetch({*deps.pool, deps.gateway.get(), nullptr}),
               extract::google::maps::MapsOptions::from_config(deps.config)),
        sender(proxies::AddressGuard::from_config(deps.config), deps.resolver),
        outbox(*deps.jobs, sender, SystemClock::instance(),
               jobs::OutboxOptions::from_config(deps.config)),
        worker(*deps.jobs, source, SystemClock::instance(),
               jobs::WorkerOptions::from_config(deps.config, pool_share(deps.config, pool_pages),
                                                deps.costs.of("maps_job_row")),
               [this] { outbox.notify(); }),
        pages(web::WebServices{*deps.pool, deps.gateway.get(), deps.screenshots.get(),
                               deps.sessions.get()}),
        page_worker(*deps.jobs, pages, SystemClock::instance(),
                    jobs::PageWorkerOptions::from_config(
                        deps.config, pool_share(deps.config, pool_pages),
                        [&costs = deps.costs](const std::string& key) { return costs.of(key); }),
                    [this] { outbox.notify(); }) {}

  /// Jobs run at once: entry `jobs_pool_share` (default 0.25) of the pool's pages, at least one,
  /// so that the synchronous endpoints keep the rest.
  static int pool_share(const Config& config, int pool_pages) {
    const double share = config.get_double("jobs_pool_share", 0.25);
    if (!(share > 0 && share <= 1)) {
      throw std::invalid_argument("configuration entry jobs_pool_share must be in (0, 1]");
    }
    return std::max(1, static_cast<int>(std::floor(share * pool_pages)));
  }

  extract::PoolTabs tabs;
  jobs::BrowserPlaceSource source;
  jobs::HttpWebhookSender sender;
  jobs::WebhookOutbox outbox;
  jobs::JobWorker worker;
  jobs::WebPageSource pages;
  jobs::PageWorker page_worker;
};

namespace {

/// Counts an error answered to an authenticated caller in its usage (GET /account's usage.errors).
/// A store that fails here costs the count, never the answer.
void count_error(Dependencies& deps, const Request& request, const Response& response) {
  if (response.status < 400 || !request.caller_id || response.error_code.empty()) return;
  const std::string& code = response.error_code;
  try {
    deps.store->count_error(*request.caller_id, request.route, code);
  } catch (const std::exception& e) {
    log::warn("api") << request.id << " error " << code
                     << " not counted in the account's usage: " << e.what();
  }
}

}  // namespace

void add_routes(Router& router, Dependencies& deps) {
  add_health_routes(router, deps);
  add_metrics_routes(router, deps);
  add_account_routes(router, deps);
  add_endpoint_routes(router, deps);
  add_web_routes(router, deps);
  add_session_routes(router, deps);
  add_jobs_routes(router, deps);
  add_openapi_routes(router);
  add_console_routes(router);
  add_hosted_client_routes(router);
}

Service::Service(Config config) : deps_(std::make_unique<Dependencies>()) {
  deps_->config = std::move(config);
  // Bodies, what pages return and what jobs store: one depth for the process (core/json_depth.h).
  const long long json_depth = deps_->config.get_int("max_json_depth", kDefaultMaxJsonDepth);
  if (json_depth < 1 || json_depth > kLargestMaxJsonDepth) {
    Config::refuse("max_json_depth", "must be from 1 to " + std::to_string(kLargestMaxJsonDepth));
  }
  set_max_json_depth(static_cast<int>(json_depth));
  // What a jsScenario evaluate step may return (docs/api.md "Sizes").
  const long long evaluate_bytes = deps_->config.get_int(
      "max_evaluate_bytes", static_cast<long long>(scenario::kDefaultMaxEvaluateBytes));
  if (evaluate_bytes < 1024) Config::refuse("max_evaluate_bytes", "must be at least 1024");
  scenario::set_max_evaluate_bytes(static_cast<std::size_t>(evaluate_bytes));
  // The store opens first: a bad `store` or `costs` entry stops the start before any browser.
  deps_->costs = store::Costs::from_config(deps_->config, extract::endpoint_costs());
  deps_->store = store::open_store(deps_->config, SystemClock::instance(), store::StoreRole::Node);
  auto pool_options = browser::PoolOptions::from_config(deps_->config);
  const int pool_pages = pool_options.processes * pool_options.pages_per_process;
  deps_->admission =
      std::make_unique<Admission>(AdmissionOptions::from_config(deps_->config, pool_pages));
  deps_->metrics = std::make_unique<Metrics>();
  const bool replaying = !pool_options.replay_dir.empty();
  deps_->pool = std::make_unique<browser::Pool>(std::move(pool_options));
  deps_->resolver = proxies::make_resolver(deps_->config);
  if (!replaying) deps_->gateway = proxies::Gateway::from_config(deps_->config, deps_->resolver);
  deps_->site_egress = extract::SiteEgress::from_config(deps_->config, deps_->gateway.get());
  deps_->screenshots = std::make_unique<screenshots::ScreenshotService>(deps_->config);
  deps_->page_tokens = std::make_shared<extract::PageTokens>(
      screenshots::UrlSigner::secret_from_config(deps_->config));
  deps_->jobs = jobs::job_store_of(deps_->config, *deps_->store);
  deps_->session_book = std::make_unique<store::SqlSessionBook>(
      dynamic_cast<store::SqlStore&>(*deps_->store).database(), SystemClock::instance());
  deps_->sessions = std::make_unique<extract::SessionRegistry>(
      *deps_->pool, *deps_->session_book, deps_->jobs->node_id(),
      extract::SessionLimits::from_config(deps_->config, pool_pages));
  if (deps_->config.get_bool("jobs_enabled", true)) {
    jobs_ = std::make_unique<Jobs>(*deps_, pool_pages);
    deps_->wake_job_worker = [jobs = jobs_.get()] {
      jobs->worker.notify();
      jobs->page_worker.notify();
    };
  }
  Router router;
  add_routes(router, *deps_);
  for (const auto& route : router.describe()) log::debug("api") << "route " << route;
  server_ =
      std::make_unique<HttpServer>(ServerOptions::from_config(deps_->config), std::move(router));
  server_->set_observer(
      [deps = deps_.get()](const Request& request, const Response& response, Millis elapsed) {
        deps->metrics->observe_request(request.route, request.method, response.status, elapsed);
        count_error(*deps, request, response);
      });
  sweeper_ = std::thread([this] { sweep(); });
  if (jobs_) {
    jobs_->outbox.start();
    jobs_->worker.start();  // releases this node's leases, page entries included
    jobs_->page_worker.start(/*release_leases=*/false);
  }
}

Service::~Service() {
  shutdown(Millis(0));
}

int Service::bind() {
  return server_->bind();
}

void Service::run() {
  server_->run();
}

void Service::shutdown(Millis grace) {
  // New connections are refused first; requests in flight keep their pages until `grace`.
  if (server_) server_->stop();
  // Jobs pause before the browsers go, so that nothing a dying browser gives back is stored;
  // they stay this node's and resume at the next start (docs/jobs.md).
  if (jobs_) {
    jobs_->worker.request_stop();
    jobs_->page_worker.request_stop();
  }
  // Sessions end with the node (docs/sessions.md): their pages go back before the pool stops.
  if (deps_ && deps_->sessions) deps_->sessions->end_all();
  if (deps_ && deps_->pool) deps_->pool->shutdown(grace);
  if (jobs_) {
    jobs_->worker.stop();
    jobs_->page_worker.stop();
    jobs_->outbox.stop();
  }
  {
    std::lock_guard lock(sweep_mutex_);
    stopping_ = true;
  }
  sweep_cv_.notify_all();
  if (sweeper_.joinable() && sweeper_.get_id() != std::this_thread::get_id()) sweeper_.join();
}

void Service::sweep() {
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
      log::warn("api") << "could not release expired reservations: " << describe(e);
    }
    const std::size_t resident = resident_bytes();
    release_free_heap();
    log::debug("api") << "returned free heap: resident " << resident / 1024 << " KiB before, "
                      << resident_bytes() / 1024 << " KiB after";
    lock.lock();
  }
}

}  // namespace gleaner::api
