#pragma once
// The seam under the SQL databases: the store's logic (store/sql_store.cpp) runs the same SQL
// on SQLite and PostgreSQL through this interface. SQL is written once with `?` placeholders;
// the few places where the dialects differ are named in Dialect.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace gleaner::store {

/// A bound parameter: NULL, a whole number or text.
using SqlValue = std::variant<std::nullptr_t, std::int64_t, std::string>;

/// One result row. Cells arrive as text (both databases render numbers in decimal).
class Row {
 public:
  explicit Row(std::vector<std::optional<std::string>> cells) : cells_(std::move(cells)) {}
  bool is_null(std::size_t column) const { return !cells_.at(column).has_value(); }
  /// The cell as a whole number; throws Error(Internal) on NULL or non-numeric text.
  std::int64_t integer(std::size_t column) const;
  std::optional<std::int64_t> optional_integer(std::size_t column) const;
  /// The cell as text; throws Error(Internal) on NULL.
  const std::string& text(std::size_t column) const;

 private:
  std::vector<std::optional<std::string>> cells_;
};

struct SqlResult {
  std::vector<Row> rows;
  std::int64_t affected = 0;  ///< rows changed by INSERT/UPDATE/DELETE
};

/// Where SQLite and PostgreSQL differ; everything else is shared SQL.
struct Dialect {
  std::string_view name;  ///< "sqlite" or "postgresql"
  /// Replaces `{{id}}` in migrations: an auto-assigned 64-bit primary key.
  std::string_view identity_column;
  /// Appended to a SELECT that must lock the rows it reads until the transaction ends.
  /// SQLite needs none: a write transaction (BEGIN IMMEDIATE) already excludes other writers.
  std::string_view lock_rows;
  /// Run first in the migration transaction so that nodes starting together migrate one at a
  /// time (SQLite's write transaction is exclusive already).
  std::string_view migration_lock;
};

const Dialect& sqlite_dialect();
const Dialect& postgres_dialect();

/// Statements of one open transaction.
class Transaction {
 public:
  virtual ~Transaction() = default;
  /// Runs one statement with `?` placeholders bound to `params` in order.
  virtual SqlResult run(std::string_view sql, const std::vector<SqlValue>& params = {}) = 0;
  /// Runs several statements without parameters (migrations).
  virtual void run_script(std::string_view sql) = 0;
};

enum class TxKind {
  Read,
  /// Takes the write lock up front, so the check-then-update inside cannot interleave with
  /// another writer (SQLite BEGIN IMMEDIATE; on PostgreSQL rows are locked by `lock_rows`).
  Write,
};

/// A database connection (or pool of them). Errors surface as gleaner::Error: Unavailable when
/// the database cannot be reached or stays busy past the configured wait, Internal otherwise.
class Database {
 public:
  virtual ~Database() = default;
  virtual const Dialect& dialect() const = 0;
  /// Runs `work` in one transaction: committed when it returns, rolled back when it throws.
  /// `work` may run more than once (PostgreSQL retries deadlocks and serialization failures),
  /// so it must only act on the database and on values it overwrites.
  virtual void transact(TxKind kind, const std::function<void(Transaction&)>& work) = 0;
};

/// `transact` for work that returns a value.
template <typename Work>
auto in_transaction(Database& db, TxKind kind, Work&& work)
    -> std::invoke_result_t<Work&, Transaction&> {
  using Result = std::invoke_result_t<Work&, Transaction&>;
  if constexpr (std::is_void_v<Result>) {
    db.transact(kind, work);
  } else {
    std::optional<Result> result;
    db.transact(kind, [&](Transaction& tx) { result = work(tx); });
    return std::move(*result);
  }
}

/// `sql` with `?` placeholders numbered `$1`, `$2`, ... (PostgreSQL), skipping quoted text.
std::string number_placeholders(std::string_view sql);

}  // namespace gleaner::store
