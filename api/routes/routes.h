#pragma once
// One function per group of routes; service.cpp calls each. A feature's routes live in one file
// here and call into the feature's own folder.
#include <string>
#include <string_view>
#include <vector>

#include "api/router.h"
#include "api/service.h"
#include "extract/params.h"

namespace gleaner::api {

/// GET /health: the pool's state, without authentication.
void add_health_routes(Router& router, Dependencies& deps);
/// GET /metrics: Prometheus text, without authentication.
void add_metrics_routes(Router& router, Dependencies& deps);
/// GET /account: the caller's balance, allowance, period and usage; the same answer at GET
/// /user/me and /user/me/usage, where the hosted service's clients ask for it.
void add_account_routes(Router& router, Dependencies& deps);
/// GET /scrape/<word>/<page> for every endpoint of extract/registry.h, authenticated and charged,
/// and the same endpoint at its site path /scrape/<site>/<name> (RegisteredEndpoint::site_path).
void add_endpoint_routes(Router& router, Dependencies& deps);
/// POST /scrape/web (charged), the same fetch as GET /scrape/web with the body's fields as query
/// parameters (as the hosted service's clients send it), and GET /screenshots/{file} (signed
/// URLs, no API key).
void add_web_routes(Router& router, Dependencies& deps);
/// The operations the hosted service's clients offer that gleaner does not serve: each answers
/// 501 naming itself and why, none having any real page to build on.
void add_hosted_client_routes(Router& router);
/// An operation of those clients no real page of could be found: it answers 501
/// `not_implemented` naming itself and why (spec/conventions.md).
struct NotImplementedOperation {
  const char* path;       // the path the clients send
  const char* operation;  // its name, as the message says it
  const char* why;        // why it is not built
};
/// Those operations, in the order they are registered (docs, OpenAPI and tests).
const std::vector<NotImplementedOperation>& hosted_client_operations_not_implemented();
/// The message their 501 carries.
std::string not_implemented_message(const NotImplementedOperation& op);
/// GET /console and its files under /console/ (console/, embedded): the web console, without a
/// key, every file with kConsoleContentSecurityPolicy.
void add_console_routes(Router& router);
/// Only this origin's own scripts, styles and connections; images also as data: and blob: URLs
/// (a screenshot shown from the answer); no frames, no plugins, no form posts.
inline constexpr std::string_view kConsoleContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'";
/// GET /openapi.json: the OpenAPI document (api/openapi.h), without authentication.
void add_openapi_routes(Router& router);
/// `body` (POST /scrape/web's, or a batch's) with the session the request's X-Session-Id header
/// names, which a load balancer can route on (docs/sessions.md): as its sessionId when it has none;
/// a body naming another one is a 400 (conflicting_parameters). A body that is no JSON object is
/// left for its parser to refuse.
std::string with_session_header(const std::string& body, const Request& request);
/// GET /scrape/sessions (the caller's browser sessions) and DELETE /scrape/sessions/{id}.
void add_session_routes(Router& router, Dependencies& deps);
/// Scraper jobs: POST /scrapers/maps/jobs, GET/DELETE /scrapers/jobs/{id}, results, list.
void add_jobs_routes(Router& router, Dependencies& deps);
/// The query of GET /scrapers/jobs (paging), declared once for validation and the OpenAPI document.
const extract::Parameters& job_list_params();
/// The query of GET /scrapers/jobs/{id}/results: paging and format.
const extract::Parameters& job_results_params();

}  // namespace gleaner::api
