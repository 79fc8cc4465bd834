#include "extract/registry.h"

namespace gleaner::extract {

const std::vector<const Endpoint*>& all_endpoints() {
  // One line per endpoint; each site file exposes `const Endpoint& <name>_endpoint()`.
  static const std::vector<const Endpoint*> endpoints = {};
  return endpoints;
}

const Endpoint* find_endpoint(std::string_view path) {
  for (const Endpoint* e : all_endpoints()) {
    if (e->path() == path) return e;
  }
  return nullptr;
}

}  // namespace gleaner::extract
