#pragma once
// Every data endpoint of the service. The HTTP layer registers one GET route per entry. The list
// is generated from the gleaner_site_endpoint() lines of extract/sites/<site>/CMakeLists.txt:
// adding an endpoint is its own files plus that one line.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "extract/endpoint.h"

namespace gleaner::extract {

/// An endpoint with the names its files go by: extract/sites/<site>/<name>.*,
/// tests/sites/<site>/<name>_*test.cpp, docs/endpoints/<site>/<name>.md.
struct RegisteredEndpoint {
  const Endpoint* endpoint;
  std::string_view site;
  std::string_view name;
  /// extract/sites/<site>/<name>.js, embedded: what Endpoint::script() answers.
  std::string_view script;

  /// docs/endpoints/<site>/<name>.md, relative to the source tree.
  std::string doc_path() const;
  /// tests/sites/<site>/data/<name>/, relative to the source tree: the endpoint's recorded cases.
  std::string data_dir() const;
  /// "/scrape/<site>/<name>": the path the hosted service's clients send for this endpoint
  /// (`/scrape/google/serp` for `/scrape/search/serp`). An alias of Endpoint::path(): the same
  /// validation, cost, metrics and answer (docs/api.md "Pointing a hosted-service client at
  /// gleaner").
  std::string site_path() const;
};

/// All endpoints with their names, in registration order.
const std::vector<RegisteredEndpoint>& registered_endpoints();
/// All endpoints, in registration order.
const std::vector<const Endpoint*>& all_endpoints();
/// The endpoint serving `path` ("/scrape/search/serp", or its site path "/scrape/google/serp"),
/// or nullptr.
const Endpoint* find_endpoint(std::string_view path);
/// Every endpoint's route and default cost: the costs the service charges unless configured
/// otherwise (store::Costs::from_config).
std::map<std::string, std::int64_t, std::less<>> endpoint_costs();

}  // namespace gleaner::extract
