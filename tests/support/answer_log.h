#pragma once
// The answers the end-to-end suites receive, written down for the OpenAPI check (issue 15): when
// GLEANER_ANSWERS_DIR is set (ctest sets it for the suites declared with ANSWERS), every answer
// is appended as one line {"method", "path", "status", "contentType", "answer" (JSON bodies)} to
// a file of this process in that directory; tools/openapi/validate_answers.mjs then validates
// every line against docs/openapi.json (the ctest openapi_suite_answers, which runs after those
// suites). Without the variable nothing is written.
#include <httplib.h>

#include <functional>
#include <string_view>

#include "api/http.h"
#include "extract/endpoint.h"

namespace gleaner::testing {

/// Records one answer: its content type always, its body when that is JSON.
void record_answer(std::string_view method, std::string_view path, int status,
                   std::string_view content_type, std::string_view body);

/// Records every answer `client` receives from now on.
void record_answers(httplib::Client& client);

/// Runs `handler` (a route's, called without the server) and records what the server sends for
/// `request`: the envelope around the response, or the error body of what it threw (rethrown).
/// An answer in pieces (Response::pieces) comes back whole, in raw_body.
api::Response answer_recorded(const api::Request& request,
                              const std::function<api::Response()>& handler);

/// Validates `query`, runs `endpoint` with `tabs`, and records the answer the HTTP route would
/// send: the envelope around the body, or the error body with its status (rethrown).
extract::EndpointResult fetch_recorded(const extract::Endpoint& endpoint, extract::TabSource& tabs,
                                       const extract::QueryParams& query);

}  // namespace gleaner::testing
