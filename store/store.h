#pragma once
// Accounts, hashed API keys and the credit ledger, behind one interface. open_store() picks the
// backend from the configuration entry `store`: `sqlite:<path>` (the embedded default) or a
// PostgreSQL connection string (several nodes on one database). docs/store.md describes the
// schema and the credit reservation protocol.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/config.h"

namespace gleaner::store {

using TimePoint = std::chrono::system_clock::time_point;

/// An account as stored, with its current billing period (rolled over when read).
struct Account {
  std::int64_t id = 0;
  std::string name;
  std::int64_t allowance = 0;  ///< credits granted at the start of every billing period
  std::int64_t period_days = 0;
  TimePoint period_start;
  TimePoint period_end;  ///< the balance resets to the allowance at this moment
  std::int64_t balance = 0;
  /// Concurrent requests allowed to this account's keys; none means the configured default.
  std::optional<std::int64_t> concurrency_limit;
  TimePoint created_at;
};

/// What `create_account` needs.
struct NewAccount {
  std::string name;
  std::int64_t allowance = 0;
  std::int64_t period_days = 30;
  std::optional<std::int64_t> concurrency_limit;
};

/// An API key as listed: never the key itself, only its short visible prefix.
struct ApiKeyInfo {
  std::int64_t id = 0;
  std::int64_t account_id = 0;
  std::string prefix;  ///< e.g. "gl_1a2b3c4d", enough to recognise a key in a list
  TimePoint created_at;
  std::optional<TimePoint> revoked_at;
};

/// A newly made key: `key` is the secret, shown once and never stored.
struct CreatedKey {
  ApiKeyInfo info;
  std::string key;
};

struct CreatedAccount {
  Account account;
  CreatedKey key;
};

/// Credits held for one request between `reserve` and `commit`/`release`.
struct Reservation {
  std::string request_id;
  std::int64_t account_id = 0;
  std::string endpoint;  ///< cost key, e.g. "search/serp" (see store/costs.h)
  std::int64_t credits = 0;
  TimePoint expires_at;  ///< after this any node may release it (its request is presumed dead)
};

/// Charges of one endpoint in the current billing period.
struct EndpointUsage {
  std::string endpoint;
  std::int64_t requests = 0;
  std::int64_t credits = 0;
};

/// Errors answered to an account on one route with one code, counted over its current period.
struct ErrorUsage {
  std::string route;  ///< the route pattern, e.g. /scrape/web
  std::string code;   ///< the error code of spec/conventions.md, e.g. timeout
  std::int64_t requests = 0;
};

/// What GET /account shows.
struct AccountView {
  Account account;
  std::vector<EndpointUsage> usage;  ///< sorted by endpoint
  std::vector<ErrorUsage> errors;    ///< sorted by route, then code
};

class Store {
 public:
  virtual ~Store() = default;

  // Accounts.
  /// Creates an account whose first period starts now with a full balance, and its first key.
  /// Throws invalid_parameter (parameter "name", "credits", "period_days" or "concurrency").
  virtual CreatedAccount create_account(const NewAccount& account) = 0;
  /// Creates `account` only if the store has no account yet; atomic across nodes, so that
  /// several nodes starting together on an empty database create exactly one.
  virtual std::optional<CreatedAccount> create_first_account(const NewAccount& account) = 0;
  /// The account with its period rolled over if the clock has passed its end.
  virtual std::optional<Account> find_account(std::int64_t account_id) = 0;
  virtual std::vector<Account> list_accounts() = 0;
  /// Adds `credits` (> 0) to the current balance. Throws NotFound for an unknown account.
  virtual Account add_credits(std::int64_t account_id, std::int64_t credits) = 0;

  // API keys.
  /// A new key for an existing account (an account may hold several). Throws NotFound.
  virtual CreatedKey create_key(std::int64_t account_id) = 0;
  virtual std::vector<ApiKeyInfo> list_keys(std::int64_t account_id) = 0;
  /// Keys whose visible prefix starts with `prefix` (for revoking by prefix).
  virtual std::vector<ApiKeyInfo> find_keys_by_prefix(std::string_view prefix) = 0;
  /// Revokes a key; false if there is no such key or it was already revoked.
  virtual bool revoke_key(std::int64_t key_id) = 0;
  /// The account owning `key`, if the key exists and is not revoked. Compares hashes only.
  virtual std::optional<Account> authenticate(std::string_view key) = 0;

  // Credits.
  /// Takes `cost` credits from the balance and holds them for `request_id` (unique per request),
  /// atomically: concurrent reservations, from any number of threads or nodes, never overdraw.
  /// Throws Error(InsufficientCredits) when the balance cannot cover the cost, NotFound for an
  /// unknown account.
  virtual Reservation reserve(std::int64_t account_id, const std::string& endpoint,
                              std::int64_t cost, const std::string& request_id) = 0;
  /// Charges a reservation: one ledger row, exactly once. False if it was already committed or
  /// released (e.g. released after expiring), in which case nothing is charged.
  virtual bool commit(const Reservation& reservation) = 0;
  /// Gives a reservation's credits back, exactly once. False if already committed or released.
  virtual bool release(const Reservation& reservation) = 0;
  /// Releases every reservation whose expiry has passed, whichever node made it. Returns how many.
  /// Run on start and periodically by the service; reserve() also does it for an account that
  /// would otherwise be short.
  virtual int release_expired() = 0;
  /// Releases this node's reservations left over by a previous run of it (crash, kill). Only
  /// the service calls this, once at start, before it takes requests.
  virtual int release_own_reservations() = 0;

  // Usage.
  /// Requests and credits charged per endpoint in the account's current period.
  virtual std::vector<EndpointUsage> usage(std::int64_t account_id) = 0;
  /// Counts one error answered to `account_id` on `route` with `code` (a row per day, route and
  /// code, so a flood of errors adds one row a day, not one a request).
  virtual void count_error(std::int64_t account_id, const std::string& route,
                           const std::string& code) = 0;
  /// Balance, allowance, period end, usage and errors. Throws NotFound for an unknown account.
  virtual AccountView account_view(std::int64_t account_id) = 0;
};

/// Who opens the store: the service (a node that owns reservations) or an admin command.
enum class StoreRole {
  /// Releases this node's leftover reservations and all expired ones on open.
  Node,
  /// Touches no reservation: an admin command may run beside a live node with the same node id.
  Admin,
};

/// Opens (creating and migrating) the store named by configuration entry `store`:
/// `sqlite:<path>` (default `sqlite:<data_dir>/gleaner.db`, `data_dir` defaulting to ./data,
/// created if missing; `sqlite::memory:` for a private in-memory store) or a PostgreSQL
/// connection string (`postgresql://...` or `key=value ...`). Other entries read: `node_id`,
/// `reservation_ttl_seconds`, `store_wait_ms`, `store_pool_size` (see docs/store.md).
/// `clock` must outlive the store. Throws std::invalid_argument for a bad entry and
/// gleaner::Error(Unavailable) when the database cannot be reached.
std::unique_ptr<Store> open_store(const Config& config, const Clock& clock, StoreRole role);

/// The directory whose disk the store fills: the SQLite file's; with PostgreSQL (whose disk is
/// the database server's) or an in-memory SQLite, entry `data_dir` (./data), where the node keeps
/// its other files.
std::string store_directory(const Config& config);

/// Whole seconds since the Unix epoch, as stored.
std::int64_t to_unix_seconds(TimePoint t);
TimePoint from_unix_seconds(std::int64_t seconds);

}  // namespace gleaner::store
