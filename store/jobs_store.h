#pragma once
// Scraper jobs, their data rows and the webhook outbox, on the same database as the accounts
// (SQLite or PostgreSQL), so that a row, its charge and the delivery announcing it are written in
// one transaction: after a crash a row is either stored, charged and queued for delivery, or none
// of these. Jobs and deliveries are taken by a node under a lease with an expiry (PostgreSQL:
// FOR UPDATE SKIP LOCKED), so each runs on one node at a time and a dead node's work is taken
// over when its lease expires. docs/jobs.md describes the tables and the states.
#include <chrono>
#include <cstdint>
#include <span>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/config.h"
#include "store/database.h"
#include "store/disk_space.h"
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
  std::string kind;  ///< "maps", "batch", "crawler"
  std::string status;
  std::optional<std::string> stop_reason;  ///< e.g. "insufficient_credits", "stopped_by_user"
  nlohmann::json input;                    ///< the validated request body
  nlohmann::json progress;                 ///< the worker's resume point (object)
  std::int64_t rows_count = 0;
  std::int64_t credits_spent = 0;
  bool stop_requested = false;
  /// Run from its frontier (batch, crawler: any node's worker takes its entries one by one)
  /// rather than leased whole to one node (maps).
  bool by_frontier = false;
  /// Pages admitted to the frontier so far (what a crawl's `limit` caps).
  std::int64_t frontier_size = 0;
  /// A page job only that node's worker runs (entry `node_id`), one entry at a time, in the
  /// frontier's order: a batch in a browser session, which lives in that node's memory and serves
  /// one request at a time (docs/sessions.md). None: any node's worker, entries in parallel.
  std::optional<std::string> pinned_node;
  TimePoint created_at;
  TimePoint updated_at;
  std::optional<TimePoint> started_at;
  std::optional<TimePoint> finished_at;
  /// When its account deleted its rows (an ended job only): its results are gone, its counts and
  /// charges stay.
  std::optional<TimePoint> results_deleted_at;

  bool done() const {
    return status == job_status::kFinished || status == job_status::kStopped ||
           status == job_status::kFailed;
  }
};

/// One row of a job: `key` identifies the place (duplicates across pairs are stored once).
struct JobRow {
  std::string key;
  nlohmann::json data;
  /// A page job's row of a page that failed (its `error`): counted in the job's progress
  /// (`pagesFailed`) by commit_entry, against the job's budget of failures.
  bool failed = false;
};

/// Why the store refused a job's rows: the job stops with it as its reason.
namespace storage_refusal {
/// The account's rows take more than its quota (entry `account_stored_bytes_quota`).
inline constexpr const char* kQuota = "storage_quota_exceeded";
/// The store's disk has less free room than entry `min_free_disk_bytes`.
inline constexpr const char* kDisk = "insufficient_storage";
}  // namespace storage_refusal

/// One row of a job as stored: its place in the job's order (`seq`, rising from 1) and its JSON
/// text, as it was written (compact, what `nlohmann::json::dump()` gives).
struct StoredRow {
  std::int64_t seq = 0;
  std::string json;
};

/// What store_rows did.
struct StoredRows {
  std::vector<nlohmann::json> stored;  ///< the rows that were new, in order, now charged
  bool out_of_credits = false;         ///< the balance could not pay the next new row
  /// The store refused the next new row (storage_refusal): the job must stop.
  std::optional<std::string> storage_refused;
};

/// What an address in a page job's frontier is.
namespace entry_kind {
inline constexpr const char* kPage = "page";        ///< fetched, a row
inline constexpr const char* kSitemap = "sitemap";  ///< read for more addresses, no row
/// Another name of a page fetched already (its canonical link, where it redirected): never
/// fetched, only there so that the name is not fetched again.
inline constexpr const char* kAlias = "alias";
}  // namespace entry_kind

