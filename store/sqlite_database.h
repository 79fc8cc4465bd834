#pragma once
// SQLite behind store/database.h: one connection per process (writes in SQLite are serial
// anyway), WAL journal so readers do not wait for the writer, and write transactions opened
// with BEGIN IMMEDIATE so that several processes on one file never interleave a check and an
// update.
#include <map>
#include <mutex>
#include <string>

#include "core/clock.h"
#include "store/database.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gleaner::store {

class SqliteDatabase final : public Database {
 public:
  /// Opens or creates `path` (":memory:" for a private in-memory database). `busy_wait` bounds
  /// how long a statement waits for another process's write lock before failing Unavailable.
  SqliteDatabase(const std::string& path, Millis busy_wait);
  ~SqliteDatabase() override;
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  const Dialect& dialect() const override { return sqlite_dialect(); }
  void transact(TxKind kind, const std::function<void(Transaction&)>& work) override;

 private:
  class Tx;
  sqlite3_stmt* prepare(std::string_view sql);
  void exec(const char* sql);
  [[noreturn]] void fail(int code, std::string_view what);

  std::string path_;
  // Held for a whole transaction: guards db_ and statements_ (one connection, one user at a time).
  std::mutex mutex_;
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*, std::less<>> statements_;  ///< prepared once, reused
};

}  // namespace gleaner::store
