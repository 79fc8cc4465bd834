#include "store/postgres_database.h"

#include <libpq-fe.h>

#include <memory>

#include "core/error.h"
#include "core/log.h"

namespace gleaner::store {
namespace {

constexpr int kMaxAttempts = 5;  // for transactions aborted by a deadlock or serialization failure
constexpr Oid kInt8Oid = 20;
constexpr Oid kTextOid = 25;

/// A transaction the database aborted only because of a concurrent one: safe to run again.
struct RetryableConflict {
  std::string detail;
};

using ResultPtr = std::unique_ptr<PGresult, decltype(&PQclear)>;

std::string first_line(const char* message) {
  std::string s = message ? message : "";
  if (auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
  return s;
}

/// Throws the error a failed result stands for; returns the result otherwise.
ResultPtr checked(PGconn* conn, PGresult* raw, std::string_view what) {
  ResultPtr result(raw, &PQclear);
  ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
  std::string state;
  if (result) {
    if (const char* s = PQresultErrorField(result.get(), PG_DIAG_SQLSTATE)) state = s;
  }
  std::string detail =
      "PostgreSQL " + std::string(what) + ": " +
      first_line(result ? PQresultErrorMessage(result.get()) : PQerrorMessage(conn)) +
      (state.empty() ? "" : " (SQLSTATE " + state + ")");
  // 40001 serialization_failure, 40P01 deadlock_detected.
  if (state == "40001" || state == "40P01") throw RetryableConflict{detail};
  // 57014 query_canceled (our statement timeout), 55P03 lock_not_available, 08* connection
  // exceptions, 57P* server shutting down: the database is there but not answering in time.
  if (PQstatus(conn) != CONNECTION_OK || state == "57014" || state == "55P03" ||
      state.rfind("08", 0) == 0 || state.rfind("57P", 0) == 0) {
    throw Error(ErrorCode::Unavailable, "the store is unavailable; try again", detail);
  }
  throw Error(ErrorCode::Internal, "store error", detail);
}

/// Ends a failed transaction; its outcome does not matter (give_back drops a broken connection).
void rollback(PGconn* conn) {
  PQclear(PQexec(conn, "ROLLBACK"));
}

void discard_notice(void*, const char* message) {
  log::debug("store") << "PostgreSQL: " << first_line(message);
}

}  // namespace

class PostgresDatabase::Tx final : public Transaction {
 public:
  explicit Tx(PGconn* conn) : conn_(conn) {}

  SqlResult run(std::string_view sql, const std::vector<SqlValue>& params) override {
    std::vector<Oid> types;
    std::vector<std::string> texts;
    std::vector<const char*> values;
    types.reserve(params.size());
    texts.reserve(params.size());
    for (const auto& p : params) {
      if (const auto* n = std::get_if<std::int64_t>(&p)) {
        types.push_back(kInt8Oid);
        texts.push_back(std::to_string(*n));
      } else if (const auto* s = std::get_if<std::string>(&p)) {
        types.push_back(kTextOid);
        texts.push_back(*s);
      } else {
        types.push_back(0);
        texts.emplace_back();
      }
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      values.push_back(std::holds_alternative<std::nullptr_t>(params[i]) ? nullptr
                                                                         : texts[i].c_str());
    }
    const std::string numbered = number_placeholders(sql);
    ResultPtr result =
        checked(conn_,
                PQexecParams(conn_, numbered.c_str(), static_cast<int>(params.size()), types.data(),
                             values.data(), nullptr, nullptr, 0),
                sql);
    SqlResult out;
    const int rows = PQntuples(result.get());
    const int columns = PQnfields(result.get());
    out.rows.reserve(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r) {
      std::vector<std::optional<std::string>> cells;
      cells.reserve(static_cast<std::size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(result.get(), r, c)) {
          cells.emplace_back(std::nullopt);
        } else {
          cells.emplace_back(
              std::string(PQgetvalue(result.get(), r, c),
                          static_cast<std::size_t>(PQgetlength(result.get(), r, c))));
        }
      }
      out.rows.emplace_back(std::move(cells));
    }
    const char* affected = PQcmdTuples(result.get());
    out.affected = (affected && *affected) ? std::stoll(affected) : 0;
    return out;
  }