/// One address of a page job's frontier (docs/jobs.md "The frontier").
struct FrontierEntry {
  std::int64_t id = 0;
  /// What the job fetches once: the canonical URL (jobs/crawl_url.h); "sitemap:" + URL for a
  /// sitemap, so a page and a sitemap at one URL stay apart.
  std::string key;
  std::string kind = entry_kind::kPage;
  std::string url;
  /// scheme://host[:port]: robots.txt and pacing are per origin.
  std::string origin;
  std::int64_t depth = 0;
  std::optional<std::string> parent_url;
  /// How many times a node has taken the entry, this time included (claim_entry): a page that
  /// kills its node is taken again at every restart, and this is how the worker sees it.
  std::int64_t attempts = 0;
};

/// How a page job admits and paces its addresses (the crawler's limit, delayMs, maxConcurrency
/// and robots.txt Crawl-delay).
struct FrontierPolicy {
  std::int64_t limit = 0;            ///< pages admitted at most; 0: no limit
  std::int64_t delay_ms = 0;         ///< the least time between two fetches from one origin
  std::int64_t max_concurrency = 1;  ///< fetches from one origin at once
};

/// A page job with work to take, as claim_entry offers it to a ClaimOrder.
struct PageJobRef {
  std::string id;
  std::int64_t account_id = 0;
};

/// Which page jobs claim_entry tries, in which order: indices into `candidates` (the page jobs
/// not ended and not stopping, at most kClaimJobsPerAccount per account, oldest first). A job
/// left out is not taken from this time. jobs/fair_share.h decides it for a node's threads.
using ClaimOrder =
    std::function<std::vector<std::size_t>(const std::vector<PageJobRef>& candidates)>;
/// The oldest page jobs of each account claim_entry offers to its order: an account's later
/// jobs wait for these to end.
inline constexpr std::int64_t kClaimJobsPerAccount = 20;

/// A job as the operator lists it (`gleaner jobs list`): with the node holding it, if any.
struct JobListing {
  Job job;
  std::optional<std::string> lease_owner;
  std::optional<TimePoint> lease_expires_at;
  /// A page job's entries leased (being fetched, or left so by a node that stopped).
  std::int64_t leased_entries = 0;
};

/// An entry a node took from a job's frontier, and the job.
struct ClaimedEntry {
  Job job;
  FrontierEntry entry;
};

/// What commit_entry did.
struct CommittedEntry {
  /// The entry was no longer this node's to commit (the job ended, or another node whose lease
  /// outlived ours committed it): nothing was written.
  bool lost = false;
  /// One of its other names was known already: the page is another's copy, no row.
  bool duplicate = false;
  /// The balance could not pay the row: nothing was written, the job must stop.
  bool out_of_credits = false;
  /// The store refused the row (storage_refusal): nothing was written, the job must stop.
  std::optional<std::string> storage_refused;
  /// The row, when one was stored (and charged, and queued for delivery).
  std::optional<nlohmann::json> row;
  /// New addresses admitted.
  std::int64_t added = 0;
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

/// What job rows may take of the store (docs/jobs.md "Sizes").
struct JobStoreLimits {
  /// A row's JSON text at most (entry `max_row_bytes`, default 5 MB): a larger row is stored cut,
  /// the fields cut named in its `truncated` (store/row_size.h).
  std::size_t max_row_bytes = 5'000'000;
  /// Bytes of rows an account may keep (entry `account_stored_bytes_quota`, default 10 GB; 0: no
  /// quota). Once its rows take that much, its new jobs are refused (507
  /// `storage_quota_exceeded`) and its running jobs stop before their next row.
  std::int64_t account_quota = 10'000'000'000;
  /// The disk the store writes to: while it is low, new jobs are refused (507
  /// `insufficient_storage`) and running jobs stop before their next row. None: not watched.
  std::shared_ptr<const DiskWatch> disk;

