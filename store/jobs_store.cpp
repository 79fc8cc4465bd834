#include "store/jobs_store.h"

#include <algorithm>
#include <limits>
#include <set>

#include "core/error.h"
#include "core/ids.h"
#include "core/log.h"
#include "store/row_size.h"

namespace gleaner::store {
namespace {

constexpr std::string_view kJobColumns =
    "id, account_id, kind, status, stop_reason, input, progress, rows_count, credits_spent, "
    "stop_requested, created_at, updated_at, started_at, finished_at, key_hash, by_frontier, "
    "frontier_size, pinned_node, results_deleted_at";
constexpr std::string_view kEntryColumns =
    "id, url_key, entry_kind, url, origin, depth, parent_url, attempts";
/// Whether origin `o` of a page job still has an entry queued or leased. Every queued entry's
/// origin has its job_origins row (admit), so asking per origin lets the index (job_id, origin,
/// state, id) find the open entries without walking the done ones: asked per page, a walk over
/// the whole frontier made a crawl's cost grow with its square.
constexpr std::string_view kOriginOpen =
    "EXISTS (SELECT 1 FROM job_frontier f WHERE f.job_id = o.job_id AND f.origin = o.origin AND "
    "f.state IN ('queued', 'leased'))";
constexpr std::string_view kDeliveryColumns =
    "id, job_id, event, body, status, attempts, next_attempt_at, created_at";

constexpr const char* kStartedEvent = "scraper.job.started";
constexpr const char* kDataEvent = "scraper.data.scraped";
constexpr const char* kFinishedEvent = "scraper.job.finished";

std::optional<TimePoint> optional_time(const Row& row, std::size_t column) {
  if (auto v = row.optional_integer(column)) return from_unix_seconds(*v);
  return std::nullopt;
}

Job job_from(const Row& row) {
  Job j;
  j.id = row.text(0);
  j.account_id = row.integer(1);
  j.kind = row.text(2);
  j.status = row.text(3);
  if (!row.is_null(4)) j.stop_reason = row.text(4);
  j.input = nlohmann::json::parse(row.text(5));
  j.progress = nlohmann::json::parse(row.text(6));
  j.rows_count = row.integer(7);
  j.credits_spent = row.integer(8);
  j.stop_requested = row.integer(9) != 0;
  j.created_at = from_unix_seconds(row.integer(10));
  j.updated_at = from_unix_seconds(row.integer(11));
  j.started_at = optional_time(row, 12);
  j.finished_at = optional_time(row, 13);
  if (!row.is_null(14)) j.key_hash = row.text(14);
  j.by_frontier = row.integer(15) != 0;
  j.frontier_size = row.integer(16);
  if (!row.is_null(17)) j.pinned_node = row.text(17);
  j.results_deleted_at = optional_time(row, 18);
  return j;
}

FrontierEntry entry_from(const Row& row) {
  FrontierEntry e;
  e.id = row.integer(0);
  e.key = row.text(1);
  e.kind = row.text(2);
  e.url = row.text(3);
  e.origin = row.text(4);
  e.depth = row.integer(5);
  if (!row.is_null(6)) e.parent_url = row.text(6);
  e.attempts = row.integer(7);
  return e;
}

/// Thrown inside commit_entry's transaction to roll it back when the row cannot be paid.
struct Unpaid {};
/// The same when the store refuses the row (storage_refusal).
struct Unstored {
  std::string reason;
};

Delivery delivery_from(const Row& row) {
  Delivery d;
  d.id = row.integer(0);
  d.job_id = row.text(1);
  d.event = row.text(2);
  d.body = row.text(3);
  d.status = row.text(4);
  d.attempts = row.integer(5);
  d.next_attempt_at = from_unix_seconds(row.integer(6));
  d.created_at = from_unix_seconds(row.integer(7));
  return d;
}

std::string select_jobs(std::string_view rest) {
  return "SELECT " + std::string(kJobColumns) + " FROM scraper_jobs " + std::string(rest);
}

/// Whether a caller (account, and key unless `key_hash` is empty) may see `job`.
bool belongs_to(const Job& job, std::int64_t account_id, const std::string& key_hash) {
  return job.account_id == account_id &&
         (key_hash.empty() || !job.key_hash || *job.key_hash == key_hash);
}

/// The WHERE clause of a caller's jobs, and its parameters.
std::pair<std::string, std::vector<SqlValue>> callers_jobs(std::int64_t account_id,
                                                           const std::string& key_hash) {
  if (key_hash.empty()) return {"WHERE account_id = ?", {account_id}};
  return {"WHERE account_id = ? AND (key_hash IS NULL OR key_hash = ?)", {account_id, key_hash}};
}

std::optional<Job> job_in(Transaction& tx, const std::string& id, std::string_view lock = {}) {
  auto rows = tx.run(select_jobs("WHERE id = ?") + std::string(lock), {id}).rows;
  if (rows.empty()) return std::nullopt;
  return job_from(rows.front());
}

/// The clause that makes a claim skip rows another node holds locked (PostgreSQL); SQLite's
/// write transaction excludes other writers already.
std::string skip_locked(const Dialect& dialect) {
  return dialect.lock_rows.empty() ? std::string()
                                   : std::string(dialect.lock_rows) + " SKIP LOCKED";
}

}  // namespace

JobStoreLimits JobStoreLimits::from_config(const Config& config) {
  JobStoreLimits limits;
  const long long max_row = config.get_int("max_row_bytes", limits.max_row_bytes);
  if (max_row < 64 * 1024) Config::refuse("max_row_bytes", "must be at least 65536");
  limits.max_row_bytes = static_cast<std::size_t>(max_row);
  limits.account_quota = config.get_int("account_stored_bytes_quota", limits.account_quota);
  if (limits.account_quota < 0) {
    Config::refuse("account_stored_bytes_quota", "may not be negative (0: no quota)");
  }
  limits.disk = std::make_shared<DiskWatch>(DiskWatch::from_config(config));
  return limits;
}

JobStore::JobStore(Database& db, Store& store, const Clock& clock, std::string node_id,
                   JobStoreLimits limits)
    : db_(db),
      store_(store),
      clock_(clock),
      node_id_(std::move(node_id)),
      limits_(std::move(limits)) {}

std::optional<std::string> JobStore::refusal_of(Transaction& tx, std::int64_t account_id) {
  if (limits_.disk && limits_.disk->low()) return storage_refusal::kDisk;
  if (limits_.account_quota > 0 && account_bytes(tx, account_id) >= limits_.account_quota) {
    return storage_refusal::kQuota;
  }
  return std::nullopt;
}

std::int64_t JobStore::account_bytes(Transaction& tx, std::int64_t account_id) {
  const auto rows = tx.run("SELECT stored_bytes FROM accounts WHERE id = ?", {account_id}).rows;
  return rows.empty() ? 0 : rows.front().integer(0);
}

std::int64_t JobStore::stored_bytes(std::int64_t account_id) {
  return in_transaction(db_, TxKind::Read,
                        [&](Transaction& tx) { return account_bytes(tx, account_id); });
}

void JobStore::check_room(std::int64_t account_id) {
  const auto refused = in_transaction(db_, TxKind::Read,
                                      [&](Transaction& tx) { return refusal_of(tx, account_id); });
  if (refused == storage_refusal::kDisk) {
    throw Error(ErrorCode::InsufficientStorage,
                "the service is short of disk space for job results: no new job is taken until "
                "room is made",
                "the store's disk has less than " + std::to_string(limits_.disk->min_free()) +
                    " bytes free (min_free_disk_bytes)");
  }
  if (refused == storage_refusal::kQuota) {
    throw Error(ErrorCode::StorageQuotaExceeded,
                "the account's job results take " + std::to_string(stored_bytes(account_id)) +
                    " bytes, its quota is " + std::to_string(limits_.account_quota) +
                    " bytes: no new job is taken");
  }
}

std::int64_t JobStore::now() const {
  return to_unix_seconds(clock_.now());
}

void JobStore::enqueue(Transaction& tx, const std::string& job_id, const std::string& event,
                       const std::string& body) {
  const std::int64_t t = now();
  tx.run(
      "INSERT INTO webhook_deliveries (job_id, event, body, status, attempts, next_attempt_at, "
      "created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?)",
      {job_id, event, body, std::string(delivery_status::kPending), t, t, t});
}

Job JobStore::create_job(std::int64_t account_id, const std::string& kind,
                         const nlohmann::json& input, const std::string& key_hash) {
  const std::string id = new_uuid();
  const std::int64_t t = now();
  db_.transact(TxKind::Write, [&](Transaction& tx) {
    tx.run(
        "INSERT INTO scraper_jobs (id, account_id, key_hash, kind, status, input, progress, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        {id, account_id, key_hash.empty() ? SqlValue(nullptr) : SqlValue(key_hash), kind,
         std::string(job_status::kPending), input.dump(), std::string("{}"), t, t});
  });
  log::info("jobs") << "job " << id << " created for account " << account_id;
  return *job(id);
}

