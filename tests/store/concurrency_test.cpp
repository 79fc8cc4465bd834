// Many requests of one account at once, several nodes on one database, and nodes that crash
// while holding credits. On both stores.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <latch>
#include <mutex>
#include <thread>
#include <vector>

#include "store/migrations.h"
#include "tests/store/store_fixture.h"

namespace gleaner::store::testing {
namespace {

template <typename Backend>
class ConcurrencyTest : public StoreFixture<Backend> {
 protected:
  struct Outcome {
    int charged = 0;
    int refused = 0;
    std::vector<std::string> unexpected;  ///< anything but success or InsufficientCredits
    std::int64_t lowest_balance_seen = 0;
  };

  /// `requests` threads released together, thread i on stores[i % stores.size()]: each reserves
  /// `cost` credits and commits on success. Meanwhile an observer keeps reading the balance.
  Outcome run_requests(std::int64_t account_id, int requests, std::int64_t cost,
                       const std::vector<Store*>& stores) {
    Outcome outcome;
    std::mutex mutex;  // guards outcome.charged, outcome.refused, outcome.unexpected
    std::atomic<bool> done{false};
    std::atomic<std::int64_t> lowest{this->balance(account_id)};
    std::latch start(requests + 1);
    std::vector<std::thread> threads;
    std::thread observer([&] {
      start.arrive_and_wait();
      while (!done) {
        std::int64_t seen = stores.front()->find_account(account_id)->balance;
        std::int64_t low = lowest.load();
        while (seen < low && !lowest.compare_exchange_weak(low, seen)) {
        }
      }
    });
    for (int i = 0; i < requests; ++i) {
      threads.emplace_back([&, i] {
        Store& store = *stores[static_cast<std::size_t>(i) % stores.size()];
        start.arrive_and_wait();
        try {
          Reservation r =
              store.reserve(account_id, "search/serp", cost, "req-" + std::to_string(i));
          bool committed = store.commit(r);
          std::lock_guard lock(mutex);
          if (committed) {
            ++outcome.charged;
          } else {
            outcome.unexpected.push_back("commit of req-" + std::to_string(i) + " returned false");
          }
        } catch (const Error& e) {
          std::lock_guard lock(mutex);
          if (e.code() == ErrorCode::InsufficientCredits) {
            ++outcome.refused;
          } else {
            outcome.unexpected.push_back(std::string(e.what()) + ": " + e.detail());
          }
        }
      });
    }
    for (auto& t : threads) t.join();
    done = true;
    observer.join();
    outcome.lowest_balance_seen = lowest;
    return outcome;
  }

  void expect_exactly_twenty_of_fifty(const Outcome& outcome, std::int64_t id) {
    EXPECT_TRUE(outcome.unexpected.empty()) << ::testing::PrintToString(outcome.unexpected);
    EXPECT_EQ(outcome.charged, 20);
    EXPECT_EQ(outcome.refused, 30);
    EXPECT_GE(outcome.lowest_balance_seen, 0);
    EXPECT_EQ(this->balance(id), 0);
    EXPECT_EQ(this->ledger_rows(id), 20);
    EXPECT_EQ(this->reservations_held(), 0);
    auto usage = this->store_->usage(id);
    ASSERT_EQ(usage.size(), 1u);
    EXPECT_EQ(usage[0].requests, 20);
    EXPECT_EQ(usage[0].credits, 200);
  }

