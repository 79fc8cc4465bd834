#include "api/metrics.h"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <stdexcept>

#include "core/heap.h"

namespace gleaner::api {
namespace {

/// Writes the HELP and TYPE lines of one metric family.
void family(std::ostringstream& out, std::string_view name, std::string_view type,
            std::string_view help) {
  out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
}

/// A family of one sample without labels.
template <typename Value>
void single(std::ostringstream& out, std::string_view name, std::string_view type,
            std::string_view help, const Value& value) {
  family(out, name, type, help);
  out << name << ' ' << value << '\n';
}

std::string label(std::string_view name, std::string_view value) {
  return std::string(name) + "=\"" + escape_label_value(value) + "\"";
}

/// A number as Prometheus reads it: the shortest text that reads back as the same double.
std::string number(double v) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return ec == std::errc() ? std::string(buffer, end) : std::to_string(v);
}

}  // namespace

std::string escape_label_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<double> Metrics::default_latency_buckets() {
  return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300};
}

Metrics::Metrics(std::vector<double> latency_buckets) : bounds_(std::move(latency_buckets)) {
  if (bounds_.empty() || !std::is_sorted(bounds_.begin(), bounds_.end()) ||
      std::adjacent_find(bounds_.begin(), bounds_.end()) != bounds_.end()) {
    throw std::invalid_argument("latency buckets must be ascending and distinct");
  }
}

void Metrics::add_locked(Histogram& h, Millis elapsed) {
  const double seconds = static_cast<double>(elapsed.count()) / 1000.0;
  if (h.buckets.empty()) h.buckets.assign(bounds_.size(), 0);
  // The first bucket whose bound holds the value; above the last, only +Inf (the count) has it.
  auto it = std::lower_bound(bounds_.begin(), bounds_.end(), seconds);
  if (it != bounds_.end()) ++h.buckets[static_cast<std::size_t>(it - bounds_.begin())];
  ++h.count;
  h.sum += seconds;
}

void Metrics::observe_request(std::string_view route, std::string_view method, int status,
                              Millis elapsed) {
  const std::string route_label = route.empty() ? "unmatched" : std::string(route);
  std::lock_guard lock(mutex_);
  ++requests_[{route_label, std::string(method), status}];
  add_locked(latency_[route_label], elapsed);
}

void Metrics::observe_phase(std::string_view phase, Millis elapsed) {
  std::lock_guard lock(mutex_);
  add_locked(phases_[std::string(phase)], elapsed);
}

void Metrics::observe_fields(std::string_view endpoint,
                             const std::vector<std::pair<std::string, bool>>& presence) {
  std::lock_guard lock(mutex_);
  for (const auto& [field, present] : presence) {
    ++fields_[{std::string(endpoint), field, present}];
  }
}

void Metrics::observe_charge(std::string_view endpoint, std::int64_t credits) {
  std::lock_guard lock(mutex_);
  charged_credits_[std::string(endpoint)] +=
      static_cast<std::uint64_t>(std::max<std::int64_t>(credits, 0));
  ++charged_requests_[std::string(endpoint)];
}

void Metrics::observe_uncharged(std::string_view reason) {
  std::lock_guard lock(mutex_);
  ++uncharged_[std::string(reason)];
}