std::optional<Job> JobStore::job(const std::string& id) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) { return job_in(tx, id); });
}

std::optional<Job> JobStore::find_job(const std::string& id, std::int64_t account_id,
                                      const std::string& key_hash) {
  auto found = job(id);
  if (!found || !belongs_to(*found, account_id, key_hash)) return std::nullopt;
  return found;
}

std::vector<Job> JobStore::list_jobs(std::int64_t account_id, std::int64_t offset,
                                     std::int64_t limit, const std::string& key_hash) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) {
    auto [where, params] = callers_jobs(account_id, key_hash);
    params.emplace_back(limit);
    params.emplace_back(offset);
    std::vector<Job> jobs;
    for (const Row& row :
         tx.run(select_jobs(where + " ORDER BY created_at DESC, id LIMIT ? OFFSET ?"), params)
             .rows) {
      jobs.push_back(job_from(row));
    }
    return jobs;
  });
}

std::int64_t JobStore::count_jobs(std::int64_t account_id, const std::string& key_hash) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) {
    const auto [where, params] = callers_jobs(account_id, key_hash);
    return tx.run("SELECT COUNT(*) FROM scraper_jobs " + where, params).rows.at(0).integer(0);
  });
}

std::vector<nlohmann::json> JobStore::rows(const std::string& job_id, std::int64_t offset,
                                           std::int64_t limit) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) {
    std::vector<nlohmann::json> out;
    for (const Row& row :
         tx.run("SELECT data FROM scraper_job_rows WHERE job_id = ? ORDER BY seq LIMIT ? OFFSET ?",
                {job_id, limit, offset})
             .rows) {
      out.push_back(nlohmann::json::parse(row.text(0)));
    }
    return out;
  });
}

std::vector<StoredRow> JobStore::rows_after(const std::string& job_id, std::int64_t after_seq,
                                            std::int64_t max_rows, std::int64_t max_bytes) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) {
    // How many rows fit, from their lengths alone (each row's text is read and dropped, never
    // kept): then only those are read. One row is read whatever its size.
    std::int64_t last = std::numeric_limits<std::int64_t>::max();
    if (max_rows > 1) {
      const auto sizes = tx.run(
          "SELECT seq, LENGTH(data) FROM scraper_job_rows WHERE job_id = ? AND seq > ? "
          "ORDER BY seq LIMIT ?",
          {job_id, after_seq, max_rows});
      std::int64_t bytes = 0;
      for (std::size_t i = 0; i < sizes.rows.size(); ++i) {
        bytes += sizes.rows[i].integer(1);
        if (i > 0 && bytes > max_bytes) break;
        last = sizes.rows[i].integer(0);
      }
      if (sizes.rows.empty()) return std::vector<StoredRow>{};
    }
    std::vector<StoredRow> out;
    for (const Row& row : tx.run("SELECT seq, data FROM scraper_job_rows WHERE job_id = ? AND "
                                 "seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
                                 {job_id, after_seq, last, std::max<std::int64_t>(max_rows, 1)})
                              .rows) {
      out.push_back({row.integer(0), row.text(1)});
    }
    return out;
  });
}

