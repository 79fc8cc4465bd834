#include "extract/registry.h"

#include "extract/sites/events.h"
#include "extract/sites/finance.h"
#include "extract/sites/news.h"
#include "extract/sites/serp.h"
#include "extract/sites/video.h"

namespace gleaner::extract {

const std::vector<const Endpoint*>& all_endpoints() {
  // One line per endpoint; each site file exposes `const Endpoint& <name>_endpoint()`.
  // clang-format off
  static const std::vector<const Endpoint*> endpoints = {
      &serp_endpoint(),
      &events_endpoint(),
      &news_endpoint(),
      &video_endpoint(),
      &finance_endpoint(),
  };
  // clang-format on
  return endpoints;
}

const Endpoint* find_endpoint(std::string_view path) {
  for (const Endpoint* e : all_endpoints()) {
    if (e->path() == path) return e;
  }
  return nullptr;
}

}  // namespace gleaner::extract
