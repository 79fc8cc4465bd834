#pragma once
// The envelope every JSON response starts with, and the ONE mapping from errors to HTTP
// (spec/conventions.md "Envelope" and "Errors").
#include "api/http.h"
#include "core/error.h"

#include <exception>
#include <string>
#include <utility>

namespace gleaner::api {

/// The JSON text of a response: `{"requestMetadata": {id, status, url?}, ...body}` with
/// requestMetadata first. `status` is "ok" for 2xx and "error" otherwise.
std::string render_json(const Request& request, const Response& response);

/// render_json's text of `response` cut around the value of its body's `key` (present, its value
/// ignored): what comes before and after it, for a value written in pieces between them (a job's
/// rows). render_json would give before + the value's text + after.
std::pair<std::string, std::string> render_json_around(const Request& request,
                                                       const Response& response,
                                                       const std::string& key);

/// Maps whatever a handler threw to its response: gleaner::Error by its code (400 naming the
/// parameter, 429 with Retry-After, ...), anything else a 500 `internal` that names the request id.
/// Logs the failure with its detail (never shown to the client).
Response error_response(const Request& request, std::exception_ptr error);

/// A response for an error code raised outside a handler (unknown route, body too large).
Response error_response(const Request& request, const gleaner::Error& error);

}  // namespace gleaner::api