std::optional<std::int64_t> JobStore::seq_at(const std::string& job_id, std::int64_t offset) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) -> std::optional<std::int64_t> {
    const auto found =
        tx.run("SELECT seq FROM scraper_job_rows WHERE job_id = ? ORDER BY seq LIMIT 1 OFFSET ?",
               {job_id, offset});
    if (found.rows.empty()) return std::nullopt;
    return found.rows.at(0).integer(0);
  });
}

std::optional<Job> JobStore::request_stop(
    const std::string& id, std::int64_t account_id,
    const std::function<std::optional<std::string>(const Job&)>& finished_body,
    const std::string& key_hash) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) -> std::optional<Job> {
    auto found = job_in(tx, id, db_.dialect().lock_rows);
    if (!found || !belongs_to(*found, account_id, key_hash)) return std::nullopt;
    if (found->done()) return found;
    const std::int64_t t = now();
    if (found->status == job_status::kPending) {
      // Nothing runs it yet: it ends here, and its worker will never claim it.
      tx.run(
          "UPDATE scraper_jobs SET status = ?, stop_reason = 'stopped_by_user', updated_at = ?, "
          "finished_at = ? WHERE id = ?",
          {std::string(job_status::kStopped), t, t, id});
      Job stopped = *job_in(tx, id);
      if (auto body = finished_body(stopped)) enqueue(tx, id, kFinishedEvent, *body);
      return stopped;
    }
    tx.run("UPDATE scraper_jobs SET stop_requested = 1, updated_at = ? WHERE id = ?", {t, id});
    return job_in(tx, id);
  });
}

std::optional<Job> JobStore::delete_rows(const std::string& id, std::int64_t account_id,
                                        const std::string& key_hash) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) -> std::optional<Job> {
    auto found = job_in(tx, id, db_.dialect().lock_rows);
    if (!found || !belongs_to(*found, account_id, key_hash)) return std::nullopt;
    if (!found->done()) {
      throw Error(ErrorCode::JobNotEnded,
                  "the job is " + found->status + ": stop it (DELETE /scrapers/jobs/" + id +
                      ") and wait until it has ended before deleting its results");
    }
    if (found->results_deleted_at) return found;
    // The bytes insert_rows counted: each row's stored text, in bytes.
    const std::string length = db_.dialect().name == postgres_dialect().name
                                   ? "octet_length(data)"
                                   : "LENGTH(CAST(data AS BLOB))";
    const std::int64_t freed =
        tx.run("SELECT COALESCE(SUM(" + length + "), 0) FROM scraper_job_rows WHERE job_id = ?",
               {id})
            .rows.at(0)
            .integer(0);
    tx.run("DELETE FROM scraper_job_rows WHERE job_id = ?", {id});
    tx.run(
        "UPDATE accounts SET stored_bytes = CASE WHEN stored_bytes > ? THEN stored_bytes - ? "
        "ELSE 0 END WHERE id = ?",
        {freed, freed, found->account_id});
    const std::int64_t t = now();
    tx.run("UPDATE scraper_jobs SET results_deleted_at = ?, updated_at = ? WHERE id = ?",
           {t, t, id});
    return job_in(tx, id);
  });
}

void JobStore::release_leases(const std::string& table, const std::string& unfinished) {
  db_.transact(TxKind::Write, [&](Transaction& tx) {
    tx.run("UPDATE " + table + " SET lease_owner = NULL, lease_expires_at = NULL " +
               "WHERE lease_owner = ? AND status IN (" + unfinished + ")",
           {node_id_});
  });
}

void JobStore::release_job_leases() {
  release_leases("scraper_jobs", "'pending', 'in_progress'");
  // The page entries this node was fetching go back to the queue, fetched again at once.
  db_.transact(TxKind::Write, [&](Transaction& tx) {
    tx.run(
        "UPDATE job_frontier SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL "
        "WHERE lease_owner = ? AND state = 'leased'",
        {node_id_});
  });
}

void JobStore::beat() {
  in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    tx.run(
        "INSERT INTO nodes (node_id, seen_at) VALUES (?, ?) ON CONFLICT (node_id) DO UPDATE SET "
        "seen_at = excluded.seen_at",
        {node_id_, now()});
  });
}

std::vector<std::pair<std::string, std::string>> JobStore::adopt_pinned_jobs(
    std::chrono::seconds gone_after) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    const std::int64_t t = now();
    std::vector<std::pair<std::string, std::string>> adopted;
    const auto rows =
        tx.run(
              "SELECT j.id, j.pinned_node FROM scraper_jobs j JOIN nodes n ON n.node_id = "
              "j.pinned_node WHERE j.status IN ('pending', 'in_progress') AND j.pinned_node <> ? "
              "AND n.seen_at < ? ORDER BY j.created_at, j.id",
              {node_id_, t - gone_after.count()})
            .rows;
    for (const Row& row : rows) {
      const std::string id = row.text(0);
      const std::string gone = row.text(1);
      // Another live node may have taken it over in the meantime: then it is that node's.
      if (tx.run("UPDATE scraper_jobs SET pinned_node = ?, updated_at = ? WHERE id = ? AND "
                 "pinned_node = ?",
                 {node_id_, t, id, gone})
              .affected == 0) {
        continue;
      }
      tx.run(
          "UPDATE job_frontier SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL "
          "WHERE job_id = ? AND lease_owner = ? AND state = 'leased'",
          {id, gone});
      adopted.emplace_back(id, gone);
    }
    return adopted;
  });
}

std::optional<Job> JobStore::claim_job(std::chrono::seconds lease) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) -> std::optional<Job> {
    const std::int64_t t = now();
    const std::string sql =
        select_jobs(
            "WHERE status IN ('pending', 'in_progress') AND by_frontier = 0 AND (lease_owner IS "
            "NULL OR lease_expires_at < ?) ORDER BY created_at, id LIMIT 1") +
        skip_locked(db_.dialect());
    auto rows = tx.run(sql, {t}).rows;
    if (rows.empty()) return std::nullopt;
    Job claimed = job_from(rows.front());
    tx.run("UPDATE scraper_jobs SET lease_owner = ?, lease_expires_at = ? WHERE id = ?",
           {node_id_, t + lease.count(), claimed.id});
    return claimed;
  });
}

