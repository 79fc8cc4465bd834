#include "api/auth.h"
#include "api/billing.h"
#include "api/metrics.h"
#include "api/routes/routes.h"
#include "browser/pool.h"
#include "extract/field_health.h"
#include "extract/pool_tabs.h"
#include "extract/registry.h"

namespace gleaner::api {

void add_endpoint_routes(Router& router, Dependencies& deps) {
  for (const extract::RegisteredEndpoint& registered : extract::registered_endpoints()) {
    const extract::Endpoint* endpoint = registered.endpoint;
    const Handler handler = [endpoint, &deps](Request& request) {
      // 401, then 400, then 402: a malformed request never costs a reservation.
      const store::Account caller = authenticate(request, deps);
      extract::ValidatedParams params = endpoint->validate(request.query);
      return billed(
          request, deps, caller, endpoint->route(), [&](const store::Account&, Deadline deadline) {
            extract::PoolTabs tabs(*deps.pool, {}, deps.site_egress);
            extract::EndpointResult result = endpoint->fetch(params, tabs, deadline);
            if (deps.metrics) {
              deps.metrics->observe_fields(
                  endpoint->route(), extract::field_presence(result.body, endpoint->fields()));
            }
            Response response;
            response.body = std::move(result.body);
            response.url = std::move(result.url);
            return response;
          });
    };
    // The seed's path and the site's name as the hosted service's clients write it: one
    // handler, so one validation, cost (the endpoint's route) and answer.
    router.add("GET", endpoint->path(), handler);
    router.add("GET", registered.site_path(), handler);
  }
}

}  // namespace gleaner::api
