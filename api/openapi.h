#pragma once
// The OpenAPI 3.1 document of the service (issue 15), built from what the service declares: the
// query parameters of every data endpoint come from its extract/params.h declaration, the paging
// of the jobs routes from api/routes/jobs.cpp, so the document cannot drift from validation. The
// POST bodies and the response shapes are described once, in api/openapi.cpp.
#include <nlohmann/json.hpp>

#include "extract/params.h"

namespace gleaner::api {

/// The whole document, served at GET /openapi.json and copied to docs/openapi.json.
nlohmann::json openapi_document();

/// The OpenAPI parameter objects (`in: query`) of a declared query.
nlohmann::json openapi_query_parameters(const extract::Parameters& params);

}  // namespace gleaner::api
