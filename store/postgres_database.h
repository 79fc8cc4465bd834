#pragma once
// PostgreSQL (libpq) behind store/database.h: a small pool of connections, each transaction on
// one leased connection. Every connection has a statement timeout, so no query waits forever on
// a lock held by a stuck node; deadlocks and serialization failures are retried.
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.h"
#include "store/database.h"

struct pg_conn;

namespace gleaner::store {

class PostgresDatabase final : public Database {
 public:
  /// `conninfo`: a libpq connection string or URI (may hold a password: never logged).
  /// `wait` bounds connecting, waiting for a pooled connection and each statement.
  /// Connects once right away, so a wrong connection string fails at start.
  PostgresDatabase(std::string conninfo, std::size_t pool_size, Millis wait);
  ~PostgresDatabase() override;
  PostgresDatabase(const PostgresDatabase&) = delete;
  PostgresDatabase& operator=(const PostgresDatabase&) = delete;

  const Dialect& dialect() const override { return postgres_dialect(); }
  void transact(TxKind kind, const std::function<void(Transaction&)>& work) override;

 private:
  class Tx;
  pg_conn* connect();
  pg_conn* lease();
  void give_back(pg_conn* conn);

  const std::string conninfo_;
  const std::size_t pool_size_;
  const Millis wait_;
  std::mutex mutex_;  // guards idle_ and open_
  std::condition_variable returned_;
  std::vector<pg_conn*> idle_;
  std::size_t open_ = 0;  ///< connections in existence, idle or leased
};

}  // namespace gleaner::store
