#include "api/metrics.h"

#include "api/admission.h"
#include "api/routes/routes.h"
#include "browser/pool.h"
#include "core/error.h"
#include "core/log.h"
#include "store/jobs_store.h"

namespace gleaner::api {

void add_metrics_routes(Router& router, Dependencies& deps) {
  // Unauthenticated like /health: scrapers hold no API key. It shows no account's data.
  router.add("GET", "/metrics", [&deps](Request&) {
    JobsState jobs;
    try {
      jobs.by_status = deps.jobs->jobs_by_status();
      jobs.pending_deliveries = deps.jobs->pending_deliveries();
    } catch (const std::exception& e) {
      // The store being unreachable must not take the rest of the metrics down with it.
      log::warn("metrics") << "jobs not read from the store: " << describe(e);
    }
    return Response::raw(deps.metrics->render(deps.admission->state(), deps.pool->state(), jobs),
                         "text/plain; version=0.0.4; charset=utf-8");
  });
}

}  // namespace gleaner::api
