// The book of browser sessions (store/session_store.h, docs/sessions.md) on both databases: who
// holds a session, the per-account limit across nodes, expiry by the idle TTL, and that a node
// only ever removes its own note.
#include "store/session_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <thread>
#include <vector>

#include "tests/store/store_fixture.h"

namespace gleaner::store::testing {
namespace {

template <typename Backend>
class SessionBookTest : public StoreFixture<Backend> {
 protected:
  SqlSessionBook book() { return SqlSessionBook(this->database(), this->clock_); }
};
TYPED_TEST_SUITE(SessionBookTest, Backends, BackendName);

constexpr std::chrono::seconds kTtl{60};

TYPED_TEST(SessionBookTest, ANoteSaysWhichNodeHoldsTheSession) {
  auto book = this->book();
  const std::int64_t account = this->new_account(100);
  const std::int64_t other = this->new_account(100, "other");
  EXPECT_EQ(book.claim(account, "cart", "node-a", kTtl, "US", 5).outcome,
            SessionBook::Claim::Claimed);
  const auto held = book.claim(account, "cart", "node-b", kTtl, std::nullopt, 5);
  EXPECT_EQ(held.outcome, SessionBook::Claim::Held);
  EXPECT_EQ(held.holder, "node-a");
  // Another account's session of the same name is its own.
  EXPECT_EQ(book.claim(other, "cart", "node-b", kTtl, std::nullopt, 5).outcome,
            SessionBook::Claim::Claimed);
  const auto listed = book.list(account);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, "cart");
  EXPECT_EQ(listed[0].node, "node-a");
  EXPECT_EQ(listed[0].proxy_country, "US");
  EXPECT_EQ(listed[0].requests, 0);
  // Only the holder's note goes.
  book.remove(account, "cart", "node-b");
  EXPECT_TRUE(book.find(account, "cart"));
  book.remove(account, "cart", "node-a");
  EXPECT_FALSE(book.find(account, "cart"));
  EXPECT_TRUE(book.find(other, "cart"));
}

TYPED_TEST(SessionBookTest, TheLimitCountsEveryNodesSessions) {
  auto book = this->book();
  const std::int64_t account = this->new_account(100);
  EXPECT_EQ(book.claim(account, "a", "node-a", kTtl, std::nullopt, 2).outcome,
            SessionBook::Claim::Claimed);
  EXPECT_EQ(book.claim(account, "b", "node-b", kTtl, std::nullopt, 2).outcome,
            SessionBook::Claim::Claimed);
  EXPECT_EQ(book.claim(account, "c", "node-a", kTtl, std::nullopt, 2).outcome,
            SessionBook::Claim::TooMany);
}

// Nodes opening sessions of one account at the same moment: the limit holds across them (each
// claim locks the account's row before it counts).
TYPED_TEST(SessionBookTest, NodesClaimingTogetherStayWithinTheLimit) {
  constexpr int kNodes = 8;
  constexpr int kLimit = 3;
  const std::int64_t account = this->new_account(100);
  std::vector<std::unique_ptr<Store>> nodes;
  for (int i = 0; i < kNodes; ++i) nodes.push_back(this->open("node-" + std::to_string(i)));
  std::atomic<int> claimed{0};
  std::atomic<int> refused{0};
  for (int round = 0; round < 5; ++round) {
    std::latch start(kNodes);
    std::vector<std::thread> threads;
    for (int i = 0; i < kNodes; ++i) {
      threads.emplace_back([&, i] {
        SqlSessionBook book(dynamic_cast<SqlStore&>(*nodes[i]).database(), this->clock_);
        const std::string node = "node-" + std::to_string(i);
        start.arrive_and_wait();
        const auto claim = book.claim(account, "r" + std::to_string(round) + "-" + node, node,
                                      kTtl, std::nullopt, kLimit);
        if (claim.outcome == SessionBook::Claim::Claimed) ++claimed;
        if (claim.outcome == SessionBook::Claim::TooMany) ++refused;
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(this->book().list(account).size(), static_cast<std::size_t>(kLimit));
    for (const auto& s : this->book().list(account)) this->book().remove(account, s.id, s.node);
  }
  EXPECT_EQ(claimed, 5 * kLimit);
  EXPECT_EQ(refused, 5 * (kNodes - kLimit));
}

TYPED_TEST(SessionBookTest, ANoteExpiresAfterItsIdleTtlFromTheLastRequest) {
  auto book = this->book();
  const std::int64_t account = this->new_account(100);
  ASSERT_EQ(book.claim(account, "s", "node-a", kTtl, std::nullopt, 1).outcome,
            SessionBook::Claim::Claimed);
  this->clock_.advance(std::chrono::seconds(50));
  book.touch(account, "s", "node-a", kTtl);
  this->clock_.advance(std::chrono::seconds(50));
  const auto note = book.find(account, "s");
  ASSERT_TRUE(note);
  EXPECT_EQ(note->requests, 1);
  this->clock_.advance(std::chrono::seconds(11));
  EXPECT_FALSE(book.find(account, "s"));
  EXPECT_TRUE(book.list(account).empty());
  // An expired note neither holds the id nor counts against the limit.
  EXPECT_EQ(book.claim(account, "t", "node-b", kTtl, std::nullopt, 1).outcome,
            SessionBook::Claim::Claimed);
  EXPECT_EQ(book.claim(account, "s", "node-b", kTtl, std::nullopt, 2).outcome,
            SessionBook::Claim::Claimed);
}

}  // namespace
}  // namespace gleaner::store::testing
