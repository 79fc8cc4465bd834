#include "store/session_store.h"

namespace gleaner::store {
namespace {

constexpr std::string_view kColumns =
    "session_id, node_id, created_at, last_used_at, expires_at, requests, proxy_country";

SessionRecord record_of(const Row& row) {
  SessionRecord r;
  r.id = row.text(0);
  r.node = row.text(1);
  r.created_at = from_unix_seconds(row.integer(2));
  r.last_used_at = from_unix_seconds(row.integer(3));
  r.expires_at = from_unix_seconds(row.integer(4));
  r.requests = row.integer(5);
  if (!row.is_null(6)) r.proxy_country = row.text(6);
  return r;
}

}  // namespace

SessionBook::ClaimResult SqlSessionBook::claim(std::int64_t account, const std::string& id,
                                               const std::string& node, std::chrono::seconds ttl,
                                               const std::optional<std::string>& proxy_country,
                                               int limit) {
  const std::int64_t t = now();
  return in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    // The account's row locked first: claims of one account on several nodes count one after
    // another, so two never both see room for one more (SQLite's write lock does it already).
    tx.run("SELECT id FROM accounts WHERE id = ?" + std::string(db_.dialect().lock_rows),
           {account});
    tx.run("DELETE FROM browser_sessions WHERE account_id = ? AND expires_at <= ?", {account, t});
    auto held =
        tx.run("SELECT node_id FROM browser_sessions WHERE account_id = ? AND session_id = ?" +
                   std::string(db_.dialect().lock_rows),
               {account, id});
    if (!held.rows.empty()) return ClaimResult{Claim::Held, held.rows.front().text(0)};
    auto open = tx.run("SELECT COUNT(*) FROM browser_sessions WHERE account_id = ?", {account});
    if (open.rows.front().integer(0) >= limit) return ClaimResult{Claim::TooMany, {}};
    // Two nodes claiming the same new id at once: one row wins, the other hears who holds it.
    const auto inserted = tx.run(
        "INSERT INTO browser_sessions (account_id, session_id, node_id, created_at, "
        "last_used_at, expires_at, requests, proxy_country) VALUES (?, ?, ?, ?, ?, ?, 0, ?) "
        "ON CONFLICT DO NOTHING",
        {account, id, node, t, t, t + ttl.count(),
         proxy_country ? SqlValue(*proxy_country) : SqlValue(nullptr)});
    if (inserted.affected == 0) {
      held = tx.run("SELECT node_id FROM browser_sessions WHERE account_id = ? AND session_id = ?",
                    {account, id});
      return ClaimResult{Claim::Held,
                         held.rows.empty() ? std::string() : held.rows.front().text(0)};
    }
    return ClaimResult{Claim::Claimed, node};
  });
}

void SqlSessionBook::touch(std::int64_t account, const std::string& id, const std::string& node,
                           std::chrono::seconds ttl) {
  const std::int64_t t = now();
  in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    tx.run(
        "UPDATE browser_sessions SET last_used_at = ?, expires_at = ?, requests = requests + 1 "
        "WHERE account_id = ? AND session_id = ? AND node_id = ?",
        {t, t + ttl.count(), account, id, node});
  });
}

void SqlSessionBook::remove(std::int64_t account, const std::string& id, const std::string& node) {
  in_transaction(db_, TxKind::Write, [&](Transaction& tx) {
    tx.run("DELETE FROM browser_sessions WHERE account_id = ? AND session_id = ? AND node_id = ?",
           {account, id, node});
  });
}

std::vector<SessionRecord> SqlSessionBook::list(std::int64_t account) {
  const std::int64_t t = now();
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) {
    std::vector<SessionRecord> out;
    for (const Row& row : tx.run("SELECT " + std::string(kColumns) +
                                     " FROM browser_sessions WHERE account_id = ? AND "
                                     "expires_at > ? ORDER BY session_id",
                                 {account, t})
                              .rows) {
      out.push_back(record_of(row));
    }
    return out;
  });
}

std::optional<SessionRecord> SqlSessionBook::find(std::int64_t account, const std::string& id) {
  const std::int64_t t = now();
  return in_transaction(db_, TxKind::Read, [&](Transaction& tx) -> std::optional<SessionRecord> {
    auto result = tx.run("SELECT " + std::string(kColumns) +
                             " FROM browser_sessions WHERE account_id = ? AND session_id = ? AND "
                             "expires_at > ?",
                         {account, id, t});
    if (result.rows.empty()) return std::nullopt;
    return record_of(result.rows.front());
  });
}

}  // namespace gleaner::store