bool JobStore::renew_lease(const std::string& job_id, std::chrono::seconds lease) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    return tx.run("UPDATE scraper_jobs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ?",
                  {now() + lease.count(), job_id, node_id_})
               .affected == 1;
  });
}

bool JobStore::mark_started(const std::string& job_id,
                            const std::optional<std::string>& started_body) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    const std::int64_t t = now();
    const bool first =
        tx.run(
              "UPDATE scraper_jobs SET status = 'in_progress', started_at = ?, updated_at = ? "
              "WHERE id = ? AND status = 'pending'",
              {t, t, job_id})
            .affected == 1;
    if (first && started_body) enqueue(tx, job_id, kStartedEvent, *started_body);
    return first;
  });
}

void JobStore::save_progress(const std::string& job_id, const nlohmann::json& progress) {
  db_.transact(TxKind::Write, [&](Transaction& tx) {
    tx.run("UPDATE scraper_jobs SET progress = ?, updated_at = ? WHERE id = ?",
           {progress.dump(), now(), job_id});
  });
}

StoredRows JobStore::store_rows(
    const Job& job, const std::vector<JobRow>& rows, std::int64_t cost_per_row,
    const std::string& cost_key,
    const std::function<std::optional<std::string>(const std::vector<nlohmann::json>&)>&
        batch_body) {
  // Rolls the billing period over first when it has ended (Store does that on read), so the
  // balance checked below is the current period's.
  if (!store_.find_account(job.account_id)) {
    throw Error(ErrorCode::NotFound, "no account " + std::to_string(job.account_id));
  }
  PreparedRows prepared = prepare_rows(rows, batch_body);
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    // Locks the job row so that two writers (a node whose lease was taken over) never number
    // rows alike; the UNIQUE (job_id, place_key) constraint is the last guard against doubles.
    tx.run("SELECT id FROM scraper_jobs WHERE id = ?" + std::string(db_.dialect().lock_rows),
           {job.id});
    return insert_rows(tx, job, prepared, cost_per_row, cost_key, batch_body);
  });
}

JobStore::PreparedRows JobStore::prepare_rows(
    std::span<const JobRow> rows,
    const std::function<std::optional<std::string>(const std::vector<nlohmann::json>&)>&
        batch_body) const {
  PreparedRows out;
  for (const JobRow& row : rows) {
    std::string text = row.data.dump();
    nlohmann::json data = row.data;
    // A row larger than max_row_bytes is stored cut, naming what was cut (store/row_size.h).
    if (text.size() > limits_.max_row_bytes) text = capped_row_text(data, limits_.max_row_bytes);
    out.rows.push_back({row.key, std::move(text)});
    out.data.push_back(std::move(data));
  }
  if (!out.data.empty()) out.body_of_all = batch_body(out.data);
  return out;
}

StoredRows JobStore::insert_rows(
    Transaction& tx, const Job& job, const PreparedRows& rows, std::int64_t cost_per_row,
    const std::string& cost_key,
    const std::function<std::optional<std::string>(const std::vector<nlohmann::json>&)>&
        batch_body) {
  StoredRows result;
  const std::int64_t t = now();
  std::int64_t seq =
      tx.run("SELECT COALESCE(MAX(seq), 0) FROM scraper_job_rows WHERE job_id = ?", {job.id})
          .rows.at(0)
          .integer(0);
  for (std::size_t i = 0; i < rows.rows.size(); ++i) {
    const PreparedRows::Row& row = rows.rows[i];
    const bool known = !tx.run("SELECT 1 FROM scraper_job_rows WHERE job_id = ? AND place_key = ?",
                               {job.id, row.key})
                            .rows.empty();
    if (known) continue;
    // Room first: a row the store refuses is neither written nor charged.
    if (auto refused = refusal_of(tx, job.account_id)) {
      result.storage_refused = std::move(refused);
      break;
    }
    if (cost_per_row > 0) {
      const bool paid =
          tx.run("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?",
                 {cost_per_row, job.account_id, cost_per_row})
              .affected == 1;
      if (!paid) {
        result.out_of_credits = true;
        break;
      }
    }
    ++seq;
    tx.run(
        "INSERT INTO scraper_job_rows (job_id, seq, place_key, data, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        {job.id, seq, row.key, row.text, t});
    tx.run("UPDATE accounts SET stored_bytes = stored_bytes + ? WHERE id = ?",
           {static_cast<std::int64_t>(row.text.size()), job.account_id});
    // One ledger line per charged row, keyed by job and row: charged exactly once even if the
    // row were offered again after a restart.
    if (cost_per_row > 0) {
      tx.run(
          "INSERT INTO ledger (request_id, account_id, endpoint, credits, charged_at) "
          "VALUES (?, ?, ?, ?, ?)",
          {"job:" + job.id + ":" + row.key, job.account_id, cost_key, cost_per_row, t});
    }
    result.stored.push_back(rows.data[i]);
  }
  if (!result.stored.empty()) {
    const auto count = static_cast<std::int64_t>(result.stored.size());
    tx.run(
        "UPDATE scraper_jobs SET rows_count = rows_count + ?, credits_spent = credits_spent + ?, "
        "updated_at = ? WHERE id = ?",
        {count, count * cost_per_row, t, job.id});
    const auto body =
        result.stored.size() == rows.rows.size() ? rows.body_of_all : batch_body(result.stored);
    if (body) enqueue(tx, job.id, kDataEvent, *body);
  }
  return result;
}

Job JobStore::finish_job(
    const std::string& job_id, const std::string& status, const std::optional<std::string>& reason,
    const std::function<std::optional<std::string>(const Job&)>& finished_body) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    auto current = job_in(tx, job_id, db_.dialect().lock_rows);
    if (!current) throw Error(ErrorCode::NotFound, "no job " + job_id);
    if (current->done()) return *current;  // finished already (e.g. by another node)
    return end_job(tx, *current, status, reason, finished_body);
  });
}