  /// The entries above; the disk is store_directory()'s, entry `min_free_disk_bytes`.
  static JobStoreLimits from_config(const Config& config);
};

class JobStore {
 public:
  /// `db`, `store` and `clock` must outlive this object. `node_id` names this node's leases.
  JobStore(Database& db, Store& store, const Clock& clock, std::string node_id,
           JobStoreLimits limits = {});

  const JobStoreLimits& limits() const { return limits_; }
  /// Throws 507 (gleaner::Error StorageQuotaExceeded, InsufficientStorage) when a new job of
  /// `account_id` could not store its rows: the account's rows are at its quota, or the disk
  /// is low.
  void check_room(std::int64_t account_id);
  /// Bytes of job rows `account_id` keeps (their JSON text).
  std::int64_t stored_bytes(std::int64_t account_id);
  /// This node's id (entry `node_id`, else the host name).
  const std::string& node_id() const { return node_id_; }

  // The API's side. A job is its creator's: the account and the key (by its SHA-256, `key_hash`)
  // that created it. An empty `key_hash` below means the whole account (admin, tests).
  /// A new pending job of `account_id`, created with the key whose hash is `key_hash`.
  Job create_job(std::int64_t account_id, const std::string& kind, const nlohmann::json& input,
                 const std::string& key_hash = {});
  /// A new pending page job whose frontier starts with `seeds` (in one transaction): it is run
  /// entry by entry (claim_entry) by every node's worker, never leased whole; or, `pinned` to this
  /// node, by this node's worker only, one entry at a time (Job::pinned_node).
  Job create_frontier_job(std::int64_t account_id, const std::string& kind,
                          const nlohmann::json& input, const std::string& key_hash,
                          const std::vector<FrontierEntry>& seeds, const FrontierPolicy& policy,
                          bool pinned = false);
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
  /// A page of a job's rows for an export, read without holding more than it: the rows after
  /// `after_seq` (0: from the first), in order, at most `max_rows` of them and only as many as fit
  /// in `max_bytes` of JSON text together (`max_bytes` counts characters, as the databases' LENGTH
  /// does), but at least one, however large, while any is left. Empty at the end of the job.
  /// An export reads a whole job this way (a cursor by seq), whatever its size.
  std::vector<StoredRow> rows_after(const std::string& job_id, std::int64_t after_seq,
                                    std::int64_t max_rows, std::int64_t max_bytes);
  /// The seq of the job's row at `offset` in order (0: the first), or none past its last row:
  /// where a page of results starts.
  std::optional<std::int64_t> seq_at(const std::string& job_id, std::int64_t offset);
  /// Stops a job of `account_id`: a pending job becomes stopped at once (reason
  /// "stopped_by_user", `finished_body` is queued when given); a running one is flagged and its
  /// worker stops it at the next row. A done job is left as it is. Returns the job after it, or
  /// none when it is not the caller's.
  std::optional<Job> request_stop(
      const std::string& id, std::int64_t account_id,
      const std::function<std::optional<std::string>(const Job&)>& finished_body,
      const std::string& key_hash = {});

  /// Deletes the rows of an ended job of `account_id` and takes their bytes off the account's
  /// stored bytes (its quota), in one transaction; the job keeps its counts and charges and
  /// records when. Returns the job after it, or none when it is not the caller's. Throws
  /// gleaner::Error JobNotEnded (409) for a job not ended: its worker would go on adding rows.
  /// Deleting twice deletes nothing more.
  std::optional<Job> delete_rows(const std::string& id, std::int64_t account_id,
                                 const std::string& key_hash = {});

