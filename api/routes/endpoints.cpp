#include "api/auth.h"
#include "api/billing.h"
#include "api/metrics.h"
#include "api/routes/routes.h"
#include "browser/pool.h"
#include "core/error.h"
#include "extract/field_health.h"
#include "extract/page_token.h"
#include "extract/pool_tabs.h"
#include "extract/registry.h"

namespace gleaner::api {
namespace {

// The page opener names `url` when the address guard refused the page or a redirect of it: the
// caller's parameter on an endpoint that takes one. An endpoint that builds its URLs itself has
// no such parameter: a site of its own that redirects to a private address is the site's error.
extract::EndpointResult fetch_naming_the_url(const extract::Endpoint& endpoint,
                                             const extract::ValidatedParams& params,
                                             extract::TabSource& tabs, Deadline deadline) {
  try {
    return endpoint.fetch(params, tabs, deadline);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::InvalidParameter || e.parameter() != "url" ||
        endpoint.parameters().find("url") != nullptr) {
      throw;
    }
    throw Error(ErrorCode::UpstreamError, "the site redirected to an address that is refused",
                e.detail());
  }
}

const extract::PageTokens& page_tokens_of(const Dependencies& deps) {
  if (!deps.page_tokens) throw Error(ErrorCode::Internal, "page tokens are not configured");
  return *deps.page_tokens;
}

// Every page token the request carries must be one this service gave the caller for this
// endpoint, unexpired: a 400 naming the parameter otherwise, before any credit is reserved.
void verify_page_tokens(const extract::Endpoint& endpoint, const extract::ValidatedParams& params,
                        const store::Account& caller, const Dependencies& deps) {
  for (const extract::Endpoint::TakenPageToken& taken : endpoint.page_tokens_taken()) {
    const std::optional<std::string> token = params.string(taken.parameter);
    if (!token) continue;
    const extract::PageTokenVerdict verdict =
        page_tokens_of(deps).verify(caller.id, taken.kind, *token);
    if (verdict != extract::PageTokenVerdict::Valid) {
      throw invalid_parameter(taken.parameter,
                              taken.parameter + " " + extract::page_token_refusal(verdict));
    }
  }
}

}  // namespace

void add_endpoint_routes(Router& router, Dependencies& deps) {
  for (const extract::RegisteredEndpoint& registered : extract::registered_endpoints()) {
    const extract::Endpoint* endpoint = registered.endpoint;
    const Handler handler = [endpoint, &deps](Request& request) {
      // 401, then 400, then 402: a malformed request never costs a reservation.
      const store::Account caller = authenticate(request, deps);
      extract::ValidatedParams params = endpoint->validate(request.query);
      verify_page_tokens(*endpoint, params, caller, deps);
      return billed_overlapped(
          request, deps, caller, endpoint->route(),
          [&](const store::Account&, Deadline deadline, const Reserved& reserved) {
            extract::PoolTabs pool_tabs(*deps.pool, {}, deps.site_egress);
            // The tab opens while the credits are reserved; the page loads once they are.
            extract::GatedTabs tabs(pool_tabs, reserved);
            auto observe = [&](const nlohmann::json& body) {
              if (deps.metrics) {
                deps.metrics->observe_fields(endpoint->route(),
                                             extract::field_presence(body, endpoint->fields()));
              }
            };
            extract::EndpointResult result;
            try {
              result = fetch_naming_the_url(*endpoint, params, tabs, deadline);
            } catch (const Error& e) {
              // A page we could not read counts as an answer without any field: the day a
              // site changes its layout shows in field health, whatever the pages still read.
              if (e.code() == ErrorCode::ExtractionFailed) observe(nlohmann::json::object());
              throw;
            }
            endpoint->add_page_tokens(
                result.body, params, [&](std::string_view kind, const nlohmann::json& claims) {
                  return page_tokens_of(deps).mint(caller.id, kind, claims);
                });
            observe(result.body);
            Response response;
            response.body = std::move(result.body);
            response.url = std::move(result.url);
            return response;
          });
    };
    // The seed's path and the site's name as the hosted service's clients write it: one
    // handler, so one validation, cost (the endpoint's route) and answer.
    router.add("GET", endpoint->path(), handler);
    // An operation the seed does not name is routed at its site path only.
    if (registered.site_path() != endpoint->path()) {
      router.add("GET", registered.site_path(), handler);
    }
  }
}

}  // namespace gleaner::api