std::vector<JobListing> JobStore::list_all_jobs(std::optional<std::int64_t> account_id,
                                                const std::optional<std::string>& status,
                                                std::int64_t limit) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) {
    std::string where = "WHERE 1 = 1";
    std::vector<SqlValue> params;
    if (account_id) {
      where += " AND account_id = ?";
      params.emplace_back(*account_id);
    }
    if (status) {
      where += " AND status = ?";
      params.emplace_back(*status);
    }
    params.emplace_back(limit);
    std::vector<JobListing> out;
    for (const Row& row : tx.run("SELECT " + std::string(kJobColumns) +
                                     ", lease_owner, lease_expires_at FROM scraper_jobs " + where +
                                     " ORDER BY created_at DESC, id LIMIT ?",
                                 params)
                              .rows) {
      const std::size_t lease = std::count(kJobColumns.begin(), kJobColumns.end(), ',') + 1;
      JobListing listing{job_from(row), std::nullopt, optional_time(row, lease + 1), 0};
      if (!row.is_null(lease)) listing.lease_owner = row.text(lease);
      out.push_back(std::move(listing));
    }
    for (JobListing& listing : out) {
      if (!listing.job.by_frontier || listing.job.done()) continue;
      listing.leased_entries =
          tx.run("SELECT COUNT(*) FROM job_frontier WHERE job_id = ? AND state = 'leased'",
                 {listing.job.id})
              .rows.at(0)
              .integer(0);
    }
    return out;
  });
}

std::optional<Job> JobStore::stop_now(
    const std::string& id, const std::string& reason,
    const std::function<std::optional<std::string>(const Job&)>& finished_body) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) -> std::optional<Job> {
    auto current = job_in(tx, id, db_.dialect().lock_rows);
    if (!current || current->done()) return current;
    // The pages a node was fetching for it: nobody's any more, and never taken again (the job
    // is ended); a node still fetching one commits nothing (commit_entry sees the job ended).
    tx.run(
        "UPDATE job_frontier SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL "
        "WHERE job_id = ? AND state = 'leased'",
        {id});
    return end_job(tx, *current, job_status::kStopped, reason, finished_body);
  });
}

Job JobStore::end_job(Transaction& tx, const Job& current, const std::string& status,
                      const std::optional<std::string>& reason,
                      const std::function<std::optional<std::string>(const Job&)>& finished_body) {
  const std::int64_t t = now();
  tx.run(
      "UPDATE scraper_jobs SET status = ?, stop_reason = ?, updated_at = ?, finished_at = ?, "
      "lease_owner = NULL, lease_expires_at = NULL WHERE id = ?",
      {status, reason ? SqlValue(*reason) : SqlValue(nullptr), t, t, current.id});
  if (current.by_frontier) {
    // What the job kept only to run: the pages the limit held back and the origins' robots.txt
    // (kept for the job's life, not for ever).
    tx.run("DELETE FROM job_frontier WHERE job_id = ? AND state = 'spare'", {current.id});
    tx.run("UPDATE job_origins SET robots = '' WHERE job_id = ? AND robots IS NOT NULL",
           {current.id});
  }
  Job finished = *job_in(tx, current.id);
  if (auto body = finished_body(finished)) enqueue(tx, current.id, kFinishedEvent, *body);
  return finished;
}

Job JobStore::create_frontier_job(std::int64_t account_id, const std::string& kind,
                                  const nlohmann::json& input, const std::string& key_hash,
                                  const std::vector<FrontierEntry>& seeds,
                                  const FrontierPolicy& policy, bool pinned) {
  const std::string id = new_uuid();
  const std::int64_t t = now();
  db_.transact(TxKind::Write, [&](Transaction& tx) {
    tx.run(
        "INSERT INTO scraper_jobs (id, account_id, key_hash, kind, status, input, progress, "
        "by_frontier, pinned_node, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, "
        "?)",
        {id, account_id, key_hash.empty() ? SqlValue(nullptr) : SqlValue(key_hash), kind,
         std::string(job_status::kPending), input.dump(), std::string("{}"),
         pinned ? SqlValue(node_id_) : SqlValue(nullptr), t, t});
    const std::int64_t added = admit(tx, id, seeds, policy);
    tx.run("UPDATE scraper_jobs SET frontier_size = ? WHERE id = ?", {added, id});
  });
  log::info("jobs") << kind << " job " << id << " created for account " << account_id << " with "
                    << seeds.size() << " addresses";
  return *job(id);
}

std::int64_t JobStore::admit(Transaction& tx, const std::string& job_id,
                             const std::vector<FrontierEntry>& entries,
                             const FrontierPolicy& policy) {
  std::int64_t size =
      tx.run("SELECT frontier_size FROM scraper_jobs WHERE id = ?", {job_id}).rows.at(0).integer(0);
  std::int64_t added = 0;
  // Each origin's row once: a batch of 10,000 URLs of one site is 10,000 frontier rows, not
  // 20,000 statements, inside the write transaction every request's charge waits behind.
  std::set<std::string> origins;
  for (const FrontierEntry& e : entries) {
    const bool page = e.kind == entry_kind::kPage;
    // Past the limit, a page is kept aside: it takes the place of a page that turns out a copy.
    const bool spare = page && policy.limit > 0 && size >= policy.limit;
    const bool alias = e.kind == entry_kind::kAlias;
    const bool fresh =
        tx.run(
              "INSERT INTO job_frontier (job_id, url_key, entry_kind, url, origin, depth, "
              "parent_url, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
              {job_id, e.key, e.kind, e.url, e.origin, e.depth,
               e.parent_url ? SqlValue(*e.parent_url) : SqlValue(nullptr),
               std::string(alias   ? "done"
                           : spare ? "spare"
                                   : "queued")})
            .affected == 1;
    if (!fresh || alias) continue;
    if (origins.insert(e.origin).second) {
      tx.run(
          "INSERT INTO job_origins (job_id, origin, next_at_ms, delay_ms, max_concurrency) "
          "VALUES (?, ?, 0, ?, ?) ON CONFLICT DO NOTHING",
          {job_id, e.origin, policy.delay_ms, std::max<std::int64_t>(1, policy.max_concurrency)});
    }
    if (page && !spare) {
      ++size;
      ++added;
    }
  }
  return added;
}

