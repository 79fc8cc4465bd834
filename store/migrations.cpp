#include "store/migrations.h"

#include "core/error.h"
#include "core/log.h"

namespace gleaner::store {

// Times are whole seconds since the Unix epoch (BIGINT), taken from the service's Clock rather
// than the database's, so that both databases and the tests' FakeClock agree.
const std::vector<Migration>& migrations() {
  static const std::vector<Migration> list = {
      {1, "accounts, API keys, credit reservations and the ledger", R"sql(
CREATE TABLE accounts (
  id {{id}},
  name TEXT NOT NULL,
  allowance BIGINT NOT NULL CHECK (allowance >= 0),
  period_days BIGINT NOT NULL CHECK (period_days > 0),
  period_start BIGINT NOT NULL,
  period_end BIGINT NOT NULL,
  balance BIGINT NOT NULL CHECK (balance >= 0),
  concurrency_limit BIGINT CHECK (concurrency_limit > 0),
  created_at BIGINT NOT NULL
);
CREATE TABLE api_keys (
  id {{id}},
  account_id BIGINT NOT NULL REFERENCES accounts (id),
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id);
CREATE INDEX api_keys_by_prefix ON api_keys (prefix);
CREATE TABLE reservations (
  request_id TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id),
  endpoint TEXT NOT NULL,
  credits BIGINT NOT NULL CHECK (credits >= 0),
  node_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX reservations_by_account ON reservations (account_id);
CREATE INDEX reservations_by_node ON reservations (node_id);
CREATE INDEX reservations_by_expiry ON reservations (expires_at);
CREATE TABLE ledger (
  id {{id}},
  request_id TEXT NOT NULL UNIQUE,
  account_id BIGINT NOT NULL REFERENCES accounts (id),
  endpoint TEXT NOT NULL,
  credits BIGINT NOT NULL,
  charged_at BIGINT NOT NULL
);
CREATE INDEX ledger_by_account_time ON ledger (account_id, charged_at);
CREATE TABLE store_flags (
  name TEXT PRIMARY KEY,
  set_at BIGINT NOT NULL
);
)sql"},
      {2, "scraper jobs, their rows and the webhook outbox (store/jobs_store.h)", R"sql(
CREATE TABLE scraper_jobs (
  id TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id),
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  stop_reason TEXT,
  input TEXT NOT NULL,
  progress TEXT NOT NULL,
  rows_count BIGINT NOT NULL DEFAULT 0,
  credits_spent BIGINT NOT NULL DEFAULT 0,
  stop_requested BIGINT NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT
);
CREATE INDEX scraper_jobs_by_account ON scraper_jobs (account_id, created_at);
CREATE INDEX scraper_jobs_by_status ON scraper_jobs (status);
CREATE TABLE scraper_job_rows (
  job_id TEXT NOT NULL REFERENCES scraper_jobs (id),
  seq BIGINT NOT NULL,
  place_key TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (job_id, seq),
  UNIQUE (job_id, place_key)
);
CREATE TABLE webhook_deliveries (
  id {{id}},
  job_id TEXT NOT NULL REFERENCES scraper_jobs (id),
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts BIGINT NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_job ON webhook_deliveries (job_id);
CREATE TABLE webhook_attempts (
  delivery_id BIGINT NOT NULL REFERENCES webhook_deliveries (id),
  attempt BIGINT NOT NULL,
  attempted_at BIGINT NOT NULL,
  http_status BIGINT,
  outcome TEXT NOT NULL,
  detail TEXT NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);
)sql"},
      {3, "scraper jobs belong to the key that created them (spec/conventions.md)", R"sql(
ALTER TABLE scraper_jobs ADD COLUMN key_hash TEXT;
)sql"},
      {4, "page jobs (batch, crawler): the frontier and its origins (store/jobs_store.h)", R"sql(
ALTER TABLE scraper_jobs ADD COLUMN by_frontier BIGINT NOT NULL DEFAULT 0;
ALTER TABLE scraper_jobs ADD COLUMN frontier_size BIGINT NOT NULL DEFAULT 0;
CREATE TABLE job_frontier (
  id {{id}},
  job_id TEXT NOT NULL REFERENCES scraper_jobs (id),
  url_key TEXT NOT NULL,
  entry_kind TEXT NOT NULL,
  url TEXT NOT NULL,
  origin TEXT NOT NULL,
  depth BIGINT NOT NULL,
  parent_url TEXT,
  state TEXT NOT NULL,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  UNIQUE (job_id, url_key)
);
CREATE INDEX job_frontier_open ON job_frontier (job_id, origin, state, id);
CREATE INDEX job_frontier_by_owner ON job_frontier (lease_owner);
CREATE TABLE job_origins (
  job_id TEXT NOT NULL REFERENCES scraper_jobs (id),
  origin TEXT NOT NULL,
  next_at_ms BIGINT NOT NULL DEFAULT 0,
  delay_ms BIGINT NOT NULL,
  max_concurrency BIGINT NOT NULL,
  robots TEXT,
  PRIMARY KEY (job_id, origin)
);
)sql"},
      {5,
       "page jobs: how many times each entry was taken, so a page that crashes its node fails "
       "its job rather than every restart (docs/jobs.md \"The frontier\")",
       R"sql(
ALTER TABLE job_frontier ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
)sql"},
      {6,
       "errors answered to each account, counted per day, route and code (GET /account's "
       "usage.errors; one row per day and kind, not per request)",
       R"sql(
CREATE TABLE request_errors (
  account_id BIGINT NOT NULL REFERENCES accounts(id),
  day BIGINT NOT NULL,
  route TEXT NOT NULL,
  code TEXT NOT NULL,
  requests BIGINT NOT NULL,
  PRIMARY KEY (account_id, day, route, code)
);
)sql"},
      {7, "the bytes of job rows each account keeps, for its quota (docs/jobs.md \"Sizes\")",
       R"sql(
ALTER TABLE accounts ADD COLUMN stored_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE accounts SET stored_bytes = COALESCE((SELECT SUM(LENGTH(CAST(r.data AS BLOB)))
  FROM scraper_job_rows r JOIN scraper_jobs j ON j.id = r.job_id
  WHERE j.account_id = accounts.id), 0);
)sql",
       R"sql(
ALTER TABLE accounts ADD COLUMN stored_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE accounts SET stored_bytes = COALESCE((SELECT SUM(octet_length(r.data))
  FROM scraper_job_rows r JOIN scraper_jobs j ON j.id = r.job_id
  WHERE j.account_id = accounts.id), 0);
)sql"},
      {8, "browser sessions: which node holds each account's session (store/session_store.h)",
       R"sql(
CREATE TABLE browser_sessions (
  account_id BIGINT NOT NULL REFERENCES accounts (id),
  session_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  requests BIGINT NOT NULL DEFAULT 0,
  proxy_country TEXT,
  PRIMARY KEY (account_id, session_id)
);
)sql"},
      {9,
       "page jobs pinned to a node: a batch in a browser session runs where the session lives, "
       "one page at a time (store/jobs_store.h Job::pinned_node, docs/sessions.md)",
       R"sql(
ALTER TABLE scraper_jobs ADD COLUMN pinned_node TEXT;
)sql"},
      {10, "when an ended job's rows were deleted by its account, freeing its stored bytes",
       R"sql(
ALTER TABLE scraper_jobs ADD COLUMN results_deleted_at BIGINT;
)sql"},
      {11,
       "when each node was last seen alive: a batch pinned to a node gone for good is taken over "
       "by a live one (store/jobs_store.h adopt_pinned_jobs, docs/sessions.md)",
       R"sql(
CREATE TABLE nodes (
  node_id TEXT PRIMARY KEY,
  seen_at BIGINT NOT NULL
);
)sql"},
  };
  return list;
}

