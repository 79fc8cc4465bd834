#include "store/costs.h"

#include "core/config.h"
#include "core/error.h"

namespace gleaner::store {

Costs Costs::defaults(const Table& endpoints) {
  Costs costs;
  costs.table_ = endpoints;
  // The service's own keys: costs the spec leaves open, decided in spec/conventions.md.
  costs.table_.insert_or_assign("web", 5);
  costs.table_.insert_or_assign("web_residential", 10);
  // jsRendering: false: a plain HTTP fetch, a tenth of the browser's price.
  costs.table_.insert_or_assign("web_plain", 1);
  costs.table_.insert_or_assign("web_plain_residential", 2);
  costs.table_.insert_or_assign("maps_job_row", 5);
  return costs;
}

Costs Costs::from_config(const Config& config, const Table& endpoints) {
  Costs costs = defaults(endpoints);
  const nlohmann::json overrides = config.get_json("costs");
  if (overrides.is_null()) return costs;
  if (!overrides.is_object())
    Config::refuse("costs", "expected an object of endpoint key to credits");
  for (const auto& [key, value] : overrides.items()) {
    auto it = costs.table_.find(key);
    if (it == costs.table_.end()) {
      Config::refuse("costs", "unknown endpoint key '" + key + "'");
    }
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0) {
      Config::refuse("costs", "'" + key + "' must be a whole number of credits >= 0");
    }
    it->second = value.get<std::int64_t>();
  }
  return costs;
}

std::int64_t Costs::of(std::string_view endpoint_key) const {
  auto it = table_.find(endpoint_key);
  if (it == table_.end()) {
    throw Error(ErrorCode::Internal, "internal error",
                "no cost configured for endpoint key '" + std::string(endpoint_key) + "'");
  }
  return it->second;
}

}  // namespace gleaner::store
