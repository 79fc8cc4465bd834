#pragma once
// The Store over any Database (SQLite or PostgreSQL): the whole credit protocol lives here, once,
// in SQL both databases run. Every operation that changes an account's balance first locks the
// account row and rolls its billing period over if the clock has passed its end, so balance,
// reservations and ledger always move together in one transaction.
#include <chrono>
#include <memory>
#include <string>

#include "core/clock.h"
#include "store/database.h"
#include "store/store.h"

namespace gleaner::store {

struct SqlStoreSettings {
  /// Names this node's reservations, so that it can release its leftovers after a crash.
  std::string node_id;
  /// A reservation older than this is presumed dead and released by any node: the longest a
  /// request may run (300 s) plus a margin.
  std::chrono::seconds reservation_ttl{360};
};

class SqlStore final : public Store {
 public:
  /// `db` must be migrated already (see apply_migrations). `clock` must outlive the store.
  SqlStore(std::unique_ptr<Database> db, const Clock& clock, SqlStoreSettings settings);

  CreatedAccount create_account(const NewAccount& account) override;
  std::optional<CreatedAccount> create_first_account(const NewAccount& account) override;
  std::optional<Account> find_account(std::int64_t account_id) override;
  std::vector<Account> list_accounts() override;
  Account add_credits(std::int64_t account_id, std::int64_t credits) override;

  CreatedKey create_key(std::int64_t account_id) override;
  std::vector<ApiKeyInfo> list_keys(std::int64_t account_id) override;
  std::vector<ApiKeyInfo> find_keys_by_prefix(std::string_view prefix) override;
  bool revoke_key(std::int64_t key_id) override;
  std::optional<Account> authenticate(std::string_view key) override;

  Reservation reserve(std::int64_t account_id, const std::string& endpoint, std::int64_t cost,
                      const std::string& request_id) override;
  bool commit(const Reservation& reservation) override;
  bool release(const Reservation& reservation) override;
  int release_expired() override;
  int release_own_reservations() override;

  std::vector<EndpointUsage> usage(std::int64_t account_id) override;
  void count_error(std::int64_t account_id, const std::string& route,
                   const std::string& code) override;
  AccountView account_view(std::int64_t account_id) override;

  /// The database underneath (tests inspect tables through it).
  Database& database() { return *db_; }

 private:
  std::int64_t now() const;
  /// Reads the account, rolling its period over when due; a write transaction only then.
  std::optional<Account> current_account(std::int64_t account_id);
  /// Releases the reservations `select_sql` (one parameter) lists, each in its own transaction.
  int release_listed(std::string_view select_sql, const SqlValue& param);

  std::unique_ptr<Database> db_;
  const Clock& clock_;
  const SqlStoreSettings settings_;
};

}  // namespace gleaner::store
