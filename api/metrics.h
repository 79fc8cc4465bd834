#pragma once
// The service's counters in Prometheus text format (GET /metrics, version 0.0.4 of the format):
// requests by route, method and status, latency histograms by route, credits charged by endpoint,
// the admission queue, and the browser pool's and the scraper jobs' state sampled when scraped.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "api/admission.h"
#include "browser/pool.h"
#include "core/clock.h"

namespace gleaner::api {

/// The scraper jobs' side, read from the store when scraped (shared by every node of a store).
struct JobsState {
  /// Jobs by status (pending, in_progress, finished, stopped, failed).
  std::map<std::string, std::int64_t> by_status;
  /// Webhook deliveries waiting for an attempt (the outbox's backlog).
  std::int64_t pending_deliveries = 0;
};

class Metrics {
 public:
  /// Upper bounds (seconds) of the latency histogram's buckets, ascending. The defaults span a
  /// fast 4xx (milliseconds) to a page at the 300 s limit.
  static std::vector<double> default_latency_buckets();

  explicit Metrics(std::vector<double> latency_buckets = default_latency_buckets());

  /// One answered request. `route` is the matched pattern; "" (no route matched) is counted as
  /// "unmatched" so that arbitrary paths cannot grow the label set.
  void observe_request(std::string_view route, std::string_view method, int status, Millis elapsed);
  /// Credits committed for one request of `endpoint` (a cost key).
  void observe_charge(std::string_view endpoint, std::int64_t credits);
  /// Time one phase of a charged request took, by phase: "reserve" (the credit reservation's store
  /// round trip, which runs while the browser tab opens), "reserve_wait" (what the request then
  /// still waited for it before loading the page), "commit" (charging it).
  void observe_phase(std::string_view phase, Millis elapsed);
  /// A 200 that was not charged, by reason ("client_gone", "reservation_expired", "store_error").
  void observe_uncharged(std::string_view reason);
  /// Field health of one answer of a site endpoint (its route, "stays/place"): for each documented
  /// field, whether the answer carried it (extract/field_health.h).
  void observe_fields(std::string_view endpoint,
                      const std::vector<std::pair<std::string, bool>>& presence);

  /// The whole exposition: the counters above plus `admission`, `pool` and `jobs` as sampled now.
  std::string render(const AdmissionState& admission, const browser::PoolState& pool,
                     const JobsState& jobs = {}) const;

 private:
  struct Histogram {
    std::vector<std::uint64_t> buckets;  ///< per bound, not cumulative
    std::uint64_t count = 0;
    double sum = 0;
  };
  /// Adds one observation of `elapsed` to `h` (under mutex_).
  void add_locked(Histogram& h, Millis elapsed);

  const std::vector<double> bounds_;
  mutable std::mutex mutex_;  // guards every map below
  std::map<std::tuple<std::string, std::string, int>, std::uint64_t> requests_;
  std::map<std::string, Histogram> latency_;
  std::map<std::string, Histogram> phases_;
  std::map<std::string, std::uint64_t> charged_credits_;
  std::map<std::string, std::uint64_t> charged_requests_;
  std::map<std::string, std::uint64_t> uncharged_;
  /// (endpoint, field, present) → answers.
  std::map<std::tuple<std::string, std::string, bool>, std::uint64_t> fields_;
};

/// A label value escaped for the text format (backslash, double quote, line feed).
std::string escape_label_value(std::string_view value);

}  // namespace gleaner::api
