#include "api/routes/routes.h"
#include "browser/pool.h"
#include "extract/registry.h"

#include <algorithm>

namespace gleaner::api {

void add_endpoint_routes(Router& router, Dependencies& deps) {
  // The whole request's time budget: navigation, waits and extraction (spec: at most 300 s).
  const Millis budget(std::clamp<long long>(deps.config.get_int("endpoint_timeout_ms", 90000),
                                            1000, 300000));
  for (const extract::Endpoint* endpoint : extract::all_endpoints()) {
    router.add("GET", std::string(endpoint->path()), [endpoint, budget, &deps](Request& request) {
      const Deadline deadline = request.received + budget;
      extract::ValidatedParams params = endpoint->validate(request.query);
      extract::EndpointResult result = endpoint->run(params, *deps.pool, deadline);
      Response response;
      response.body = std::move(result.body);
      response.url = std::move(result.url);
      return response;
    });
  }
}

}  // namespace gleaner::api
