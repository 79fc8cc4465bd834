#pragma once
// Scraper jobs, their data rows and the webhook outbox, on the same database as the accounts
// (SQLite or PostgreSQL), so that a row, its charge and the delivery announcing it are written in
// one transaction: after a crash a row is either stored, charged and queued for delivery, or none
// of these. Jobs and deliveries are taken by a node under a lease with an expiry (PostgreSQL:
// FOR UPDATE SKIP LOCKED), so each runs on one node at a time and a dead node's work is taken
// over when its lease expires. docs/jobs.md describes the tables and the states.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "store/database.h"
#include "store/store.h"

namespace gleaner::store {

/// Job states: pending → in_progress → finished | stopped | failed.
namespace job_status {
inline constexpr const char* kPending = "pending";
inline constexpr const char* kInProgress = "in_progress";
inline constexpr const char* kFinished = "finished";
inline constexpr const char* kStopped = "stopped";
inline constexpr const char* kFailed = "failed";
}  // namespace job_status

/// A job as stored.
struct Job {
  std::string id;  ///< UUID
  std::int64_t account_id = 0;
  /// SHA-256 of the API key that created the job: only that key sees it (spec/conventions.md).
  /// Absent for jobs created before keys were recorded: the whole account sees those.
  std::optional<std::string> key_hash;
  std::string kind;  ///< "maps"
  std::string status;
  std::optional<std::string> stop_reason;  ///< e.g. "insufficient_credits", "stopped_by_user"
  nlohmann::json input;                    ///< the validated request body
  nlohmann::json progress;                 ///< the worker's resume point (object)
  std::int64_t rows_count = 0;
  std::int64_t credits_spent = 0;
  bool stop_requested = false;
  TimePoint created_at;
  TimePoint updated_at;
  std::optional<TimePoint> started_at;
  std::optional<TimePoint> finished_at;

  bool done() const {
    return status == job_status::kFinished || status == job_status::kStopped ||
           status == job_status::kFailed;
  }
};

/// One row of a job: `key` identifies the place (duplicates across pairs are stored once).
struct JobRow {
  std::string key;
  nlohmann::json data;
};

/// What store_rows did.
struct StoredRows {
  std::vector<nlohmann::json> stored;  ///< the rows that were new, in order, now charged
  bool out_of_credits = false;         ///< the balance could not pay the next new row
};

/// One webhook delivery (an event for one job) in the outbox.
struct Delivery {
  std::int64_t id = 0;
  std::string job_id;
  std::string event;
  std::string body;    ///< the JSON sent, fixed when the event happened
  std::string status;  ///< pending, done, failed
  std::int64_t attempts = 0;
  TimePoint next_attempt_at;
  TimePoint created_at;
};

/// One attempt of a delivery and its outcome.
struct DeliveryAttempt {
  std::int64_t attempt = 0;  ///< 1, 2, 3
  TimePoint attempted_at;
  std::optional<std::int64_t> http_status;
  std::string outcome;  ///< ok, http_error, timeout, network_error, refused
  std::string detail;
};

struct DeliveryWithAttempts {
  Delivery delivery;
  std::vector<DeliveryAttempt> attempts;
};

namespace delivery_status {
inline constexpr const char* kPending = "pending";
inline constexpr const char* kDone = "done";
inline constexpr const char* kFailed = "failed";
}  // namespace delivery_status

class JobStore {
 public:
  /// `db`, `store` and `clock` must outlive this object. `node_id` names this node's leases.
  JobStore(Database& db, Store& store, const Clock& clock, std::string node_id);

