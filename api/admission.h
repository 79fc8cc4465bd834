#pragma once
// Admission control in front of the browser pool (spec/conventions.md: 429 too_many_requests with
// Retry-After). Two limits:
//   - per account: at most N of its requests admitted or queued at once (the account's
//     `concurrency_limit`, else entry `account_concurrency`); the next one is refused at once;
//   - global: at most `max_running` requests hold a slot (by default the pool's pages), and at
//     most `queue_size` wait for one, first come first served. A full queue is refused at once.
// Waiting counts against the request's own deadline: a request whose deadline passes in the
// queue is a 504 timeout; one that waited `queue_wait_ms` without its turn is a 429.
#include "core/clock.h"
#include "core/config.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>

namespace gleaner::api {

struct AdmissionOptions {
  /// Entry `account_concurrency`: requests per account at once, for accounts without their own
  /// limit.
  int account_limit = 10;
  /// Entry `max_running_requests`: requests past admission at once; by default the pool's
  /// pages (browser_processes × pages_per_process), so an admitted request finds a page.
  int max_running = 8;
  /// Entry `queue_size`: requests waiting for a slot; past it, 429.
  int queue_size = 100;
  /// Entry `queue_wait_ms`: the longest a request waits in the queue before a 429 (its own
  /// deadline may end the wait sooner, with a 504).
  Millis queue_wait{30000};
  /// Entry `retry_after_seconds`: the Retry-After of every 429.
  std::chrono::seconds retry_after{2};

  /// Reads the entries above; `pool_pages` is the default of max_running. Throws
  /// std::invalid_argument naming an entry out of range.
  static AdmissionOptions from_config(const Config& config, int pool_pages);
};

/// Counters for /metrics.
struct AdmissionState {
  int running = 0;
  int queued = 0;
  std::uint64_t refused_account_limit = 0;
  std::uint64_t refused_queue_full = 0;
  std::uint64_t refused_queue_wait = 0;
  std::uint64_t queue_timeouts = 0;  ///< deadlines that passed while queued
};

class Admission {
 public:
  explicit Admission(AdmissionOptions options);
  Admission(const Admission&) = delete;
  Admission& operator=(const Admission&) = delete;

  /// A request past admission; gives its slots back when it goes.
  class Ticket {
   public:
    Ticket(Ticket&& other) noexcept;
    Ticket& operator=(Ticket&&) = delete;
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket();

   private:
    friend class Admission;
    Ticket(Admission* owner, std::int64_t account_id) : owner_(owner), account_id_(account_id) {}
    Admission* owner_;  ///< null once moved from
    std::int64_t account_id_;
  };

  /// Admits one request of `account_id` (whose own limit is `account_limit`, none for the
  /// default), waiting in the queue for a slot until `deadline` or the queue wait, whichever
  /// comes first. Throws Error(TooManyRequests) with Retry-After (account limit, full queue,
  /// queue wait over) or Error(Timeout) (deadline passed while queued).
  Ticket admit(std::int64_t account_id, std::optional<std::int64_t> account_limit,
               Deadline deadline);

  AdmissionState state() const;
  const AdmissionOptions& options() const { return options_; }

 private:
  void leave(std::int64_t account_id);

  const AdmissionOptions options_;
  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable turn_;
  /// Requests admitted or queued, per account (entries dropped at zero).
  std::map<std::int64_t, int> per_account_;
  int running_ = 0;
  /// Tickets of the waiting requests in arrival order; the head goes next.
  std::deque<std::uint64_t> queue_;
  std::uint64_t next_waiter_ = 0;
  AdmissionState counters_;  ///< the refusal counters (running/queued are computed)
};

}  // namespace gleaner::api