  /// Runs `body` in a forked child that then dies at once (_exit: no destructor, no release),
  /// like a node killed mid-request. Returns the child's exit code.
  int in_crashing_child(const std::function<void()>& body) {
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      int code = 0;
      try {
        body();
      } catch (...) {
        code = 3;
      }
      _exit(code);
    }
    int status = wait_exit(pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};
TYPED_TEST_SUITE(ConcurrencyTest, Backends, BackendName);

TYPED_TEST(ConcurrencyTest, FiftyRequestsWithCreditsForTwentyChargeExactlyTwenty) {
  auto id = this->new_account(200);
  auto outcome = this->run_requests(id, 50, 10, {this->store_.get()});
  this->expect_exactly_twenty_of_fifty(outcome, id);
}

TYPED_TEST(ConcurrencyTest, TwoNodesOnOneDatabaseNeverOverdraw) {
  auto id = this->new_account(200);
  auto node_b = this->open("node-b");
  auto outcome = this->run_requests(id, 50, 10, {this->store_.get(), node_b.get()});
  this->expect_exactly_twenty_of_fifty(outcome, id);
}

TYPED_TEST(ConcurrencyTest, ACrashedNodeLosesNoCreditAndChargesNoUnfinishedRequest) {
  auto id = this->new_account(100);
  const std::string spec = this->spec_;
  FakeClock& clock = this->clock_;
  int code = this->in_crashing_child([&] {
    auto node = open_store(store_config(spec, "node-crashing"), clock, StoreRole::Node);
    node->commit(node->reserve(id, "search/serp", 10, "finished"));
    node->reserve(id, "search/serp", 10, "unfinished-1");
    node->reserve(id, "web", 5, "unfinished-2");
  });
  ASSERT_EQ(code, 0);
  EXPECT_EQ(this->balance(id), 75);
  EXPECT_EQ(this->reservations_held(), 2);

  // The node starts again: what it held for unfinished requests comes back, nothing else moves.
  auto restarted = this->open("node-crashing");
  EXPECT_EQ(this->balance(id), 90);
  EXPECT_EQ(this->reservations_held(), 0);
  EXPECT_EQ(this->ledger_rows(id), 1);
  EXPECT_EQ(this->store_->usage(id).at(0).credits, 10);
}

TYPED_TEST(ConcurrencyTest, ANodeThatNeverReturnsIsCoveredByExpiry) {
  auto id = this->new_account(100);
  const std::string spec = this->spec_;
  FakeClock& clock = this->clock_;
  int code = this->in_crashing_child([&] {
    auto node = open_store(store_config(spec, "node-gone"), clock, StoreRole::Node);
    node->reserve(id, "search/serp", 10, "unfinished");
  });
  ASSERT_EQ(code, 0);
  EXPECT_EQ(this->balance(id), 90);
  this->clock_.advance(std::chrono::seconds(kTtlSeconds));
  EXPECT_EQ(this->store_->release_expired(), 1);
  EXPECT_EQ(this->balance(id), 100);
  EXPECT_EQ(this->ledger_rows(id), 0);
}

TYPED_TEST(ConcurrencyTest, NodesStartingTogetherCreateOneFirstAccount) {
  constexpr int kNodes = 6;
  std::vector<std::unique_ptr<Store>> nodes;
  for (int i = 0; i < kNodes; ++i) nodes.push_back(this->open("node-" + std::to_string(i)));
  std::atomic<int> created{0};
  std::atomic<int> failed{0};
  std::latch start(kNodes);
  std::vector<std::thread> threads;
  for (auto& node : nodes) {
    threads.emplace_back([&, store = node.get()] {
      start.arrive_and_wait();
      try {
        if (store->create_first_account({"default", 1000, 30, std::nullopt})) ++created;
      } catch (const std::exception&) {
        ++failed;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(created, 1);
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(this->store_->list_accounts().size(), 1u);
}

TYPED_TEST(ConcurrencyTest, NodesOpeningAnEmptyDatabaseTogetherMigrateItOnce) {
  const std::string spec = TypeParam::new_store_spec();
  constexpr int kNodes = 4;
  std::atomic<int> failed{0};
  std::latch start(kNodes);
  std::vector<std::thread> threads;
  for (int i = 0; i < kNodes; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      try {
        open_store(store_config(spec, "node-" + std::to_string(i)), this->clock_, StoreRole::Node);
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        ++failed;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failed, 0);
  auto store = open_store(store_config(spec, "check"), this->clock_, StoreRole::Admin);
  EXPECT_EQ(schema_version(dynamic_cast<SqlStore&>(*store).database()),
            migrations().back().version);
}

}  // namespace
}  // namespace gleaner::store::testing
