#pragma once
// Runs scraper jobs from the store: claims a job under a lease, runs each keyword × location
// pair through a PlaceSource, stores the new rows in batches (each batch charged and announced to
// the webhook outbox in the same transaction, store/jobs_store.h), and ends the job finished,
// stopped (by its account, or for insufficient credits) or failed. A job resumes after a
// restart at the pair it was on: rows already stored are skipped, so none is stored, charged or
// delivered twice. Several jobs run at once, at most `max_jobs`: the service sets it to a share
// of the browser pool so that synchronous endpoints keep the rest.
#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/config.h"
#include "jobs/job_request.h"
#include "jobs/polling_threads.h"
#include "store/jobs_store.h"

namespace gleaner::jobs {

/// Where the places of one search come from: the maps site in a browser in the service, a
/// scripted source in tests.
class PlaceSource {
 public:
  virtual ~PlaceSource() = default;
  /// The places a search for `keyword` in `location` lists, in order, at most `limit` when given,
  /// each a row (extract/sites/google/maps/place.h fields). Throws gleaner::Error (UpstreamBlocked,
  /// UpstreamError, Timeout, ...) when the site cannot be read before `deadline`. A long search
  /// asks `keep_going()` between pages and gives up (throwing) once it says no: the job was
  /// stopped by its account, or the service is stopping.
  virtual std::vector<nlohmann::json> search(const std::string& keyword,
                                             const std::string& location,
                                             std::optional<std::int64_t> limit, Deadline deadline,
                                             const std::function<bool()>& keep_going) = 0;
  /// E-mail addresses found on a place's website (guarded like any caller's URL). Empty when
  /// none, or when the site cannot be read: a place without e-mails is still a row.
  virtual std::vector<std::string> emails(const std::string& website, Deadline deadline) = 0;
};

struct WorkerOptions {
  /// Jobs run at once by this node. Entry `jobs_concurrency`; the service's default is a share
  /// (entry `jobs_pool_share`, 0.25) of the browser pool's pages, at least 1.
  int max_jobs = 1;
  /// New rows per scraper.data.scraped delivery. Entry `jobs_batch_size` (default 20).
  std::int64_t batch_size = 20;
  /// Credits per stored row (store/costs.h key "maps_job_row").
  std::int64_t cost_per_row = 5;
  /// How long a job stays this node's without a renewal; renewed after every batch and pair, so
  /// it must outlast one search. This node resumes its own jobs at once after a restart (start()
  /// drops its old leases); another node takes a job over only once its lease expired.
  std::chrono::seconds lease{900};
  /// Time budget of one search (its list and every place page). Entry `jobs_search_timeout_ms`.
  Millis search_budget{600'000};
  /// Time budget of one website read for e-mails.
  Millis website_budget{30'000};
  /// Attempts of one search that failed for a passing reason (no browser free, a timeout, a
  /// network or server error); a block page or a bad answer fails the job at once.
  int search_attempts = 3;
  /// The pause after a failed attempt n is `retry_pause` × 4^(n-1). Entry `jobs_retry_ms`.
  Millis retry_pause{5'000};
  /// How often an idle worker looks for new jobs (a created job also wakes it).
  Millis poll{1'000};
  /// The threads' CPU priority (entry `jobs_nice`, jobs/polling_threads.h).
  int nice = 0;

  /// Entries `jobs_concurrency`, `jobs_nice`, `jobs_batch_size`, `jobs_lease_seconds`, `jobs_poll_ms`,
  /// `jobs_search_timeout_ms`, `jobs_retry_ms`.
  static WorkerOptions from_config(const Config& config, int default_max_jobs,
                                   std::int64_t cost_per_row);
};

class JobWorker {
 public:
  /// Everything must outlive the worker. `on_delivery_queued` is called after a transaction that
  /// queued a webhook delivery (the outbox's notify()). Does not run jobs until start().
  JobWorker(store::JobStore& jobs, PlaceSource& source, const Clock& clock, WorkerOptions options,
            std::function<void()> on_delivery_queued = {});
  /// Stops and joins (stop()).
  ~JobWorker();
  JobWorker(const JobWorker&) = delete;
  JobWorker& operator=(const JobWorker&) = delete;

  /// Claims one job and runs it to its end (or until stop()). False when none was waiting.
  bool run_one();
  /// Takes back the jobs this node held when it last stopped (JobStore::release_job_leases),
  /// then starts `max_jobs` threads running jobs until stop().
  void start();
  /// Wakes idle threads (a job was created).
  void notify();
  /// Asks running jobs to pause where they are, without waiting (then stop() joins): a service
  /// calls it before stopping the browsers its jobs use, so that what a dying browser gives back
  /// is never stored.
  void request_stop();
  /// Asks running jobs to pause where they are (their lease lets this node resume them after a
  /// restart, or another node once it expires) and joins the threads.
  void stop();
  /// True once stop() was called.
  bool stopping();

 private:
  /// Runs `job` until it ends or the worker stops.
  void run_job(store::Job job);
  /// source_.search() with the retries of WorkerOptions::search_attempts. Throws the last
  /// failure; returns nullopt when the search was interrupted (the worker is stopping, or the
  /// job's account asked it to stop, or it went to another node).
  std::optional<std::vector<nlohmann::json>> search(const std::string& job_id,
                                                    const std::string& keyword,
                                                    const std::string& location,
                                                    std::optional<std::int64_t> limit);
  void finish(const store::Job& job, const char* status, const std::optional<std::string>& reason);
  void delivery_queued();
  /// Renews the job's lease; false (and logged) when this node's lease had expired and another
  /// node took the job over: the caller then leaves the job alone, stores nothing more and does
  /// not end it, so the job runs on one node only.
  bool still_ours(const std::string& job_id);

  store::JobStore& jobs_;
  PlaceSource& source_;
  const Clock& clock_;
  const WorkerOptions options_;
  const std::function<void()> on_delivery_queued_;
  // Declared last: run run_one() until stop() joins them.
  PollingThreads threads_;
};

}  // namespace gleaner::jobs