  // The worker's side.
  /// Drops the leases this node holds on jobs not ended: called once as the node's worker starts,
  /// before it claims anything, so the jobs it ran when it last stopped (or crashed) are taken
  /// again at once rather than after their lease. Node ids must therefore be unique.
  void release_job_leases();
  /// Notes that this node is alive now (table `nodes`): what another node's adopt_pinned_jobs
  /// reads.
  void beat();
  /// The page jobs pinned to another node that has not beaten for `gone_after`, made this node's:
  /// their entries that node held are queued again (taken again, they count as lost with it) and
  /// their next entries run here (docs/sessions.md "Batches": the session they ran in is lost with
  /// its node). A node that never beat is not judged (one that runs a version without beats).
  /// Returns each job taken over with the node it was pinned to.
  std::vector<std::pair<std::string, std::string>> adopt_pinned_jobs(
      std::chrono::seconds gone_after);
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
  // Page jobs (by_frontier): their frontier, leased entry by entry.
  /// Takes one queued entry (or one whose lease expired) of the first page job in `order` (by
  /// default the oldest) that has one ready: its origin's delay has passed and fewer than its
  /// max_concurrency entries are leased. Leased for `lease`; the origin's next fetch is due after
  /// its delay. Another node's locked rows are skipped (PostgreSQL: FOR UPDATE SKIP LOCKED).
  /// A job pinned to another node is never offered; one pinned to this node gives its oldest
  /// entry, and only while none of its entries is leased (Job::pinned_node).
  std::optional<ClaimedEntry> claim_entry(std::chrono::seconds lease, const ClaimOrder& order = {});
  /// Page jobs that must end now: stop asked by their account, or nothing queued or leased left.
  std::vector<Job> page_jobs_to_end();
  /// Ends a page job as finished if nothing is queued or leased any more (checked in the same
  /// transaction as the end); none when it did not end here.
  std::optional<Job> finish_if_drained(
      const std::string& job_id,
      const std::function<std::optional<std::string>(const Job&)>& finished_body);
  /// The robots.txt an origin of the job gave (empty text: none, everything allowed); none when
  /// it was not read yet.
  std::optional<std::string> origin_robots(const std::string& job_id, const std::string& origin);
  /// Records an origin's robots.txt and its effective delay, and admits `sitemaps` (the entries it
  /// names) — once: false when another worker recorded it first (nothing is changed then).
  bool set_origin_robots(const Job& job, const std::string& origin, const std::string& robots,
                         std::int64_t delay_ms, const std::vector<FrontierEntry>& sitemaps,
                         const FrontierPolicy& policy);
  /// An entry the job leaves out (robots.txt disallows it): no row, and it frees its place
  /// under the limit (a page held back by the limit takes it).
  void skip_entry(const FrontierEntry& entry);
  /// Gives back an entry this node took but did not fetch (it is stopping): queued again, and the
  /// attempt not counted, so only a node that died with the entry counts against it.
  void return_entry(const FrontierEntry& entry);
  /// Counts one robots.txt (`what` "robotsTxtFetched") or sitemap ("sitemapsFetched") read for
  /// the job, in its progress.
  void count_fetch(const std::string& job_id, const std::string& what);
  /// Completes a leased entry in one transaction: marks it done; records its `aliases` (other
  /// keys of the page) and, when one is known already, stops there (a duplicate); stores `row`
  /// (when given) charged `cost` credits (ledger endpoint `cost_key`) and queues
  /// `row_body({row})`; admits `discovered` under `policy`'s limit. Pages past the limit are kept
  /// aside (state `spare`) and take, oldest first, the place of a page that turns out a copy or
  /// is disallowed, so a crawl delivers its limit whenever that many pages are in reach; they are
  /// deleted when the job ends.
  CommittedEntry commit_entry(
      const Job& job, const FrontierEntry& entry, const std::vector<std::string>& aliases,
      const std::optional<JobRow>& row, std::int64_t cost, const std::string& cost_key,
      const std::vector<FrontierEntry>& discovered, const FrontierPolicy& policy,
      const std::function<std::optional<std::string>(const std::vector<nlohmann::json>&)>&
          row_body);
  /// Entries of a job in each state (tests, progress).
  std::map<std::string, std::int64_t> frontier_states(const std::string& job_id);

