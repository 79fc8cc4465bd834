#include "store/sqlite_database.h"

#include <sqlite3.h>

#include <thread>

#include "core/error.h"
#include "core/log.h"

namespace gleaner::store {

class SqliteDatabase::Tx final : public Transaction {
 public:
  explicit Tx(SqliteDatabase& db) : db_(db) {}

  SqlResult run(std::string_view sql, const std::vector<SqlValue>& params) override {
    sqlite3_stmt* stmt = db_.prepare(sql);
    // Reset on every way out so the cached statement holds no lock and no stale binding.
    struct Reset {
      sqlite3_stmt* s;
      ~Reset() {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
      }
    } reset{stmt};
    for (std::size_t i = 0; i < params.size(); ++i) {
      int index = static_cast<int>(i) + 1;
      int rc = SQLITE_OK;
      if (const auto* n = std::get_if<std::int64_t>(&params[i])) {
        rc = sqlite3_bind_int64(stmt, index, *n);
      } else if (const auto* s = std::get_if<std::string>(&params[i])) {
        rc = sqlite3_bind_text(stmt, index, s->data(), static_cast<int>(s->size()),
                               SQLITE_TRANSIENT);
      } else {
        rc = sqlite3_bind_null(stmt, index);
      }
      if (rc != SQLITE_OK) db_.fail(rc, "binding a parameter");
    }
    SqlResult result;
    const int columns = sqlite3_column_count(stmt);
    for (;;) {
      int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) db_.fail(rc, sql);
      std::vector<std::optional<std::string>> cells;
      cells.reserve(static_cast<std::size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
          cells.emplace_back(std::nullopt);
        } else {
          const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          cells.emplace_back(
              std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
        }
      }
      result.rows.emplace_back(std::move(cells));
    }
    result.affected = sqlite3_changes64(db_.db_);
    return result;
  }

  void run_script(std::string_view sql) override { db_.exec(std::string(sql).c_str()); }

 private:
  SqliteDatabase& db_;
};

SqliteDatabase::SqliteDatabase(const std::string& path, Millis busy_wait, Sync sync) : path_(path) {
  int rc =
      sqlite3_open_v2(path.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(ErrorCode::Unavailable, "the store is unavailable",
                "cannot open SQLite database " + path + ": " + why);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, static_cast<int>(busy_wait.count()));
  try {
    exec("PRAGMA foreign_keys = ON");
    // WAL lets readers run beside the one writer; an in-memory database has no journal file.
    // Switching a new database to WAL while another connection does the same can answer
    // SQLITE_BUSY at once, without the busy handler: try again until the busy wait is spent.
    if (path != ":memory:") {
      const Deadline until = deadline_in(busy_wait);
      for (;;) {
        try {
          exec("PRAGMA journal_mode = WAL");
          break;
        } catch (const Error& e) {
          if (e.code() != ErrorCode::Unavailable || SteadyClock::now() >= until) throw;
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
      }
      exec(sync == Sync::Full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
    }
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

SqliteDatabase::~SqliteDatabase() {
  for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
  sqlite3_close(db_);
}

void SqliteDatabase::fail(int code, std::string_view what) {
  std::string detail = "SQLite (" + path_ + ") " + std::string(what) + ": " + sqlite3_errmsg(db_);
  int primary = code & 0xff;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    throw Error(ErrorCode::Unavailable, "the store is busy; try again", detail);
  }
  throw Error(ErrorCode::Internal, "store error", detail);
}

void SqliteDatabase::exec(const char* sql) {
  char* message = nullptr;
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    std::string why = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    fail(rc, why);
  }
}

sqlite3_stmt* SqliteDatabase::prepare(std::string_view sql) {
  if (auto it = statements_.find(sql); it != statements_.end()) return it->second;
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) fail(rc, "preparing " + std::string(sql));
  statements_.emplace(std::string(sql), stmt);
  return stmt;
}

void SqliteDatabase::transact(TxKind kind, const std::function<void(Transaction&)>& work) {
  if (kind == TxKind::Read) {
    std::lock_guard lock(mutex_);
    exec("BEGIN");
    try {
      Tx tx(*this);
      work(tx);
      exec("COMMIT");
    } catch (...) {
      rollback("ROLLBACK");
      throw;
    }
    return;
  }
  Write me{&work, nullptr, false};
  std::unique_lock queue(queue_mutex_);
  queue_.push_back(&me);
  for (;;) {
    queue_cv_.wait(queue, [&] { return me.done || !committing_; });
    if (me.done) break;
    // No group is being committed: this thread commits every write waiting, its own included.
    committing_ = true;
    std::vector<Write*> group;
    group.swap(queue_);
    queue.unlock();
    try {
      commit_group(group);
    } catch (...) {
      // Nothing of the group is known to be committed; committing_ must be cleared either way.
      for (Write* w : group) w->error = std::current_exception();
    }
    queue.lock();
    for (Write* w : group) w->done = true;  // under queue_mutex_: the writers read it there
    committing_ = false;
    queue_cv_.notify_all();  // the group's writers, and a leader for the writes that came since
  }
  if (me.error) std::rethrow_exception(me.error);
}

std::size_t SqliteDatabase::waiting_writes() const {
  std::lock_guard lock(queue_mutex_);
  return queue_.size();
}

void SqliteDatabase::commit_group(const std::vector<Write*>& group) {
  std::lock_guard lock(mutex_);
  auto fail_all = [&](std::exception_ptr error) {
    for (Write* w : group) w->error = error;
  };
  try {
    exec("BEGIN IMMEDIATE");
  } catch (...) {
    fail_all(std::current_exception());
    return;
  }
  std::exception_ptr lost;  // set when SQLite rolled the whole transaction back on its own
  for (Write* w : group) {
    if (lost) {
      w->error = lost;
      continue;
    }
    try {
      exec("SAVEPOINT w");
      Tx tx(*this);
      (*w->work)(tx);
      exec("RELEASE w");
    } catch (...) {
      w->error = std::current_exception();
      // Some errors (I/O, a full disk) make SQLite roll back the whole transaction: the writes
      // before this one are gone too.
      if (sqlite3_get_autocommit(db_) != 0) {
        lost = w->error;
        continue;
      }
      rollback("ROLLBACK TO w; RELEASE w");
    }
  }
  if (lost) {
    fail_all(lost);
    return;
  }
  try {
    exec("COMMIT");
  } catch (...) {
    const std::exception_ptr error = std::current_exception();
    rollback("ROLLBACK");
    fail_all(error);
  }
}

void SqliteDatabase::rollback(const char* sql) {
  // Only while a transaction is open: after some errors (I/O, a full disk) SQLite has rolled
  // back on its own already.
  if (sqlite3_get_autocommit(db_) != 0) return;
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    log::error("store") << "SQLite " << sql << " failed: " << (message ? message : "");
    sqlite3_free(message);
  }
}

}  // namespace gleaner::store
