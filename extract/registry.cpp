#include "extract/registry.h"

// Every registered endpoint's declaration and script, and generated_site_endpoints() (build tree).
#include "gleaner_extract_embedded.h"
#include "gleaner_site_endpoints.h"
#include "gleaner_site_scripts.h"
#include "site_registry.inc"

namespace gleaner::extract {

std::string RegisteredEndpoint::doc_path() const {
  return "docs/endpoints/" + std::string(site) + "/" + std::string(name) + ".md";
}

std::string RegisteredEndpoint::data_dir() const {
  return "tests/sites/" + std::string(site) + "/data/" + std::string(name) + "/";
}

std::string RegisteredEndpoint::site_path() const {
  return "/scrape/" + std::string(site) + "/" + std::string(name);
}

const std::vector<RegisteredEndpoint>& registered_endpoints() {
  static const std::vector<RegisteredEndpoint> endpoints = generated_site_endpoints();
  return endpoints;
}

const std::vector<const Endpoint*>& all_endpoints() {
  static const std::vector<const Endpoint*> endpoints = [] {
    std::vector<const Endpoint*> out;
    for (const RegisteredEndpoint& e : registered_endpoints()) out.push_back(e.endpoint);
    return out;
  }();
  return endpoints;
}

const Endpoint* find_endpoint(std::string_view path) {
  for (const RegisteredEndpoint& e : registered_endpoints()) {
    if (e.endpoint->path() == path || e.site_path() == path) return e.endpoint;
  }
  return nullptr;
}

std::map<std::string, std::int64_t, std::less<>> endpoint_costs() {
  std::map<std::string, std::int64_t, std::less<>> out;
  for (const Endpoint* e : all_endpoints()) out.emplace(e->route(), e->default_cost());
  return out;
}

}  // namespace gleaner::extract