std::string migration_sql(const Migration& migration, const Dialect& dialect) {
  std::string sql(dialect.name == postgres_dialect().name && !migration.postgres_sql.empty()
                      ? migration.postgres_sql
                      : migration.sql);
  static constexpr std::string_view kId = "{{id}}";
  for (auto at = sql.find(kId); at != std::string::npos; at = sql.find(kId, at)) {
    sql.replace(at, kId.size(), dialect.identity_column);
    at += dialect.identity_column.size();
  }
  return sql;
}

namespace {

constexpr std::string_view kCreateVersions =
    "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, "
    "description TEXT NOT NULL, applied_at BIGINT NOT NULL)";

std::int64_t current_version(Transaction& tx) {
  return tx.run("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").rows.at(0).integer(0);
}

}  // namespace

int apply_migrations(Database& db, std::int64_t now_unix_seconds,
                     const std::vector<Migration>& list) {
  const Dialect& dialect = db.dialect();
  return in_transaction(db, TxKind::Write, [&](Transaction& tx) {
    if (!dialect.migration_lock.empty()) tx.run_script(dialect.migration_lock);
    tx.run_script(kCreateVersions);
    const std::int64_t from = current_version(tx);
    const std::int64_t known = list.empty() ? 0 : list.back().version;
    if (from > known) {
      throw Error(ErrorCode::Internal, "store error",
                  "the store's schema is at version " + std::to_string(from) +
                      " but this binary knows only up to " + std::to_string(known) +
                      "; run a newer gleaner");
    }
    int applied = 0;
    for (const Migration& m : list) {
      if (m.version <= from) continue;
      tx.run_script(migration_sql(m, dialect));
      tx.run("INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)",
             {m.version, std::string(m.description), now_unix_seconds});
      log::info("store") << "applied migration " << m.version << " (" << m.description << ") on "
                         << dialect.name;
      ++applied;
    }
    return applied;
  });
}

std::int64_t schema_version(Database& db) {
  return in_transaction(db, TxKind::Write, [](Transaction& tx) {
    tx.run_script(kCreateVersions);
    return current_version(tx);
  });
}

}  // namespace gleaner::store
