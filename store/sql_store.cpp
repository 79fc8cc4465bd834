#include "store/sql_store.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "core/error.h"
#include "core/ids.h"
#include "core/log.h"

namespace gleaner::store {
namespace {

constexpr std::int64_t kSecondsPerDay = std::int64_t{24} * 60 * 60;
constexpr std::string_view kKeyPrefix = "gl_";
constexpr std::size_t kKeyRandomBytes = 32;
constexpr std::size_t kVisiblePrefixLength = 11;  // "gl_" and 8 hex digits
constexpr std::string_view kFirstAccountFlag = "first_account";

constexpr std::string_view kAccountColumns =
    "id, name, allowance, period_days, period_start, period_end, balance, concurrency_limit, "
    "created_at";
constexpr std::string_view kKeyColumns = "id, account_id, prefix, created_at, revoked_at";

Account account_from(const Row& row) {
  Account a;
  a.id = row.integer(0);
  a.name = row.text(1);
  a.allowance = row.integer(2);
  a.period_days = row.integer(3);
  a.period_start = from_unix_seconds(row.integer(4));
  a.period_end = from_unix_seconds(row.integer(5));
  a.balance = row.integer(6);
  a.concurrency_limit = row.optional_integer(7);
  a.created_at = from_unix_seconds(row.integer(8));
  return a;
}

ApiKeyInfo key_from(const Row& row) {
  ApiKeyInfo k;
  k.id = row.integer(0);
  k.account_id = row.integer(1);
  k.prefix = row.text(2);
  k.created_at = from_unix_seconds(row.integer(3));
  if (auto revoked = row.optional_integer(4)) k.revoked_at = from_unix_seconds(*revoked);
  return k;
}

std::vector<ApiKeyInfo> keys_from(const SqlResult& result) {
  std::vector<ApiKeyInfo> keys;
  for (const Row& row : result.rows) keys.push_back(key_from(row));
  return keys;
}

std::string select_accounts(std::string_view where) {
  return "SELECT " + std::string(kAccountColumns) + " FROM accounts " + std::string(where);
}

std::string select_keys(std::string_view where) {
  return "SELECT " + std::string(kKeyColumns) + " FROM api_keys " + std::string(where);
}

Error no_account(std::int64_t account_id) {
  return Error(ErrorCode::NotFound, "no account " + std::to_string(account_id));
}

void validate(const NewAccount& account) {
  if (account.name.empty()) throw invalid_parameter("name", "the account needs a name");
  if (account.allowance < 0) {
    throw invalid_parameter("credits", "credits per period must be 0 or more");
  }
  if (account.period_days < 1) {
    throw invalid_parameter("period_days", "a billing period lasts at least one day");
  }
  if (account.concurrency_limit && *account.concurrency_limit < 1) {
    throw invalid_parameter("concurrency", "the concurrency limit must be at least 1");
  }
}

/// Locks the account row until the transaction ends and rolls its period over when `now` has
/// passed the period's end: the balance becomes the allowance minus the credits still held by
/// reservations (they were taken from the old balance and are either charged later, in the new
/// period, or given back to it), and the period moves forward by whole periods.
std::optional<Account> lock_account(Transaction& tx, const Dialect& dialect,
                                    std::int64_t account_id, std::int64_t now) {
  auto rows =
      tx.run(select_accounts("WHERE id = ?") + std::string(dialect.lock_rows), {account_id}).rows;
  if (rows.empty()) return std::nullopt;
  Account a = account_from(rows.front());
  const std::int64_t end = to_unix_seconds(a.period_end);
  if (now < end) return a;

  const std::int64_t length = a.period_days * kSecondsPerDay;
  const std::int64_t periods = (now - end) / length + 1;
  const std::int64_t new_start = end + (periods - 1) * length;
  const std::int64_t new_end = end + periods * length;
  const std::int64_t held =
      tx.run("SELECT COALESCE(SUM(credits), 0) FROM reservations WHERE account_id = ?",
             {account_id})
          .rows.at(0)
          .integer(0);
  // Held credits beyond the allowance (possible only after `credits add`) are not carried over
  // as debt: the new balance is never below zero (the schema forbids it).
  const std::int64_t balance = std::max<std::int64_t>(0, a.allowance - held);
  tx.run("UPDATE accounts SET period_start = ?, period_end = ?, balance = ? WHERE id = ?",
         {new_start, new_end, balance, account_id});
  log::info("store") << "account " << account_id << ": billing period rolled over (" << periods
                     << " period(s)); balance reset to " << balance << " of " << a.allowance;
  a.period_start = from_unix_seconds(new_start);
  a.period_end = from_unix_seconds(new_end);
  a.balance = balance;
  return a;
}

/// Deletes the reservations matching `where` (with `params`) and returns the credits they held.
std::int64_t take_reservations(Transaction& tx, std::string_view where,
                               const std::vector<SqlValue>& params) {
  auto rows =
      tx.run("DELETE FROM reservations WHERE " + std::string(where) + " RETURNING credits", params)
          .rows;
  std::int64_t credits = 0;
  for (const Row& row : rows) credits += row.integer(0);
  return credits;
}

void give_back(Transaction& tx, std::int64_t account_id, std::int64_t credits) {
  tx.run("UPDATE accounts SET balance = balance + ? WHERE id = ?", {credits, account_id});
}

CreatedKey insert_key(Transaction& tx, std::int64_t account_id, std::int64_t now) {
  CreatedKey created;
  created.key = std::string(kKeyPrefix) + random_hex(kKeyRandomBytes);
  created.info.account_id = account_id;
  created.info.prefix = created.key.substr(0, kVisiblePrefixLength);
  created.info.created_at = from_unix_seconds(now);
  // Only the hash is stored: a leaked database does not leak working keys.
  created.info.id = tx.run(
                          "INSERT INTO api_keys (account_id, key_hash, prefix, created_at) "
                          "VALUES (?, ?, ?, ?) RETURNING id",
                          {account_id, sha256_hex(created.key), created.info.prefix, now})
                        .rows.at(0)
                        .integer(0);
  return created;
}

CreatedAccount insert_account(Transaction& tx, const NewAccount& account, std::int64_t now) {
  CreatedAccount created;
  Account& a = created.account;
  a.name = account.name;
  a.allowance = account.allowance;
  a.period_days = account.period_days;
  a.period_start = from_unix_seconds(now);
  a.period_end = from_unix_seconds(now + account.period_days * kSecondsPerDay);
  a.balance = account.allowance;
  a.concurrency_limit = account.concurrency_limit;
  a.created_at = from_unix_seconds(now);
  SqlValue concurrency = nullptr;
  if (account.concurrency_limit) concurrency = *account.concurrency_limit;
  a.id = tx.run(
               "INSERT INTO accounts (name, allowance, period_days, period_start, period_end, "
               "balance, concurrency_limit, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
               "RETURNING id",
               {a.name, a.allowance, a.period_days, now, to_unix_seconds(a.period_end), a.balance,
                concurrency, now})
             .rows.at(0)
             .integer(0);
  created.key = insert_key(tx, a.id, now);
  return created;
}

std::vector<EndpointUsage> usage_in_period(Transaction& tx, const Account& account) {
  auto rows = tx.run(
                    "SELECT endpoint, COUNT(*), COALESCE(SUM(credits), 0) FROM ledger "
                    "WHERE account_id = ? AND charged_at >= ? GROUP BY endpoint",
                    {account.id, to_unix_seconds(account.period_start)})
                  .rows;
  std::vector<EndpointUsage> usage;
  for (const Row& row : rows) usage.push_back({row.text(0), row.integer(1), row.integer(2)});
  // Sorted here, not by ORDER BY: PostgreSQL's collation would order punctuation differently.
  std::sort(usage.begin(), usage.end(),
            [](const EndpointUsage& a, const EndpointUsage& b) { return a.endpoint < b.endpoint; });
  return usage;
}

std::vector<ErrorUsage> errors_in_period(Transaction& tx, const Account& account) {
  // Whole days: an error on the period's first day, before its start hour, is counted too.
  const std::int64_t first_day = to_unix_seconds(account.period_start) / kSecondsPerDay;
  auto rows = tx.run(
                    "SELECT route, code, SUM(requests) FROM request_errors "
                    "WHERE account_id = ? AND day >= ? GROUP BY route, code",
                    {account.id, first_day})
                  .rows;
  std::vector<ErrorUsage> errors;
  for (const Row& row : rows) errors.push_back({row.text(0), row.text(1), row.integer(2)});
  std::sort(errors.begin(), errors.end(), [](const ErrorUsage& a, const ErrorUsage& b) {
    return std::tie(a.route, a.code) < std::tie(b.route, b.code);
  });
  return errors;
}

}  // namespace

std::int64_t to_unix_seconds(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

TimePoint from_unix_seconds(std::int64_t seconds) {
  return TimePoint(std::chrono::seconds(seconds));
}

SqlStore::SqlStore(std::unique_ptr<Database> db, const Clock& clock, SqlStoreSettings settings)
    : db_(std::move(db)), clock_(clock), settings_(std::move(settings)) {}

std::int64_t SqlStore::now() const {
  return to_unix_seconds(clock_.now());
}

CreatedAccount SqlStore::create_account(const NewAccount& account) {
  validate(account);
  const std::int64_t at = now();
  return in_transaction(*db_, TxKind::Write,
                        [&](Transaction& tx) { return insert_account(tx, account, at); });
}

std::optional<CreatedAccount> SqlStore::create_first_account(const NewAccount& account) {
  validate(account);
  const std::int64_t at = now();
  return in_transaction(*db_, TxKind::Write, [&](Transaction& tx) -> std::optional<CreatedAccount> {
    // The flag's primary key makes a second node, even one running this at the same moment,
    // wait for the first and then find the flag set.
    if (tx.run("INSERT INTO store_flags (name, set_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
               {std::string(kFirstAccountFlag), at})
            .affected == 0) {
      return std::nullopt;
    }
    if (tx.run("SELECT COUNT(*) FROM accounts").rows.at(0).integer(0) > 0) return std::nullopt;
    return insert_account(tx, account, at);
  });
}

std::optional<Account> SqlStore::current_account(std::int64_t account_id) {
  const std::int64_t at = now();
  auto found = in_transaction(*db_, TxKind::Read, [&](Transaction& tx) -> std::optional<Account> {
    auto rows = tx.run(select_accounts("WHERE id = ?"), {account_id}).rows;
    if (rows.empty()) return std::nullopt;
    return account_from(rows.front());
  });
  if (!found || at < to_unix_seconds(found->period_end)) return found;
  return in_transaction(*db_, TxKind::Write, [&](Transaction& tx) {
    return lock_account(tx, db_->dialect(), account_id, at);
  });
}

std::optional<Account> SqlStore::find_account(std::int64_t account_id) {
  return current_account(account_id);
}

std::vector<Account> SqlStore::list_accounts() {
  auto ids = in_transaction(*db_, TxKind::Read, [](Transaction& tx) {
    std::vector<std::int64_t> out;
    for (const Row& row : tx.run("SELECT id FROM accounts ORDER BY id").rows) {
      out.push_back(row.integer(0));
    }
    return out;
  });
  std::vector<Account> accounts;
  for (std::int64_t id : ids) {
    if (auto a = current_account(id)) accounts.push_back(std::move(*a));
  }
  return accounts;
}

Account SqlStore::add_credits(std::int64_t account_id, std::int64_t credits) {
  if (credits <= 0) throw invalid_parameter("credits", "credits to add must be more than 0");
  const std::int64_t at = now();
  auto account = in_transaction(*db_, TxKind::Write, [&](Transaction& tx) {
    auto a = lock_account(tx, db_->dialect(), account_id, at);
    if (!a) return a;
    give_back(tx, account_id, credits);
    a->balance += credits;
    return a;
  });
  if (!account) throw no_account(account_id);
  log::info("store") << "account " << account_id << ": added " << credits << " credits";
  return *account;
}

CreatedKey SqlStore::create_key(std::int64_t account_id) {
  const std::int64_t at = now();
  auto created =
      in_transaction(*db_, TxKind::Write, [&](Transaction& tx) -> std::optional<CreatedKey> {
        if (tx.run("SELECT id FROM accounts WHERE id = ?", {account_id}).rows.empty())
          return std::nullopt;
        return insert_key(tx, account_id, at);
      });
  if (!created) throw no_account(account_id);
  return *created;
}

std::vector<ApiKeyInfo> SqlStore::list_keys(std::int64_t account_id) {
  return in_transaction(*db_, TxKind::Read, [&](Transaction& tx) {
    return keys_from(tx.run(select_keys("WHERE account_id = ? ORDER BY id"), {account_id}));
  });
}

std::vector<ApiKeyInfo> SqlStore::find_keys_by_prefix(std::string_view prefix) {
  // Prefixes are lower-case hex after "gl_"; LIKE's wildcards ('_' is one) are escaped.
  std::string pattern;
  for (char c : prefix) {
    if (c == '_' || c == '%' || c == '!') pattern += '!';
    pattern += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  pattern += '%';
  return in_transaction(*db_, TxKind::Read, [&](Transaction& tx) {
    return keys_from(tx.run(select_keys("WHERE prefix LIKE ? ESCAPE '!' ORDER BY id"), {pattern}));
  });
}

bool SqlStore::revoke_key(std::int64_t key_id) {
  const std::int64_t at = now();
  return in_transaction(*db_, TxKind::Write, [&](Transaction& tx) {
    return tx.run("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                  {at, key_id})
               .affected == 1;
  });
}

std::optional<Account> SqlStore::authenticate(std::string_view key) {
  if (key.empty()) return std::nullopt;
  const std::string hash = sha256_hex(key);
  auto owner =
      in_transaction(*db_, TxKind::Read, [&](Transaction& tx) -> std::optional<std::int64_t> {
        auto rows = tx.run(
                          "SELECT account_id, key_hash FROM api_keys "
                          "WHERE key_hash = ? AND revoked_at IS NULL",
                          {hash})
                        .rows;
        // The lookup is by hash (of a key with 256 random bits); the comparison is belt and braces.
        if (rows.empty() || !constant_time_equal(rows.front().text(1), hash)) return std::nullopt;
        return rows.front().integer(0);
      });
  if (!owner) return std::nullopt;
  return current_account(*owner);
}

Reservation SqlStore::reserve(std::int64_t account_id, const std::string& endpoint,
                              std::int64_t cost, const std::string& request_id) {
  if (cost < 0 || request_id.empty() || endpoint.empty()) {
    throw Error(ErrorCode::Internal, "internal error",
                "reserve needs a cost >= 0, an endpoint and a request id (got cost " +
                    std::to_string(cost) + " for '" + endpoint + "', request '" + request_id +
                    "')");
  }
  enum class Outcome { Reserved, NoAccount, Short, Duplicate };
  const std::int64_t at = now();
  const std::int64_t expires = at + settings_.reservation_ttl.count();
  std::int64_t balance = 0;
  const Outcome outcome = in_transaction(*db_, TxKind::Write, [&](Transaction& tx) {
    auto account = lock_account(tx, db_->dialect(), account_id, at);
    if (!account) return Outcome::NoAccount;
    if (tx.run("SELECT (SELECT COUNT(*) FROM reservations WHERE request_id = ?) + "
               "(SELECT COUNT(*) FROM ledger WHERE request_id = ?)",
               {request_id, request_id})
            .rows.at(0)
            .integer(0) > 0) {
      return Outcome::Duplicate;
    }
    balance = account->balance;
    if (balance < cost) {
      // Credits held by requests presumed dead are this account's again before it is refused.
      const std::int64_t freed =
          take_reservations(tx, "account_id = ? AND expires_at <= ?", {account_id, at});
      if (freed > 0) {
        give_back(tx, account_id, freed);
        balance += freed;
        log::warn("store") << "account " << account_id << ": released " << freed
                           << " credits of expired reservations";
      }
      if (balance < cost) return Outcome::Short;
    }
    // The row is locked, so this cannot fail; the condition restates the invariant.
    if (tx.run("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?",
               {cost, account_id, cost})
            .affected != 1) {
      throw Error(ErrorCode::Internal, "internal error",
                  "account " + std::to_string(account_id) + " changed under its row lock");
    }
    tx.run(
        "INSERT INTO reservations (request_id, account_id, endpoint, credits, node_id, "
        "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        {request_id, account_id, endpoint, cost, settings_.node_id, at, expires});
    balance -= cost;
    return Outcome::Reserved;
  });
  switch (outcome) {
    case Outcome::Reserved:
      return Reservation{request_id, account_id, endpoint, cost, from_unix_seconds(expires)};
    case Outcome::NoAccount: throw no_account(account_id);
    case Outcome::Duplicate:
      throw Error(ErrorCode::Internal, "internal error",
                  "request id " + request_id + " was already reserved or charged");
    case Outcome::Short: break;
  }
  throw Error(ErrorCode::InsufficientCredits, "this request costs " + std::to_string(cost) +
                                                  " credits; balance is " +
                                                  std::to_string(balance));
}

bool SqlStore::commit(const Reservation& reservation) {
  const std::int64_t at = now();
  const bool charged = in_transaction(*db_, TxKind::Write, [&](Transaction& tx) {
    // Locked (and rolled over) first, so a charge lands in the period its balance was reset for.
    if (!lock_account(tx, db_->dialect(), reservation.account_id, at)) return false;
    auto held = tx.run(
                      "DELETE FROM reservations WHERE request_id = ? AND account_id = ? "
                      "RETURNING endpoint, credits",
                      {reservation.request_id, reservation.account_id})
                    .rows;
    if (held.empty()) return false;
    tx.run(
        "INSERT INTO ledger (request_id, account_id, endpoint, credits, charged_at) "
        "VALUES (?, ?, ?, ?, ?)",
        {reservation.request_id, reservation.account_id, held.front().text(0),
         held.front().integer(1), at});
    return true;
  });
  if (!charged) {
    log::warn("store") << "request " << reservation.request_id
                       << ": its reservation was no longer held (committed, released or expired); "
                          "not charged";
  }
  return charged;
}

bool SqlStore::release(const Reservation& reservation) {
  const std::int64_t at = now();
  return in_transaction(*db_, TxKind::Write, [&](Transaction& tx) {
    if (!lock_account(tx, db_->dialect(), reservation.account_id, at)) return false;
    auto deleted = tx.run(
                         "DELETE FROM reservations WHERE request_id = ? AND account_id = ? "
                         "RETURNING credits",
                         {reservation.request_id, reservation.account_id})
                       .rows;
    if (deleted.empty()) return false;
    give_back(tx, reservation.account_id, deleted.front().integer(0));
    return true;
  });
}

int SqlStore::release_listed(std::string_view select_sql, const SqlValue& param) {
  auto listed = in_transaction(*db_, TxKind::Read, [&](Transaction& tx) {
    std::vector<Reservation> out;
    for (const Row& row : tx.run(select_sql, {param}).rows) {
      Reservation r;
      r.request_id = row.text(0);
      r.account_id = row.integer(1);
      out.push_back(std::move(r));
    }
    return out;
  });
  // One transaction each, locking accounts one at a time like every other operation does.
  int released = 0;
  for (const Reservation& r : listed) released += release(r) ? 1 : 0;
  return released;
}

int SqlStore::release_expired() {
  int released = release_listed(
      "SELECT request_id, account_id FROM reservations WHERE expires_at <= ?", now());
  if (released > 0) log::warn("store") << "released " << released << " expired reservation(s)";
  return released;
}

int SqlStore::release_own_reservations() {
  int released = release_listed("SELECT request_id, account_id FROM reservations WHERE node_id = ?",
                                settings_.node_id);
  if (released > 0) {
    log::warn("store") << "released " << released << " reservation(s) left over by an earlier run "
                       << "of node " << settings_.node_id;
  }
  return released;
}

std::vector<EndpointUsage> SqlStore::usage(std::int64_t account_id) {
  return account_view(account_id).usage;
}

void SqlStore::count_error(std::int64_t account_id, const std::string& route,
                           const std::string& code) {
  const std::int64_t day = now() / kSecondsPerDay;
  in_transaction(*db_, TxKind::Write, [&](Transaction& tx) {
    tx.run(
        "INSERT INTO request_errors (account_id, day, route, code, requests) VALUES (?, ?, ?, ?, "
        "1) "
        "ON CONFLICT (account_id, day, route, code) "
        "DO UPDATE SET requests = request_errors.requests + 1",
        {account_id, day, route, code});
  });
}

AccountView SqlStore::account_view(std::int64_t account_id) {
  auto account = current_account(account_id);
  if (!account) throw no_account(account_id);
  AccountView view;
  in_transaction(*db_, TxKind::Read, [&](Transaction& tx) {
    view.usage = usage_in_period(tx, *account);
    view.errors = errors_in_period(tx, *account);
  });
  view.account = std::move(*account);
  return view;
}

}  // namespace gleaner::store
