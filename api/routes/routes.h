#pragma once
// One function per group of routes; service.cpp calls each. A feature's routes live in one file
// here and call into the feature's own folder.
#include <string>
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
/// The operations the hosted service's clients offer that gleaner does not serve yet: each path
/// answers 404 naming it.
void add_hosted_client_routes(Router& router);
/// Those paths, in the order they are registered (docs and tests).
const std::vector<std::string>& hosted_client_operations_not_built();
/// The operations of those clients gleaner does not build for want of a real page to verify a
/// reader on: each path answers 501 not_implemented naming the operation and why.
const std::vector<std::string>& hosted_client_operations_not_implemented();
/// GET /openapi.json: the OpenAPI document (api/openapi.h), without authentication.
void add_openapi_routes(Router& router);
/// Scraper jobs: POST /scrapers/maps/jobs, GET/DELETE /scrapers/jobs/{id}, results, list.
void add_jobs_routes(Router& router, Dependencies& deps);
/// The query of GET /scrapers/jobs (paging), declared once for validation and the OpenAPI document.
const extract::Parameters& job_list_params();
/// The query of GET /scrapers/jobs/{id}/results: paging and format.
const extract::Parameters& job_results_params();

}  // namespace gleaner::api
