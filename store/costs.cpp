#include "store/costs.h"

#include "core/error.h"
#include "store/config_entry.h"

namespace gleaner::store {

Costs Costs::defaults() {
  Costs costs;
  costs.table_ = {
      // 10 credits (spec/api.md, Limits).
      {"mart/reviews", 10},
      {"stays/place", 10},
      {"stays/search", 10},
      {"search/serp", 10},
      {"video/video", 10},
      {"travel/place", 10},
      {"search/finance", 10},
      {"local/place", 10},
      {"search/news", 10},
      {"careers/listing", 10},
      // 5 credits (spec/api.md, Limits).
      {"bizdir/search", 5},
      {"bizdir/place", 5},
      {"homes/listing", 5},
      {"estate/listing", 5},
      {"homes/property", 5},
      {"shop/collections", 5},
      {"jobs/job", 5},
      {"rentals/property", 5},
      {"rentals/listing", 5},
      {"search/events", 5},
      // Costs the spec leaves open, decided in spec/conventions.md.
      {"web", 5},
      {"web_residential", 10},
      // jsRendering: false: a plain HTTP fetch, a tenth of the browser's price.
      {"web_plain", 1},
      {"web_plain_residential", 2},
      {"maps_job_row", 5},
  };
  return costs;
}

Costs Costs::from_config(const Config& config) {
  Costs costs = defaults();
  const nlohmann::json overrides = config.get_json("costs");
  if (overrides.is_null()) return costs;
  if (!overrides.is_object()) bad_entry("costs", "expected an object of endpoint key to credits");
  for (const auto& [key, value] : overrides.items()) {
    auto it = costs.table_.find(key);
    if (it == costs.table_.end()) {
      bad_entry("costs", "unknown endpoint key '" + key + "'");
    }
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0) {
      bad_entry("costs", "'" + key + "' must be a whole number of credits >= 0");
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
