#pragma once
// SQLite behind store/database.h: one connection per process (writes in SQLite are serial
// anyway), WAL journal so readers do not wait for the writer, and write transactions opened
// with BEGIN IMMEDIATE so that several processes on one file never interleave a check and an
// update.
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.h"
#include "store/database.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gleaner::store {

class SqliteDatabase final : public Database {
 public:
  /// When a commit reaches the disk (entry `sqlite_synchronous`, docs/store.md).
  enum class Sync {
    /// Every commit is synced before it returns: nothing committed is lost, even to a power cut.
    Full,
    /// The log is synced at checkpoints only: a commit survives the process's crash or kill, but
    /// the last ones before a power cut or a crash of the machine may be rolled back.
    Normal,
  };
  /// Opens or creates `path` (":memory:" for a private in-memory database). `busy_wait` bounds
  /// how long a statement waits for another process's write lock before failing Unavailable.
  SqliteDatabase(const std::string& path, Millis busy_wait, Sync sync = Sync::Full);
  ~SqliteDatabase() override;
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  const Dialect& dialect() const override { return sqlite_dialect(); }
  /// A read runs alone. Writes are committed in groups: a write that arrives while another group
  /// commits waits, and the next group runs every waiting write in one SQLite transaction, each
  /// in a savepoint of its own, then commits (and syncs) once. Each caller returns once its own
  /// write is committed; a write that throws is rolled back to its savepoint and only its caller
  /// sees the exception; a failed commit fails every write of the group. With `Sync::Full` a
  /// sync costs milliseconds, and eight threads writing at once pay about one instead of eight.
  void transact(TxKind kind, const std::function<void(Transaction&)>& work) override;
  /// Writes waiting for the next group now (tests).
  std::size_t waiting_writes() const;

 private:
  class Tx;
  /// A write waiting for, or in, a group.
  struct Write {
    const std::function<void(Transaction&)>* work;
    std::exception_ptr error;
    bool done = false;
  };
  /// Runs `group` as one transaction (under mutex_) and sets the error of each write that failed.
  void commit_group(const std::vector<Write*>& group);
  sqlite3_stmt* prepare(std::string_view sql);
  void exec(const char* sql);
  /// Runs `sql` (a ROLLBACK, or back to a savepoint) if a transaction is open; logs a failure.
  void rollback(const char* sql);
  [[noreturn]] void fail(int code, std::string_view what);

  std::string path_;
  // Guards the writes waiting for the next group and whether a group is being committed.
  mutable std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::vector<Write*> queue_;
  bool committing_ = false;
  // Held for a whole transaction: guards db_ and statements_ (one connection, one user at a time).
  std::mutex mutex_;
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*, std::less<>> statements_;  ///< prepared once, reused
};

}  // namespace gleaner::store