void JobStore::free_place(Transaction& tx, const std::string& job_id) {
  const auto spare =
      tx.run("SELECT id FROM job_frontier WHERE job_id = ? AND state = 'spare' ORDER BY id LIMIT 1",
             {job_id})
          .rows;
  if (!spare.empty()) {
    tx.run("UPDATE job_frontier SET state = 'queued' WHERE id = ?", {spare.front().integer(0)});
    return;
  }
  tx.run("UPDATE scraper_jobs SET frontier_size = frontier_size - 1 WHERE id = ?", {job_id});
}

std::optional<ClaimedEntry> JobStore::claim_entry(std::chrono::seconds lease,
                                                  const ClaimOrder& order) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) -> std::optional<ClaimedEntry> {
    const std::int64_t t = now();
    const std::int64_t t_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now().time_since_epoch())
            .count();
    // Only ids and accounts: the order needs no more, and a batch's input can be megabytes.
    // Another node's pinned jobs are not this node's to run, nor to count among an account's
    // oldest.
    std::vector<PageJobRef> candidates;
    std::vector<bool> pinned;
    for (const Row& row :
         tx.run("SELECT id, account_id, pinned_node FROM (SELECT id, account_id, created_at, "
                "pinned_node, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY created_at, id) "
                "AS place FROM scraper_jobs WHERE by_frontier = 1 AND status IN ('pending', "
                "'in_progress') AND stop_requested = 0 AND (pinned_node IS NULL OR pinned_node = "
                "?)) ranked WHERE place <= ? ORDER BY created_at, id",
                {node_id_, kClaimJobsPerAccount})
             .rows) {
      candidates.push_back({row.text(0), row.integer(1)});
      pinned.push_back(!row.is_null(2));
    }
    std::vector<std::size_t> tries;
    if (order) {
      tries = order(candidates);
    } else {
      for (std::size_t i = 0; i < candidates.size(); ++i) tries.push_back(i);
    }
    for (const std::size_t index : tries) {
      const std::string& job_id = candidates.at(index).id;
      if (pinned.at(index)) {
        if (auto entry = claim_in_order(tx, job_id, lease)) {
          auto job = job_in(tx, job_id);
          if (!job) throw Error(ErrorCode::Internal, "page job " + job_id + " vanished");
          return ClaimedEntry{std::move(*job), std::move(*entry)};
        }
        continue;
      }
      // An origin whose delay has passed, with an entry to take and a free slot. Locked, so
      // that two nodes never both count a free slot of one origin.
      const auto origins =
          tx.run(
                "SELECT o.origin, o.delay_ms FROM job_origins o WHERE o.job_id = ? AND "
                "o.next_at_ms <= ? AND (EXISTS (SELECT 1 FROM job_frontier f WHERE f.job_id = "
                "o.job_id AND f.origin = o.origin AND f.state = 'queued') OR EXISTS (SELECT 1 "
                "FROM job_frontier f WHERE f.job_id = o.job_id AND f.origin = o.origin AND "
                "f.state = 'leased' AND f.lease_expires_at < ?)) AND (SELECT COUNT(*) FROM "
                "job_frontier f WHERE "
                "f.job_id = o.job_id AND f.origin = o.origin AND f.state = 'leased' AND "
                "f.lease_expires_at >= ?) < o.max_concurrency ORDER BY o.next_at_ms, o.origin "
                "LIMIT 1" +
                    skip_locked(db_.dialect()),
                {job_id, t_ms, t, t})
              .rows;
      if (origins.empty()) continue;
      const std::string origin = origins.front().text(0);
      const std::int64_t delay_ms = origins.front().integer(1);
      // The oldest queued entry and the oldest expired lease, each found by the index
      // (job_id, origin, state, id): one query with "state = 'queued' OR ..." walked every entry
      // of the origin, the done ones included, so each claim cost grew with the crawl.
      const auto queued =
          tx.run("SELECT " + std::string(kEntryColumns) +
                     " FROM job_frontier WHERE job_id = ? AND origin = ? AND state = 'queued' "
                     "ORDER BY id LIMIT 1" +
                     skip_locked(db_.dialect()),
                 {job_id, origin})
              .rows;
      const auto expired =
          tx.run("SELECT " + std::string(kEntryColumns) +
                     " FROM job_frontier WHERE job_id = ? AND origin = ? AND state = 'leased' AND "
                     "lease_expires_at < ? ORDER BY id LIMIT 1" +
                     skip_locked(db_.dialect()),
                 {job_id, origin, t})
              .rows;
      if (queued.empty() && expired.empty()) continue;
      FrontierEntry entry = entry_from(queued.empty() ? expired.front() : queued.front());
      if (!queued.empty() && !expired.empty()) {
        FrontierEntry other = entry_from(expired.front());
        if (other.id < entry.id) entry = std::move(other);
      }
      tx.run(
          "UPDATE job_frontier SET state = 'leased', lease_owner = ?, lease_expires_at = ?, "
          "attempts = attempts + 1 WHERE id = ?",
          {node_id_, t + lease.count(), entry.id});
      ++entry.attempts;
      tx.run("UPDATE job_origins SET next_at_ms = ? WHERE job_id = ? AND origin = ?",
             {t_ms + delay_ms, job_id, origin});
      auto job = job_in(tx, job_id);
      if (!job) throw Error(ErrorCode::Internal, "page job " + job_id + " vanished");
      return ClaimedEntry{std::move(*job), std::move(entry)};
    }
    return std::nullopt;
  });
}

std::optional<FrontierEntry> JobStore::claim_in_order(Transaction& tx, const std::string& job_id,
                                                      std::chrono::seconds lease) {
  const std::int64_t t = now();
  // The job row locked: two threads of this node never both find none of its entries leased.
  tx.run("SELECT id FROM scraper_jobs WHERE id = ?" + std::string(db_.dialect().lock_rows),
         {job_id});
  if (tx.run("SELECT COUNT(*) FROM job_frontier WHERE job_id = ? AND state = 'leased' AND "
             "lease_expires_at >= ?",
             {job_id, t})
          .rows.at(0)
          .integer(0) > 0) {
    return std::nullopt;
  }
  // The oldest entry still to fetch, whatever its origin: the frontier's order is the batch's.
  const auto rows = tx.run("SELECT " + std::string(kEntryColumns) +
                               " FROM job_frontier WHERE job_id = ? AND (state = 'queued' OR "
                               "(state = 'leased' AND lease_expires_at < ?)) ORDER BY id LIMIT 1",
                           {job_id, t})
                        .rows;
  if (rows.empty()) return std::nullopt;
  FrontierEntry entry = entry_from(rows.front());
  tx.run(
      "UPDATE job_frontier SET state = 'leased', lease_owner = ?, lease_expires_at = ?, "
      "attempts = attempts + 1 WHERE id = ?",
      {node_id_, t + lease.count(), entry.id});
  ++entry.attempts;
  return entry;
}

