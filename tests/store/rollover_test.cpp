// Billing periods roll over with the injected clock: the balance resets to the allowance, unused
// credits do not carry over, credits held by running requests stay held. On both stores.
#include "tests/store/store_fixture.h"

namespace gleaner::store::testing {
namespace {

using std::chrono::seconds;

template <typename Backend>
class RolloverTest : public StoreFixture<Backend> {};
TYPED_TEST_SUITE(RolloverTest, Backends, BackendName);

TYPED_TEST(RolloverTest, TheBalanceResetsToTheAllowanceAtThePeriodEnd) {
  auto id = this->new_account(100);
  this->store_->commit(this->store_->reserve(id, "search/serp", 10, "old-1"));
  this->store_->commit(this->store_->reserve(id, "web", 5, "old-2"));
  EXPECT_EQ(this->balance(id), 85);

  this->clock_.advance(seconds(30 * kDay - 1));
  EXPECT_EQ(this->balance(id), 85);
  EXPECT_EQ(this->store_->usage(id).size(), 2u);

  this->clock_.advance(seconds(1));
  Account a = *this->store_->find_account(id);
  EXPECT_EQ(a.balance, 100);
  EXPECT_EQ(a.period_start, kStart + seconds(30 * kDay));
  EXPECT_EQ(a.period_end, kStart + seconds(60 * kDay));
  EXPECT_TRUE(this->store_->usage(id).empty());
  EXPECT_EQ(this->ledger_rows(id), 2);  // the old period's charges stay in the ledger
}

TYPED_TEST(RolloverTest, UnusedCreditsDoNotCarryOver) {
  auto id = this->new_account(100);
  this->store_->add_credits(id, 50);
  this->clock_.advance(seconds(31 * kDay));
  EXPECT_EQ(this->balance(id), 100);
}

TYPED_TEST(RolloverTest, IdlePeriodsAreSkippedWhole) {
  auto id = this->new_account(100);
  this->store_->commit(this->store_->reserve(id, "web", 5, "r"));
  this->clock_.advance(seconds(95 * kDay));
  Account a = *this->store_->find_account(id);
  EXPECT_EQ(a.balance, 100);
  EXPECT_EQ(a.period_start, kStart + seconds(90 * kDay));
  EXPECT_EQ(a.period_end, kStart + seconds(120 * kDay));
}

TYPED_TEST(RolloverTest, TheRolloverHappensInsideReserveAndAuthenticate) {
  NewAccount spec{"acme", 20, 1, std::nullopt};
  CreatedAccount created = this->store_->create_account(spec);
  const auto id = created.account.id;
  this->store_->commit(this->store_->reserve(id, "search/serp", 10, "d1-1"));
  this->store_->commit(this->store_->reserve(id, "search/serp", 10, "d1-2"));
  EXPECT_EQ(error_code_of([&] { this->store_->reserve(id, "search/serp", 10, "d1-3"); }),
            ErrorCode::InsufficientCredits);

  this->clock_.advance(seconds(kDay));
  // No read in between: reserve itself sees the new period.
  this->store_->commit(this->store_->reserve(id, "search/serp", 10, "d2-1"));
  EXPECT_EQ(this->balance(id), 10);

  this->clock_.advance(seconds(kDay));
  EXPECT_EQ(this->store_->authenticate(created.key.key)->balance, 20);
}

TYPED_TEST(RolloverTest, CreditsHeldAcrossTheEndAreChargedToTheNewPeriod) {
  auto id = this->new_account(100);
  Reservation running = this->store_->reserve(id, "search/serp", 40, "running");
  this->clock_.advance(seconds(30 * kDay));
  // Still held: the new balance is the allowance minus what running requests hold.
  EXPECT_EQ(this->balance(id), 60);
  EXPECT_TRUE(this->store_->commit(running));
  EXPECT_EQ(this->balance(id), 60);
  auto usage = this->store_->usage(id);
  ASSERT_EQ(usage.size(), 1u);
  EXPECT_EQ(usage[0].credits, 40);
}

TYPED_TEST(RolloverTest, CreditsHeldAcrossTheEndAndReleasedReturnToTheNewPeriod) {
  auto id = this->new_account(100);
  Reservation running = this->store_->reserve(id, "search/serp", 40, "running");
  this->clock_.advance(seconds(30 * kDay));
  // Released without anything reading the account first: release rolls over too.
  EXPECT_TRUE(this->store_->release(running));
  EXPECT_EQ(this->balance(id), 100);
  EXPECT_TRUE(this->store_->usage(id).empty());
}

}  // namespace
}  // namespace gleaner::store::testing
