#pragma once
// The HTTP layer's own request and response types: handlers never see cpp-httplib, so they are
// testable and the server library could be swapped.
#include "core/clock.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace gleaner::api {

/// Query parameters; `name[]` arrays repeat their key.
using Query = std::multimap<std::string, std::string>;

struct Request {
  std::string id;      ///< request id (UUID), returned as requestMetadata.id
  std::string method;  ///< GET, POST, ...
  std::string path;
  std::string route;   ///< the matched pattern, e.g. /scrapers/jobs/{id}
  std::map<std::string, std::string> path_params;
  Query query;
  std::map<std::string, std::string> headers;  ///< lower-case names
  std::string body;
  SteadyClock::time_point received;
  /// The account whose key authenticated the request, once authenticate() accepted it.
  std::optional<std::int64_t> caller_id;

  /// A header by lower-case name, or "".
  std::string header(const std::string& name) const;
  /// The first value of a query parameter, if present.
  std::optional<std::string> query_value(const std::string& name) const;
};

struct Response {
  int status = 200;
  /// JSON body without the envelope; the server puts requestMetadata first.
  nlohmann::json body = nlohmann::json::object();
  /// requestMetadata.url: the page actually loaded, when there was one.
  std::optional<std::string> url;
  /// A non-JSON body (PNG, CSV, metrics text) with its content type; the envelope is then skipped.
  std::optional<std::string> raw_body;
  std::string content_type;
  std::map<std::string, std::string> headers;
  /// A body too large to hold (a job's export), sent in pieces with the chunked transfer coding
  /// in place of `body` or `raw_body`: each call gives the next piece, none after the last. Called
  /// on the server's worker threads one call at a time, each only once the client has taken the
  /// piece before; released (with whatever it holds) when the answer ends, whether sent whole or
  /// cut off because the client left, stopped reading within the write deadline, or a call threw
  /// (the client then sees the body end without its last chunk).
  std::function<std::optional<std::string>()> pieces;
  /// The error code of an error answer (set by error_response, api/envelope.h), kept apart from
  /// the body, which the server renders to text before the request is observed.
  std::string error_code;

  static Response raw(std::string body, std::string content_type) {
    Response r;
    r.raw_body = std::move(body);
    r.content_type = std::move(content_type);
    return r;
  }
  static Response stream(std::function<std::optional<std::string>()> pieces,
                         std::string content_type) {
    Response r;
    r.pieces = std::move(pieces);
    r.content_type = std::move(content_type);
    return r;
  }
};

using Handler = std::function<Response(Request&)>;

}  // namespace gleaner::api
