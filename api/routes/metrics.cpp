#include "api/admission.h"
#include "api/metrics.h"
#include "api/routes/routes.h"
#include "browser/pool.h"

namespace gleaner::api {

void add_metrics_routes(Router& router, Dependencies& deps) {
  // Unauthenticated like /health: scrapers hold no API key. It shows no account's data.
  router.add("GET", "/metrics", [&deps](Request&) {
    return Response::raw(deps.metrics->render(deps.admission->state(), deps.pool->state()),
                         "text/plain; version=0.0.4; charset=utf-8");
  });
}

}  // namespace gleaner::api
