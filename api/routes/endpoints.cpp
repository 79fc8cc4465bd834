#include "api/auth.h"
#include "api/billing.h"
#include "api/metrics.h"
#include "api/routes/routes.h"
#include "browser/pool.h"
#include "core/error.h"
#include "extract/field_health.h"
#include "extract/pool_tabs.h"
#include "extract/registry.h"

namespace gleaner::api {

void add_endpoint_routes(Router& router, Dependencies& deps) {
  for (const extract::Endpoint* endpoint : extract::all_endpoints()) {
    router.add("GET", endpoint->path(), [endpoint, &deps](Request& request) {
      // 401, then 400, then 402: a malformed request never costs a reservation.
      const store::Account caller = authenticate(request, deps);
      extract::ValidatedParams params = endpoint->validate(request.query);
      return billed(
          request, deps, caller, endpoint->route(), [&](const store::Account&, Deadline deadline) {
            extract::PoolTabs tabs(*deps.pool, {}, deps.site_egress);
            auto observe = [&](const nlohmann::json& body) {
              if (deps.metrics) {
                deps.metrics->observe_fields(endpoint->route(),
                                             extract::field_presence(body, endpoint->fields()));
              }
            };
            extract::EndpointResult result;
            try {
              result = endpoint->fetch(params, tabs, deadline);
            } catch (const Error& e) {
              // A page we could not read counts as an answer without any field: the day a
              // site changes its layout shows in field health, whatever the pages still read.
              if (e.code() == ErrorCode::ExtractionFailed) observe(nlohmann::json::object());
              throw;
            }
            observe(result.body);
            Response response;
            response.body = std::move(result.body);
            response.url = std::move(result.url);
            return response;
          });
    });
  }
}

}  // namespace gleaner::api
