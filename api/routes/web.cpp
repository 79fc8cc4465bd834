#include "api/auth.h"
#include "api/billing.h"
#include "api/routes/routes.h"
#include "extract/web/fetch.h"
#include "extract/web/plain_fetch.h"
#include "screenshots/serve.h"

namespace gleaner::api {

void add_web_routes(Router& router, Dependencies& deps) {
  router.add("POST", "/scrape/web", [&deps](Request& request) {
    // Authenticated, then validated before charging: a bad body is a 400, never a 402.
    const store::Account caller = authenticate(request, deps);
    web::WebRequest body = web::parse_web_request(request.body, default_request_budget(deps.config));
    web::WebServices services{*deps.pool, deps.gateway.get(), deps.screenshots.get()};
    // The proxy too is chosen before charging: it decides the cost.
    const proxies::Route route = web::choose_route(body, services);
    return billed_overlapped(request, deps, caller, web::cost_key(body, route),
                             [&](const store::Account&, Deadline deadline, const Reserved& reserved) {
      // The tab opens while the credits are reserved; the page loads once they are.
      web::WebResult result = web::fetch_page(body, route, services, deadline, reserved);
      Response response;
      response.body = std::move(result.body);
      response.url = std::move(result.url);
      return response;
    }, body.timeout);
  });

  // Signed screenshot URLs need no API key: the signature is the credential.
  router.add("GET", "/screenshots/{file}", [&deps](Request& request) {
    if (!deps.screenshots) throw Error(ErrorCode::NotFound, "no such screenshot");
    auto shot = deps.screenshots->serve(request.path_params.at("file"),
                                        request.query_value("expires"), request.query_value("sig"));
    Response response = Response::raw(std::move(shot.body), shot.content_type);
    response.headers["Cache-Control"] = shot.cache_control;
    return response;
  });
}

}  // namespace gleaner::api
