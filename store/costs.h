#pragma once
// Credits each endpoint costs, keyed by the endpoint's path under /scrape/ ("search/serp",
// "mart/reviews", ...), plus the service's own keys: "web" (POST /scrape/web with a datacenter
// proxy or none), "web_residential" (with a residential proxy), "web_plain" and
// "web_plain_residential" (the same with jsRendering: false) and "maps_job_row" (one data row
// delivered by a scraper job). Each data endpoint declares its own default
// (extract::Endpoint::default_cost(), spec/api.md's Limits table); this table holds the service's
// own keys (spec/conventions.md) and what configuration entry `costs` (an object: key → credits)
// overrides.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "core/config.h"

namespace gleaner::store {

class Costs {
 public:
  using Table = std::map<std::string, std::int64_t, std::less<>>;

  /// The service's own keys at their spec costs, and `endpoints` (route → the endpoint's
  /// declared default, extract::endpoint_costs()).
  static Costs defaults(const Table& endpoints = {});
  /// The defaults with configuration entry `costs` applied. Throws std::invalid_argument for an
  /// unknown key or a value that is not a whole number ≥ 0, naming the key.
  static Costs from_config(const Config& config, const Table& endpoints = {});

  /// Credits for `endpoint_key`; throws Error(Internal) for a key not in the table (a bug: every
  /// endpoint's key is listed here).
  std::int64_t of(std::string_view endpoint_key) const;
  bool contains(std::string_view endpoint_key) const { return table_.contains(endpoint_key); }
  const Table& table() const { return table_; }

 private:
  Table table_;
};

}  // namespace gleaner::store