std::string Metrics::render(const AdmissionState& admission, const browser::PoolState& pool,
                            const JobsState& jobs) const {
  std::ostringstream out;
  {
    std::lock_guard lock(mutex_);
    family(out, "gleaner_http_requests_total", "counter",
           "HTTP requests answered, by matched route, method and status.");
    for (const auto& [key, count] : requests_) {
      const auto& [route, method, status] = key;
      out << "gleaner_http_requests_total{" << label("route", route) << ','
          << label("method", method) << ',' << label("status", std::to_string(status)) << "} "
          << count << '\n';
    }
    // One histogram family: a series of buckets, sum and count per value of `label_name`.
    auto histograms = [&](const std::string& name, const std::string& label_name,
                          const std::map<std::string, Histogram>& by_label) {
      for (const auto& [value, h] : by_label) {
        const std::string l = label(label_name, value);
        std::uint64_t cumulative = 0;
        for (std::size_t i = 0; i < bounds_.size(); ++i) {
          cumulative += h.buckets[i];
          out << name << "_bucket{" << l << ',' << label("le", number(bounds_[i])) << "} "
              << cumulative << '\n';
        }
        out << name << "_bucket{" << l << ",le=\"+Inf\"} " << h.count << '\n';
        out << name << "_sum{" << l << "} " << number(h.sum) << '\n';
        out << name << "_count{" << l << "} " << h.count << '\n';
      }
    };
    family(out, "gleaner_http_request_duration_seconds", "histogram",
           "Time from receiving a request to answering it, by matched route.");
    histograms("gleaner_http_request_duration_seconds", "route", latency_);
    family(out, "gleaner_request_phase_seconds", "histogram",
           "Time the phases of charged requests took: the credit reservation (reserve), what the "
           "request waited for it once its tab was open (reserve_wait), charging it (commit).");
    histograms("gleaner_request_phase_seconds", "phase", phases_);
    family(out, "gleaner_credits_charged_total", "counter",
           "Credits committed for successful requests, by endpoint cost key.");
    for (const auto& [endpoint, credits] : charged_credits_) {
      out << "gleaner_credits_charged_total{" << label("endpoint", endpoint) << "} " << credits
          << '\n';
    }
    family(out, "gleaner_charged_requests_total", "counter",
           "Requests charged, by endpoint cost key.");
    for (const auto& [endpoint, count] : charged_requests_) {
      out << "gleaner_charged_requests_total{" << label("endpoint", endpoint) << "} " << count
          << '\n';
    }
    family(out, "gleaner_extract_field_total", "counter",
           "Answers of site endpoints by documented field and whether the field was present.");
    for (const auto& [key, count] : fields_) {
      const auto& [endpoint, field, present] = key;
      out << "gleaner_extract_field_total{" << label("endpoint", endpoint) << ','
          << label("field", field) << ',' << label("present", present ? "true" : "false") << "} "
          << count << '\n';
    }
    family(out, "gleaner_uncharged_successes_total", "counter",
           "Successful responses that were not charged, by reason.");
    for (const auto& [reason, count] : uncharged_) {
      out << "gleaner_uncharged_successes_total{" << label("reason", reason) << "} " << count
          << '\n';
    }
  }

  single(out, "gleaner_admission_running", "gauge", "Requests past admission control.",
         admission.running);
  single(out, "gleaner_admission_queue_length", "gauge", "Requests waiting for a slot.",
         admission.queued);
  family(out, "gleaner_admission_refused_total", "counter",
         "Requests refused by admission control (429 or, for queue_timeout, 504), by reason.");
  out << "gleaner_admission_refused_total{reason=\"account_limit\"} "
      << admission.refused_account_limit << '\n'
      << "gleaner_admission_refused_total{reason=\"queue_full\"} " << admission.refused_queue_full
      << '\n'
      << "gleaner_admission_refused_total{reason=\"queue_wait\"} " << admission.refused_queue_wait
      << '\n'
      << "gleaner_admission_refused_total{reason=\"queue_timeout\"} " << admission.queue_timeouts
      << '\n';

  single(out, "gleaner_pool_processes", "gauge", "Chromium processes up and lending pages.",
         pool.processes);
  single(out, "gleaner_pool_busy_pages", "gauge", "Pages on loan.", pool.busy_pages);
  single(out, "gleaner_pool_free_pages", "gauge", "Leases that could start without waiting.",
         pool.free_pages);
  single(out, "gleaner_pool_shutting_down", "gauge", "1 while the pool is shutting down.",
         pool.shutting_down ? 1 : 0);
  single(out, "gleaner_browser_restarts_total", "counter",
         "Browsers relaunched after a crash, a hang or a failed start.", pool.restarts);
  single(out, "gleaner_browser_recycles_total", "counter",
         "Browsers replaced after their page quota or over the memory limit.", pool.recycles);
  single(out, "gleaner_pool_pages_served_total", "counter", "Pages lent by the pool.",
         pool.pages_served);

  const HeapState heap = heap_state();
  single(out, "gleaner_heap_allocated_bytes", "gauge",
         "Bytes in live allocations of the service process (not its Chromium processes).",
         heap.allocated);
  single(out, "gleaner_heap_held_bytes", "gauge",
         "Bytes the service's allocator spans: live allocations plus free memory kept for reuse.",
         heap.held);
  single(out, "gleaner_resident_bytes", "gauge", "The service process's resident set.",
         resident_bytes());

  family(out, "gleaner_jobs", "gauge", "Scraper jobs in the store, by status.");
  for (const auto& [status, count] : jobs.by_status) {
    out << "gleaner_jobs{" << label("status", status) << "} " << count << '\n';
  }
  single(out, "gleaner_webhook_deliveries_pending", "gauge",
         "Webhook deliveries waiting for an attempt.", jobs.pending_deliveries);
  return out.str();
}

}  // namespace gleaner::api
