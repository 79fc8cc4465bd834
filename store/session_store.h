#pragma once
// Where the nodes note the browser sessions they hold (docs/sessions.md). A session's browser
// context lives in one node's memory; this book, on the store every node shares, is what makes
// its id mean the same everywhere: a request for it that reaches another node (or this node after
// a restart) learns that the session exists and is not here, and answers 409 session_lost rather
// than opening a fresh context under the same name. It also counts an account's open sessions
// across nodes (the per-account limit) and lists them.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "store/database.h"
#include "store/store.h"

namespace gleaner::store {

/// One session as noted.
struct SessionRecord {
  std::string id;
  /// The node holding its browser context (entry `node_id`).
  std::string node;
  TimePoint created_at;
  TimePoint last_used_at;
  /// last_used_at + its idle TTL: after this the session is over wherever it was.
  TimePoint expires_at;
  std::int64_t requests = 0;
  /// The country of its upstream proxy; none when it goes out directly.
  std::optional<std::string> proxy_country;
};

class SessionBook {
 public:
  virtual ~SessionBook() = default;
  enum class Claim {
    Claimed,  ///< noted: the session is the caller's node's
    Held,     ///< an unexpired session of that id is noted already (`holder` says where)
    TooMany,  ///< the account has `limit` unexpired sessions already
  };
  struct ClaimResult {
    Claim outcome = Claim::Claimed;
    std::string holder;
  };
  /// Notes a new session `id` of `account` held by `node`, unless one of that id is noted and
  /// unexpired, or the account has `limit` unexpired sessions. Expired notes of the account go.
  virtual ClaimResult claim(std::int64_t account, const std::string& id, const std::string& node,
                            std::chrono::seconds ttl,
                            const std::optional<std::string>& proxy_country, int limit) = 0;
  /// One more request in the session: last used now, expiring `ttl` from now.
  virtual void touch(std::int64_t account, const std::string& id, const std::string& node,
                     std::chrono::seconds ttl) = 0;
  /// The session is over (only `node`'s note of it goes).
  virtual void remove(std::int64_t account, const std::string& id, const std::string& node) = 0;
  /// The account's unexpired sessions, by id.
  virtual std::vector<SessionRecord> list(std::int64_t account) = 0;
  /// The unexpired note of session `id` of `account`, if any.
  virtual std::optional<SessionRecord> find(std::int64_t account, const std::string& id) = 0;
};

/// The book on the store's database (table browser_sessions, migration 8).
class SqlSessionBook final : public SessionBook {
 public:
  /// `db` and `clock` must outlive the book.
  SqlSessionBook(Database& db, const Clock& clock) : db_(db), clock_(clock) {}
  ClaimResult claim(std::int64_t account, const std::string& id, const std::string& node,
                    std::chrono::seconds ttl, const std::optional<std::string>& proxy_country,
                    int limit) override;
  void touch(std::int64_t account, const std::string& id, const std::string& node,
             std::chrono::seconds ttl) override;
  void remove(std::int64_t account, const std::string& id, const std::string& node) override;
  std::vector<SessionRecord> list(std::int64_t account) override;
  std::optional<SessionRecord> find(std::int64_t account, const std::string& id) override;

 private:
  std::int64_t now() const { return to_unix_seconds(clock_.now()); }

  Database& db_;
  const Clock& clock_;
};

}  // namespace gleaner::store
