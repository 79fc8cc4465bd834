#pragma once
// One function per group of routes; service.cpp calls each. A feature's routes live in one file
// here and call into the feature's own folder.
#include "api/router.h"
#include "api/service.h"
#include "extract/params.h"

namespace gleaner::api {

/// GET /health: the pool's state, without authentication.
void add_health_routes(Router& router, Dependencies& deps);
/// GET /metrics: Prometheus text, without authentication.
void add_metrics_routes(Router& router, Dependencies& deps);
/// GET /account: the caller's balance, allowance, period and usage.
void add_account_routes(Router& router, Dependencies& deps);
/// GET /scrape/<site>/<page> for every endpoint of extract/registry.h, authenticated and charged.
void add_endpoint_routes(Router& router, Dependencies& deps);
/// POST /scrape/web (charged) and GET /screenshots/{file} (signed URLs, no API key).
void add_web_routes(Router& router, Dependencies& deps);
/// GET /openapi.json: the OpenAPI document (api/openapi.h), without authentication.
void add_openapi_routes(Router& router);
/// Scraper jobs: POST /scrapers/maps/jobs, GET/DELETE /scrapers/jobs/{id}, results, list.
void add_jobs_routes(Router& router, Dependencies& deps);
/// The query of GET /scrapers/jobs (paging), declared once for validation and the OpenAPI document.
const extract::Parameters& job_list_params();
/// The query of GET /scrapers/jobs/{id}/results: paging and format.
const extract::Parameters& job_results_params();

}  // namespace gleaner::api