  // The API's side. A job is its creator's: the account and the key (by its SHA-256, `key_hash`)
  // that created it. An empty `key_hash` below means the whole account (admin, tests).
  /// A new pending job of `account_id`, created with the key whose hash is `key_hash`.
  Job create_job(std::int64_t account_id, const std::string& kind, const nlohmann::json& input,
                 const std::string& key_hash = {});
  /// The job if it exists and is the caller's (others' jobs are not found).
  std::optional<Job> find_job(const std::string& id, std::int64_t account_id,
                              const std::string& key_hash = {});
  /// The job whoever owns it (worker, tests).
  std::optional<Job> job(const std::string& id);
  /// The caller's jobs, newest first.
  std::vector<Job> list_jobs(std::int64_t account_id, std::int64_t offset, std::int64_t limit,
                             const std::string& key_hash = {});
  std::int64_t count_jobs(std::int64_t account_id, const std::string& key_hash = {});
  /// Rows of a job in the order they were stored.
  std::vector<nlohmann::json> rows(const std::string& job_id, std::int64_t offset,
                                   std::int64_t limit);
  /// Stops a job of `account_id`: a pending job becomes stopped at once (reason
  /// "stopped_by_user", `finished_body` is queued when given); a running one is flagged and its
  /// worker stops it at the next row. A done job is left as it is. Returns the job after it, or
  /// none when it is not the caller's.
  std::optional<Job> request_stop(
      const std::string& id, std::int64_t account_id,
      const std::function<std::optional<std::string>(const Job&)>& finished_body,
      const std::string& key_hash = {});

  // The worker's side.
  /// Drops the leases this node holds on jobs not ended: called once as the node's worker starts,
  /// before it claims anything, so the jobs it ran when it last stopped (or crashed) are taken
  /// again at once rather than after their lease. Node ids must therefore be unique.
  void release_job_leases();
  /// Takes one job to run: pending, or in progress whose lease expired (its node died). A job
  /// leased by anyone, this node included, is left alone; so is one another node has locked. The
  /// lease lasts `lease`; renew it with renew_lease.
  std::optional<Job> claim_job(std::chrono::seconds lease);
  /// Extends the lease; false if this node no longer holds it (the job was taken over).
  bool renew_lease(const std::string& job_id, std::chrono::seconds lease);
  /// Marks a claimed job in progress (once); returns true the first time, when the started
  /// event `started_body` (if any) is queued in the same transaction.
  bool mark_started(const std::string& job_id, const std::optional<std::string>& started_body);
  void save_progress(const std::string& job_id, const nlohmann::json& progress);
  /// Stores the rows of `rows` the job has not stored yet, charging `cost_per_row` credits each
  /// to the job's account (ledger endpoint `cost_key`), and queues `batch_body(new rows)` as one
  /// delivery when it returns a body — all in one transaction. Stops at the first new row the
  /// balance cannot pay (out_of_credits).
  StoredRows store_rows(
      const Job& job, const std::vector<JobRow>& rows, std::int64_t cost_per_row,
      const std::string& cost_key,
      const std::function<std::optional<std::string>(const std::vector<nlohmann::json>&)>&
          batch_body);
  /// Ends a job (finished, stopped or failed, with an optional reason), queues `finished_body`
  /// (built from the final job) when it gives one, and drops the lease.
  Job finish_job(const std::string& job_id, const std::string& status,
                 const std::optional<std::string>& reason,
                 const std::function<std::optional<std::string>(const Job&)>& finished_body);

  // The outbox.
  /// Drops the leases this node holds on pending deliveries: called once as its outbox starts,
  /// so an attempt cut off by a crash is made again at once rather than after its lease.
  void release_delivery_leases();
  /// Takes one pending delivery whose next attempt is due and that nobody holds (or whose lease
  /// expired), leased for `lease`.
  std::optional<Delivery> claim_delivery(std::chrono::seconds lease);
  /// Records attempt number delivery.attempts + 1. `next_attempt_at` set: still pending, tried
  /// again then; unset: done (ok) or failed (no attempts left).
  void record_attempt(const Delivery& delivery, const DeliveryAttempt& attempt, bool ok,
                      std::optional<TimePoint> next_attempt_at);
  std::vector<DeliveryWithAttempts> deliveries(const std::string& job_id);
  /// Pending deliveries of all jobs (tests, metrics).
  std::int64_t pending_deliveries();
  /// How many jobs have each status (statuses with none are left out).
  std::map<std::string, std::int64_t> jobs_by_status();

 private:
  std::int64_t now() const;
  void enqueue(Transaction& tx, const std::string& job_id, const std::string& event,
               const std::string& body);
  /// Drops this node's leases on the rows of `table` whose status is one of `unfinished` (an SQL
  /// list of literals).
  void release_leases(const std::string& table, const std::string& unfinished);

  Database& db_;
  Store& store_;
  const Clock& clock_;
  const std::string node_id_;
};

}  // namespace gleaner::store