std::vector<Job> JobStore::page_jobs_to_end() {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) {
    std::vector<Job> out;
    for (const Row& row :
         tx.run(select_jobs("WHERE by_frontier = 1 AND status IN ('pending', 'in_progress') AND "
                            "(stop_requested = 1 OR NOT EXISTS (SELECT 1 FROM job_origins o "
                            "WHERE o.job_id = scraper_jobs.id AND " +
                            std::string(kOriginOpen) + ")) ORDER BY created_at, id"))
             .rows) {
      out.push_back(job_from(row));
    }
    return out;
  });
}

std::optional<Job> JobStore::finish_if_drained(
    const std::string& job_id,
    const std::function<std::optional<std::string>(const Job&)>& finished_body) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) -> std::optional<Job> {
    auto current = job_in(tx, job_id, db_.dialect().lock_rows);
    if (!current || current->done()) return std::nullopt;
    const std::int64_t open =
        tx.run("SELECT COUNT(*) FROM job_origins o WHERE o.job_id = ? AND " +
                   std::string(kOriginOpen),
               {job_id})
            .rows.at(0)
            .integer(0);
    if (open > 0) return std::nullopt;
    return end_job(tx, *current, job_status::kFinished, std::nullopt, finished_body);
  });
}

std::optional<std::string> JobStore::origin_robots(const std::string& job_id,
                                                   const std::string& origin) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) -> std::optional<std::string> {
    const auto rows =
        tx.run("SELECT robots FROM job_origins WHERE job_id = ? AND origin = ?", {job_id, origin})
            .rows;
    if (rows.empty() || rows.front().is_null(0)) return std::nullopt;
    return rows.front().text(0);
  });
}

bool JobStore::set_origin_robots(const Job& job, const std::string& origin,
                                 const std::string& robots, std::int64_t delay_ms,
                                 const std::vector<FrontierEntry>& sitemaps,
                                 const FrontierPolicy& policy) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    tx.run("SELECT id FROM scraper_jobs WHERE id = ?" + std::string(db_.dialect().lock_rows),
           {job.id});
    const bool first = tx.run(
                             "UPDATE job_origins SET robots = ?, delay_ms = ? WHERE job_id = ? "
                             "AND origin = ? AND robots IS NULL",
                             {robots, delay_ms, job.id, origin})
                           .affected == 1;
    if (first && !sitemaps.empty()) {
      const std::int64_t added = admit(tx, job.id, sitemaps, policy);
      tx.run("UPDATE scraper_jobs SET frontier_size = frontier_size + ? WHERE id = ?",
             {added, job.id});
    }
    return first;
  });
}

void JobStore::skip_entry(const FrontierEntry& entry) {
  db_.transact(TxKind::Write, [&](Transaction& tx) {
    const auto job_id = tx.run("SELECT job_id FROM job_frontier WHERE id = ?", {entry.id}).rows;
    if (job_id.empty()) return;
    tx.run("SELECT id FROM scraper_jobs WHERE id = ?" + std::string(db_.dialect().lock_rows),
           {job_id.front().text(0)});
    const bool skipped = tx.run(
                               "UPDATE job_frontier SET state = 'skipped', lease_owner = NULL, "
                               "lease_expires_at = NULL WHERE id = ? AND state = 'leased'",
                               {entry.id})
                             .affected == 1;
    if (skipped && entry.kind == entry_kind::kPage) free_place(tx, job_id.front().text(0));
  });
}

void JobStore::return_entry(const FrontierEntry& entry) {
  db_.transact(TxKind::Write, [&](Transaction& tx) {
    tx.run(
        "UPDATE job_frontier SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL, "
        "attempts = attempts - 1 WHERE id = ? AND state = 'leased' AND lease_owner = ? AND "
        "attempts > 0",
        {entry.id, node_id_});
  });
}

void JobStore::count_fetch(const std::string& job_id, const std::string& what) {
  db_.transact(TxKind::Write, [&](Transaction& tx) {
    const auto current = job_in(tx, job_id, db_.dialect().lock_rows);
    if (current) bump_progress(tx, *current, what);
  });
}

void JobStore::bump_progress(Transaction& tx, const Job& current, const std::string& what) {
  nlohmann::json progress =
      current.progress.is_object() ? current.progress : nlohmann::json::object();
  const auto it = progress.find(what);
  const std::int64_t n =
      it != progress.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
  progress[what] = n + 1;
  tx.run("UPDATE scraper_jobs SET progress = ? WHERE id = ?", {progress.dump(), current.id});
}