  // The operator's side (`gleaner jobs`, store/admin.h): every account's jobs.
  /// Jobs newest first, of one account and in one status when given; at most `limit`.
  std::vector<JobListing> list_all_jobs(std::optional<std::int64_t> account_id,
                                        const std::optional<std::string>& status,
                                        std::int64_t limit);
  /// Ends a job now, whoever runs it and whether or not any node is up: stopped with `reason`,
  /// its lease dropped (a node still running it leaves it at its next renewal or commit), its
  /// entries no longer leased, and `finished_body` queued as DELETE does. A job ended already is
  /// returned as it is; none when there is no such job.
  std::optional<Job> stop_now(
      const std::string& id, const std::string& reason,
      const std::function<std::optional<std::string>(const Job&)>& finished_body);

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
  /// Why a new row (or job) of `account_id` cannot be stored now (storage_refusal), if it cannot.
  std::optional<std::string> refusal_of(Transaction& tx, std::int64_t account_id);
  std::int64_t account_bytes(Transaction& tx, std::int64_t account_id);
  void enqueue(Transaction& tx, const std::string& job_id, const std::string& event,
               const std::string& body);
  /// Rows as they will be stored, made before their write transaction: the JSON text of a row
  /// of 10 MB pages takes a while to write and cut to max_row_bytes, and a write transaction
  /// holds every other writer of the store (a request's charge among them) waiting; so does the
  /// delivery that carries them.
  struct PreparedRows {
    struct Row {
      std::string key;
      std::string text;  ///< the stored JSON text, cut to max_row_bytes
    };
    std::vector<Row> rows;
    /// What each row's `text` says (cut the same way), in the same order: batch_body's argument.
    std::vector<nlohmann::json> data;
    /// batch_body of every row: the delivery when all of them are new (the usual case).
    std::optional<std::string> body_of_all;
  };
  PreparedRows prepare_rows(
      std::span<const JobRow> rows,
      const std::function<std::optional<std::string>(const std::vector<nlohmann::json>&)>&
          batch_body) const;
  /// store_rows's work inside a transaction the caller holds (the job row locked).
  StoredRows insert_rows(
      Transaction& tx, const Job& job, const PreparedRows& rows, std::int64_t cost_per_row,
      const std::string& cost_key,
      const std::function<std::optional<std::string>(const std::vector<nlohmann::json>&)>&
          batch_body);
  /// claim_entry for a job pinned to this node: its oldest entry to fetch, leased for `lease`,
  /// unless one of its entries is leased already.
  std::optional<FrontierEntry> claim_in_order(Transaction& tx, const std::string& job_id,
                                              std::chrono::seconds lease);
  /// Admits `entries` to a job's frontier under `policy`, each origin with its pacing row;
  /// returns how many pages were new. The job row must be locked by `tx`.
  std::int64_t admit(Transaction& tx, const std::string& job_id,
                     const std::vector<FrontierEntry>& entries, const FrontierPolicy& policy);
  /// A page of the job left its place under the limit (a copy, disallowed): the oldest spare
  /// page takes it, else the job's frontier is one smaller. The job row must be locked by `tx`.
  void free_place(Transaction& tx, const std::string& job_id);
  /// Adds one to the counter `what` of the job's progress; the job row must be locked by `tx`.
  void bump_progress(Transaction& tx, const Job& current, const std::string& what);
  Job end_job(Transaction& tx, const Job& current, const std::string& status,
              const std::optional<std::string>& reason,
              const std::function<std::optional<std::string>(const Job&)>& finished_body);
  /// Drops this node's leases on the rows of `table` whose status is one of `unfinished` (an SQL
  /// list of literals).
  void release_leases(const std::string& table, const std::string& unfinished);

  Database& db_;
  Store& store_;
  const Clock& clock_;
  const std::string node_id_;
  const JobStoreLimits limits_;
};

}  // namespace gleaner::store
