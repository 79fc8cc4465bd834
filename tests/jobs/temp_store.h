#pragma once
// A SQLite store of its own in a temporary directory, with its job tables, for the job tests
// that need a real store but no PostgreSQL. Removed with the object.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/config.h"
#include "jobs/job_store_of.h"
#include "store/store.h"

namespace gleaner::jobs::testing {

/// The wall-clock start of the tests' FakeClocks (2027-01-15T08:00:00Z).
inline const store::TimePoint kStart = store::from_unix_seconds(1'800'000'000);

class TempStore {
 public:
  /// Named after the running test; `clock` must outlive the store.
  explicit TempStore(const Clock& clock)
      : dir_(std::filesystem::temp_directory_path() /
             ("gleaner-jobs-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name())),
        clock_(clock) {
    std::filesystem::create_directories(dir_);
    config.set("store", "sqlite:" + (dir_ / "store.db").string());
    config.set("node_id", "test-node");
    store = store::open_store(config, clock_, store::StoreRole::Node);
    jobs = job_store_of(config, *store, clock_);
  }
  ~TempStore() {
    jobs.reset();
    store.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempStore(const TempStore&) = delete;
  TempStore& operator=(const TempStore&) = delete;

  /// A new account with `credits` per period; returns its id.
  std::int64_t new_account(std::int64_t credits) {
    store::NewAccount a;
    a.name = "acme";
    a.allowance = credits;
    return store->create_account(a).account.id;
  }
  std::int64_t balance(std::int64_t account_id) { return store->find_account(account_id)->balance; }

 private:
  const std::filesystem::path dir_;
  const Clock& clock_;

 public:
  Config config;
  std::unique_ptr<store::Store> store;
  std::shared_ptr<store::JobStore> jobs;
};

}  // namespace gleaner::jobs::testing
