#pragma once
// The envelope every JSON response starts with, and the ONE mapping from errors to HTTP
// (spec/conventions.md "Envelope" and "Errors").
#include <cstddef>
#include <exception>
#include <limits>
#include <string>
#include <utility>

#include "api/http.h"
#include "core/config.h"
#include "core/error.h"

namespace gleaner::api {

/// The JSON text of a response: `{"requestMetadata": {id, status, url?}, ...body}` with
/// requestMetadata first. `status` is "ok" for 2xx and "error" otherwise. A text that would pass
/// `max_bytes` is an Error(AnswerTooLarge), found while it is written: no more than `max_bytes`
/// are ever held.
std::string render_json(const Request& request, const Response& response,
                        std::size_t max_bytes = std::numeric_limits<std::size_t>::max());

/// The largest JSON answer the service writes (entry `max_answer_bytes`, default 50 MB; at least
/// 64 KiB): past it a request ends with 502 `answer_too_large`, uncharged (docs/api.md "Sizes").
std::size_t max_answer_bytes(const Config& config);

/// Renders a JSON response into its raw body (application/json), once, so that it is measured
/// before it is charged and not rendered again when written. A response with a raw body already
/// (CSV, PNG) or sent in pieces (an export) is left as it is. Throws Error(AnswerTooLarge) past `max_bytes`.
void render_within(const Request& request, Response& response, std::size_t max_bytes);

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
