#pragma once
// The same tests run against both stores: StoreFixture<SqliteBackend> and
// StoreFixture<PostgresBackend>, each test on a fresh empty database.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/config.h"
#include "core/error.h"
#include "store/sql_store.h"
#include "store/store.h"
#include "tests/store/test_postgres.h"

namespace gleaner::store::testing {

/// A temporary directory removed when the process exits.
const std::filesystem::path& process_temp_dir();

struct SqliteBackend {
  /// `sqlite:<new file>` in this process's temporary directory.
  static std::string new_store_spec();
};

struct PostgresBackend {
  /// A fresh schema on the process's throw-away server.
  static std::string new_store_spec() { return TestPostgres::instance().fresh_database(); }
};

using Backends = ::testing::Types<SqliteBackend, PostgresBackend>;

/// Names typed tests `.../Sqlite` and `.../Postgres` rather than `.../0` and `.../1`.
struct BackendName {
  template <typename T>
  static std::string GetName(int) {
    return std::is_same_v<T, SqliteBackend> ? "Sqlite" : "Postgres";
  }
};

/// Settings every store of the tests gets; `node_id` names the node.
Config store_config(const std::string& spec, const std::string& node_id);

/// The wall-clock start of every test: a fixed moment, moved only by the test.
inline const TimePoint kStart = from_unix_seconds(1'800'000'000);
inline constexpr std::int64_t kTtlSeconds = 360;
inline constexpr std::int64_t kDay = 24 * 60 * 60;

template <typename Backend>
class StoreFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    spec_ = Backend::new_store_spec();
    store_ = open("node-a");
  }

  std::unique_ptr<Store> open(const std::string& node_id, StoreRole role = StoreRole::Node) {
    return open_store(store_config(spec_, node_id), clock_, role);
  }

  /// An account with `allowance` credits per 30-day period; returns its id.
  std::int64_t new_account(std::int64_t allowance, const std::string& name = "acme") {
    NewAccount a;
    a.name = name;
    a.allowance = allowance;
    return store_->create_account(a).account.id;
  }

  std::int64_t balance(std::int64_t account_id) {
    return store_->find_account(account_id)->balance;
  }

  /// Rows of the ledger (all periods) of `account_id`.
  std::int64_t ledger_rows(std::int64_t account_id) {
    return in_transaction(database(), TxKind::Read, [&](Transaction& tx) {
      return tx.run("SELECT COUNT(*) FROM ledger WHERE account_id = ?", {account_id})
          .rows.at(0)
          .integer(0);
    });
  }

  std::int64_t reservations_held() {
    return in_transaction(database(), TxKind::Read, [](Transaction& tx) {
      return tx.run("SELECT COUNT(*) FROM reservations").rows.at(0).integer(0);
    });
  }

  Database& database() { return dynamic_cast<SqlStore&>(*store_).database(); }

  FakeClock clock_{kStart};
  std::string spec_;
  std::unique_ptr<Store> store_;
};

/// Runs `body` and returns the ErrorCode of the gleaner::Error it throws; fails if it throws
/// nothing.
ErrorCode error_code_of(const std::function<void()>& body);

}  // namespace gleaner::store::testing