CommittedEntry JobStore::commit_entry(
    const Job& job, const FrontierEntry& entry, const std::vector<std::string>& aliases,
    const std::optional<JobRow>& row, std::int64_t cost, const std::string& cost_key,
    const std::vector<FrontierEntry>& discovered, const FrontierPolicy& policy,
    const std::function<std::optional<std::string>(const std::vector<nlohmann::json>&)>&
        row_body) {
  if (row && cost > 0 && !store_.find_account(job.account_id)) {
    throw Error(ErrorCode::NotFound, "no account " + std::to_string(job.account_id));
  }
  const PreparedRows prepared =
      row ? prepare_rows(std::span<const JobRow>(&*row, 1), row_body) : PreparedRows{};
  try {
    return in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
      CommittedEntry result;
      // The job row locked: commits of one job go one at a time, so the rows' numbering, the
      // limit's count and the drained check of finish_if_drained all see each other.
      const auto current = job_in(tx, job.id, db_.dialect().lock_rows);
      const auto state = tx.run("SELECT state FROM job_frontier WHERE id = ?", {entry.id}).rows;
      if (!current || current->done() || current->stop_requested || state.empty() ||
          state.front().text(0) != "leased") {
        result.lost = true;
        return result;
      }
      for (const std::string& alias : aliases) {
        if (alias == entry.key) continue;
        const bool fresh =
            tx.run(
                  "INSERT INTO job_frontier (job_id, url_key, entry_kind, url, origin, depth, "
                  "parent_url, state) VALUES (?, ?, ?, ?, ?, ?, ?, 'done') ON CONFLICT DO NOTHING",
                  {job.id, alias, std::string(entry_kind::kAlias), alias, entry.origin,
                   entry.depth, SqlValue(entry.url)})
                .affected == 1;
        if (!fresh) result.duplicate = true;
      }
      if (result.duplicate) {
        tx.run("UPDATE job_frontier SET state = 'skipped', lease_owner = NULL WHERE id = ?",
               {entry.id});
        if (entry.kind == entry_kind::kPage) free_place(tx, job.id);
        return result;
      }
      tx.run("UPDATE job_frontier SET state = 'done', lease_owner = NULL WHERE id = ?",
             {entry.id});
      if (row) {
        const StoredRows stored = insert_rows(tx, *current, prepared, cost, cost_key, row_body);
        if (stored.out_of_credits) throw Unpaid{};
        if (stored.storage_refused) throw Unstored{*stored.storage_refused};
        if (!stored.stored.empty()) result.row = stored.stored.front();
        // Counted with the row, so a restart neither loses nor repeats a failure.
        if (result.row && row->failed) bump_progress(tx, *current, "pagesFailed");
      }
      result.added = admit(tx, job.id, discovered, policy);
      if (result.added > 0) {
        tx.run("UPDATE scraper_jobs SET frontier_size = frontier_size + ? WHERE id = ?",
               {result.added, job.id});
      }
      return result;
    });
  } catch (const Unpaid&) {
    CommittedEntry unpaid;
    unpaid.out_of_credits = true;
    return unpaid;
  } catch (const Unstored& refused) {
    CommittedEntry unstored;
    unstored.storage_refused = refused.reason;
    return unstored;
  }
}

std::map<std::string, std::int64_t> JobStore::frontier_states(const std::string& job_id) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) {
    std::map<std::string, std::int64_t> out;
    for (const Row& row : tx.run("SELECT state, COUNT(*) FROM job_frontier WHERE job_id = ? AND "
                                 "entry_kind <> 'alias' GROUP BY state",
                                 {job_id})
                              .rows) {
      out[row.text(0)] = row.integer(1);
    }
    return out;
  });
}

void JobStore::release_delivery_leases() {
  release_leases("webhook_deliveries", "'pending'");
}

std::optional<Delivery> JobStore::claim_delivery(std::chrono::seconds lease) {
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) -> std::optional<Delivery> {
    const std::int64_t t = now();
    const std::string sql = "SELECT " + std::string(kDeliveryColumns) +
                            " FROM webhook_deliveries WHERE status = 'pending' AND "
                            "next_attempt_at <= ? AND (lease_expires_at IS NULL OR "
                            "lease_expires_at < ?) ORDER BY next_attempt_at, id LIMIT 1" +
                            skip_locked(db_.dialect());
    auto rows = tx.run(sql, {t, t}).rows;
    if (rows.empty()) return std::nullopt;
    Delivery d = delivery_from(rows.front());
    tx.run("UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ? WHERE id = ?",
           {node_id_, t + lease.count(), d.id});
    return d;
  });
}

void JobStore::record_attempt(const Delivery& delivery, const DeliveryAttempt& attempt, bool ok,
                              std::optional<TimePoint> next_attempt_at) {
  db_.transact(TxKind::Write, [&](Transaction& tx) {
    const std::int64_t t = now();
    tx.run(
        "INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, http_status, outcome, "
        "detail) VALUES (?, ?, ?, ?, ?, ?)",
        {delivery.id, attempt.attempt, to_unix_seconds(attempt.attempted_at),
         attempt.http_status ? SqlValue(*attempt.http_status) : SqlValue(nullptr), attempt.outcome,
         attempt.detail});
    const std::string status = ok                ? delivery_status::kDone
                               : next_attempt_at ? delivery_status::kPending
                                                 : delivery_status::kFailed;
    tx.run(
        "UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, "
        "lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?",
        {status, attempt.attempt,
         next_attempt_at ? to_unix_seconds(*next_attempt_at)
                         : to_unix_seconds(delivery.next_attempt_at),
         t, delivery.id});
  });
}

std::vector<DeliveryWithAttempts> JobStore::deliveries(const std::string& job_id) {
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) {
    std::vector<DeliveryWithAttempts> out;
    for (const Row& row : tx.run("SELECT " + std::string(kDeliveryColumns) +
                                     " FROM webhook_deliveries WHERE job_id = ? ORDER BY id",
                                 {job_id})
                              .rows) {
      out.push_back({delivery_from(row), {}});
    }
    for (DeliveryWithAttempts& d : out) {
      for (const Row& row : tx.run("SELECT attempt, attempted_at, http_status, outcome, detail "
                                   "FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt",
                                   {d.delivery.id})
                                .rows) {
        DeliveryAttempt a;
        a.attempt = row.integer(0);
        a.attempted_at = from_unix_seconds(row.integer(1));
        a.http_status = row.optional_integer(2);
        a.outcome = row.text(3);
        a.detail = row.text(4);
        d.attempts.push_back(std::move(a));
      }
    }
    return out;
  });
}

std::int64_t JobStore::pending_deliveries() {
  return in_transaction(db_, TxKind::Read, [](Transaction& tx) {
    return tx.run("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending'")
        .rows.at(0)
        .integer(0);
  });
}

std::map<std::string, std::int64_t> JobStore::jobs_by_status() {
  return in_transaction(db_, TxKind::Read, [](Transaction& tx) {
    std::map<std::string, std::int64_t> out;
    for (const Row& row :
         tx.run("SELECT status, COUNT(*) FROM scraper_jobs GROUP BY status").rows) {
      out[row.text(0)] = row.integer(1);
    }
    return out;
  });
}

}  // namespace gleaner::store
