#pragma once
// The request shapes of the hosted service's published n8n node (client_requests.json, written by
// hand from its source: see the file's "about"), turned into the queries the node sends.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "extract/params.h"

namespace gleaner::testing::hosted_client {

/// client_requests.json.
const nlohmann::json& requests();

/// One request the node sends: its path and query, what it varies (for messages), and the
/// value a 400 must name when gleaner cannot serve it (empty: it must be accepted).
struct Shape {
  std::string path;
  extract::QueryParams query;
  std::string varies;
  std::string unserved_parameter;
};

/// Every shape of an operation of requests()["operations"]: its base request, then each field
/// with each of its values (options one by one, a multiOptions list one item at a time and all
/// together, booleans true and false, numbers and strings by their sample), encoded as the node's
/// qs encoding writes them (arrays indexed: lr[0], homeTypes[][0]).
std::vector<Shape> shapes_of(const nlohmann::json& operation);

/// The query of a JSON object of name → value (string, number, boolean or array of strings,
/// arrays written indexed as the node writes them).
extract::QueryParams query_of(const nlohmann::json& object);

/// "a=1&b%5B0%5D=x": a query for an HTTP request line.
std::string encode(const extract::QueryParams& query);

}  // namespace gleaner::testing::hosted_client