  void run_script(std::string_view sql) override {
    checked(conn_, PQexec(conn_, std::string(sql).c_str()), "script");
  }

 private:
  PGconn* conn_;
};

PostgresDatabase::PostgresDatabase(std::string conninfo, std::size_t pool_size, Millis wait)
    : conninfo_(std::move(conninfo)), pool_size_(pool_size == 0 ? 1 : pool_size), wait_(wait) {
  PGconn* first = connect();
  std::lock_guard lock(mutex_);
  idle_.push_back(first);
  open_ = 1;
}

PostgresDatabase::~PostgresDatabase() {
  std::lock_guard lock(mutex_);
  for (PGconn* conn : idle_) PQfinish(conn);
}

PGconn* PostgresDatabase::connect() {
  // The user's string comes last (expand_dbname) so that anything it sets wins over our default.
  const std::string timeout = std::to_string(std::max<long long>(1, (wait_.count() + 999) / 1000));
  const char* keywords[] = {"connect_timeout", "application_name", "dbname", nullptr};
  const char* values[] = {timeout.c_str(), "gleaner", conninfo_.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (!conn || PQstatus(conn) != CONNECTION_OK) {
    std::string why = conn ? first_line(PQerrorMessage(conn)) : "out of memory";
    PQfinish(conn);
    throw Error(ErrorCode::Unavailable, "the store is unavailable; try again",
                "cannot connect to PostgreSQL: " + why);
  }
  PQsetNoticeProcessor(conn, &discard_notice, nullptr);
  try {
    // Bounds every statement, lock waits included, so no request hangs on a stuck node's lock.
    checked(conn,
            PQexec(conn, ("SET statement_timeout = " + std::to_string(wait_.count())).c_str()),
            "SET statement_timeout");
  } catch (...) {
    PQfinish(conn);
    throw;
  }
  return conn;
}

PGconn* PostgresDatabase::lease() {
  std::unique_lock lock(mutex_);
  const Deadline deadline = deadline_in(wait_);
  while (idle_.empty() && open_ >= pool_size_) {
    if (returned_.wait_until(lock, deadline) == std::cv_status::timeout && idle_.empty() &&
        open_ >= pool_size_) {
      throw Error(ErrorCode::Unavailable, "the store is busy; try again",
                  "no PostgreSQL connection free within " + std::to_string(wait_.count()) + " ms");
    }
  }
  if (!idle_.empty()) {
    PGconn* conn = idle_.back();
    idle_.pop_back();
    return conn;
  }
  ++open_;  // reserve the slot, then connect without holding the lock
  lock.unlock();
  try {
    return connect();
  } catch (...) {
    lock.lock();
    --open_;
    returned_.notify_one();
    throw;
  }
}

void PostgresDatabase::give_back(PGconn* conn) {
  // A broken connection, or one still inside a transaction (a failed ROLLBACK), is not reused.
  const bool reusable =
      PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE;
  if (!reusable) PQfinish(conn);
  std::lock_guard lock(mutex_);
  if (reusable) {
    idle_.push_back(conn);
  } else {
    --open_;
  }
  returned_.notify_one();
}

void PostgresDatabase::transact(TxKind kind, const std::function<void(Transaction&)>& work) {
  for (int attempt = 1;; ++attempt) {
    PGconn* conn = lease();
    try {
      Tx tx(conn);
      tx.run(kind == TxKind::Write ? "BEGIN" : "BEGIN READ ONLY", {});
      work(tx);
      tx.run("COMMIT", {});
      give_back(conn);
      return;
    } catch (const RetryableConflict& conflict) {
      rollback(conn);
      give_back(conn);
      if (attempt == kMaxAttempts) {
        throw Error(ErrorCode::Unavailable, "the store is busy; try again", conflict.detail);
      }
      log::debug("store") << "retrying after a conflict: " << conflict.detail;
    } catch (...) {
      if (PQstatus(conn) == CONNECTION_OK) rollback(conn);
      give_back(conn);
      throw;
    }
  }
}

}  // namespace gleaner::store
