#pragma once
// GET /scrape/homes/property: one Redfin property page (redfin.com or redfin.ca). property.js
// reads the site's own API answers the page was rendered from (`__reactServerState.InitialContext`
// → `ReactServerAgent.cache.dataCache`, each body a `{}&&`-prefixed JSON string: initialInfo,
// aboveTheFold, belowTheFold, mainHouseInfoPanelInfo, avm) and the JSON-LD listing; this shapes
// them.
#include <optional>
#include <string>

#include "extract/endpoint.h"

namespace gleaner::extract::redfin {

/// The property endpoint (registered by extract/sites/redfin/CMakeLists.txt).
const Endpoint& property_endpoint();

/// A property URL of the site: its domain ("redfin.com" or "redfin.ca"), path
/// (`/<state>/<city>/<address>[/unit-<n>]/home/<id>`) and property id.
struct PropertyUrl {
  std::string domain;
  std::string path;
  std::string property_id;
};
std::optional<PropertyUrl> parse_property_url(const std::string& url);

/// An amount as the site writes it: 2098000 → "$2,098,000" (redfin.ca writes "$" too).
std::string dollars(double amount);

}  // namespace gleaner::extract::redfin
