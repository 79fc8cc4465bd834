// Reserving, committing and releasing credits; expiry and restart recovery; on both stores.
#include "store/credit_hold.h"
#include "tests/store/store_fixture.h"

namespace gleaner::store::testing {
namespace {

template <typename Backend>
class CreditsTest : public StoreFixture<Backend> {};
TYPED_TEST_SUITE(CreditsTest, Backends, BackendName);

TYPED_TEST(CreditsTest, CommitChargesTheReservationExactlyOnce) {
  auto id = this->new_account(100);
  Reservation r = this->store_->reserve(id, "search/serp", 10, "req-1");
  EXPECT_EQ(r.credits, 10);
  EXPECT_EQ(r.expires_at, kStart + std::chrono::seconds(kTtlSeconds));
  EXPECT_EQ(this->balance(id), 90);
  EXPECT_EQ(this->ledger_rows(id), 0);

  EXPECT_TRUE(this->store_->commit(r));
  EXPECT_FALSE(this->store_->commit(r));
  EXPECT_FALSE(this->store_->release(r));
  EXPECT_EQ(this->balance(id), 90);
  EXPECT_EQ(this->ledger_rows(id), 1);
  EXPECT_EQ(this->reservations_held(), 0);

  auto usage = this->store_->usage(id);
  ASSERT_EQ(usage.size(), 1u);
  EXPECT_EQ(usage[0].endpoint, "search/serp");
  EXPECT_EQ(usage[0].requests, 1);
  EXPECT_EQ(usage[0].credits, 10);
}

TYPED_TEST(CreditsTest, ReleaseGivesTheCreditsBackExactlyOnce) {
  auto id = this->new_account(100);
  Reservation r = this->store_->reserve(id, "web", 5, "req-1");
  EXPECT_EQ(this->balance(id), 95);
  EXPECT_TRUE(this->store_->release(r));
  EXPECT_FALSE(this->store_->release(r));
  EXPECT_FALSE(this->store_->commit(r));
  EXPECT_EQ(this->balance(id), 100);
  EXPECT_EQ(this->ledger_rows(id), 0);
  EXPECT_TRUE(this->store_->usage(id).empty());
}

TYPED_TEST(CreditsTest, AShortBalanceIsRefusedAndLeftAlone) {
  auto id = this->new_account(15);
  this->store_->reserve(id, "search/serp", 10, "req-1");
  try {
    this->store_->reserve(id, "search/serp", 10, "req-2");
    FAIL() << "reserved beyond the balance";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InsufficientCredits);
    EXPECT_STREQ(e.what(), "this request costs 10 credits; balance is 5");
  }
  EXPECT_EQ(this->balance(id), 5);
  EXPECT_EQ(this->reservations_held(), 1);
  // The exact remainder can still be spent.
  this->store_->reserve(id, "web", 5, "req-3");
  EXPECT_EQ(this->balance(id), 0);
}

TYPED_TEST(CreditsTest, UnknownAccountsAndReusedRequestIdsAreRefused) {
  auto id = this->new_account(100);
  EXPECT_EQ(error_code_of([&] { this->store_->reserve(id + 5, "web", 5, "req-1"); }),
            ErrorCode::NotFound);
  Reservation r = this->store_->reserve(id, "web", 5, "req-1");
  EXPECT_EQ(error_code_of([&] { this->store_->reserve(id, "web", 5, "req-1"); }),
            ErrorCode::Internal);
  this->store_->commit(r);
  EXPECT_EQ(error_code_of([&] { this->store_->reserve(id, "web", 5, "req-1"); }),
            ErrorCode::Internal);
  EXPECT_EQ(this->balance(id), 95);
}

TYPED_TEST(CreditsTest, UsageIsPerEndpointAndSorted) {
  auto id = this->new_account(100);
  int n = 0;
  for (auto [endpoint, cost] :
       {std::pair{"web_residential", 10}, {"search/serp", 10}, {"web", 5}, {"search/serp", 10}}) {
    this->store_->commit(this->store_->reserve(id, endpoint, cost, "req-" + std::to_string(++n)));
  }
  this->store_->release(this->store_->reserve(id, "web", 5, "released"));
  AccountView view = this->store_->account_view(id);
  EXPECT_EQ(view.account.balance, 65);
  EXPECT_EQ(view.account.allowance, 100);
  ASSERT_EQ(view.usage.size(), 3u);
  EXPECT_EQ(view.usage[0].endpoint, "search/serp");
  EXPECT_EQ(view.usage[0].requests, 2);
  EXPECT_EQ(view.usage[0].credits, 20);
  EXPECT_EQ(view.usage[1].endpoint, "web");
  EXPECT_EQ(view.usage[1].requests, 1);
  EXPECT_EQ(view.usage[2].endpoint, "web_residential");
  EXPECT_EQ(view.usage[2].credits, 10);
  EXPECT_EQ(error_code_of([&] { this->store_->account_view(id + 1); }), ErrorCode::NotFound);
}

TYPED_TEST(CreditsTest, CreditHoldReleasesUnlessCommitted) {
  auto id = this->new_account(100);
  {
    CreditHold hold(*this->store_, id, "search/serp", 10, "dropped");
    EXPECT_EQ(this->balance(id), 90);
  }
  EXPECT_EQ(this->balance(id), 100);
  {
    CreditHold hold(*this->store_, id, "search/serp", 10, "committed");
    EXPECT_TRUE(hold.commit());
    EXPECT_TRUE(hold.settled());
  }
  EXPECT_EQ(this->balance(id), 90);
  {
    CreditHold first(*this->store_, id, "web", 5, "moved");
    CreditHold second(std::move(first));
    EXPECT_TRUE(first.settled());
    EXPECT_EQ(second.reservation().request_id, "moved");
  }
  EXPECT_EQ(this->balance(id), 90);
  EXPECT_EQ(this->ledger_rows(id), 1);
  EXPECT_EQ(this->reservations_held(), 0);
}

TYPED_TEST(CreditsTest, ExpiredReservationsAreReleasedByAnyNode) {
  auto id = this->new_account(100);
  Reservation r = this->store_->reserve(id, "search/serp", 10, "req-1");
  auto other = this->open("node-b");
  EXPECT_EQ(other->release_expired(), 0);
  this->clock_.advance(std::chrono::seconds(kTtlSeconds - 1));
  EXPECT_EQ(other->release_expired(), 0);
  this->clock_.advance(std::chrono::seconds(1));
  EXPECT_EQ(other->release_expired(), 1);
  EXPECT_EQ(this->balance(id), 100);
  // The request finishing late is not charged: its credits were given back already.
  EXPECT_FALSE(this->store_->commit(r));
  EXPECT_EQ(this->ledger_rows(id), 0);
}

TYPED_TEST(CreditsTest, AShortAccountGetsItsExpiredHoldsBackBeforeBeingRefused) {
  auto id = this->new_account(10);
  this->store_->reserve(id, "search/serp", 10, "stuck");
  EXPECT_EQ(error_code_of([&] { this->store_->reserve(id, "search/serp", 10, "early"); }),
            ErrorCode::InsufficientCredits);
  this->clock_.advance(std::chrono::seconds(kTtlSeconds));
  this->store_->commit(this->store_->reserve(id, "search/serp", 10, "later"));
  EXPECT_EQ(this->balance(id), 0);
  EXPECT_EQ(this->ledger_rows(id), 1);
  EXPECT_EQ(this->reservations_held(), 0);
}

TYPED_TEST(CreditsTest, ANodeReleasesItsOwnLeftoversWhenItStartsAgain) {
  auto id = this->new_account(100);
  this->store_->reserve(id, "search/serp", 10, "a-1");
  this->store_->reserve(id, "search/serp", 10, "a-2");
  auto b = this->open("node-b");
  Reservation kept = b->reserve(id, "web", 5, "b-1");
  EXPECT_EQ(this->balance(id), 75);

  // node-a "restarts": its earlier reservations are released, node-b's live one is not.
  this->store_.reset();
  this->store_ = this->open("node-a");
  EXPECT_EQ(this->balance(id), 95);
  EXPECT_EQ(this->reservations_held(), 1);
  EXPECT_TRUE(b->commit(kept));
  EXPECT_EQ(this->ledger_rows(id), 1);
}

TYPED_TEST(CreditsTest, AdminStoresTouchNoReservation) {
  auto id = this->new_account(100);
  this->store_->reserve(id, "search/serp", 10, "live");
  auto admin = this->open("node-a", StoreRole::Admin);
  EXPECT_EQ(admin->find_account(id)->balance, 90);
  EXPECT_EQ(this->reservations_held(), 1);
}

TYPED_TEST(CreditsTest, ErrorsAreCountedPerRouteAndCodeInOneRowADay) {
  auto id = this->new_account(100);
  auto other = this->new_account(100);
  this->store_->count_error(id, "/scrape/web", "timeout");
  this->store_->count_error(id, "/scrape/web", "timeout");
  this->store_->count_error(id, "/scrape/web", "invalid_parameter");
  this->store_->count_error(other, "/scrape/web", "timeout");

  const AccountView view = this->store_->account_view(id);
  ASSERT_EQ(view.errors.size(), 2u);
  EXPECT_EQ(view.errors[0].route, "/scrape/web");
  EXPECT_EQ(view.errors[0].code, "invalid_parameter");
  EXPECT_EQ(view.errors[0].requests, 1);
  EXPECT_EQ(view.errors[1].code, "timeout");
  EXPECT_EQ(view.errors[1].requests, 2);
  EXPECT_EQ(this->store_->account_view(other).errors.at(0).requests, 1);
  const auto rows = [&] {
    return in_transaction(this->database(), TxKind::Read, [&](Transaction& tx) {
      return tx.run("SELECT COUNT(*) FROM request_errors WHERE account_id = ?", {id})
          .rows.at(0)
          .integer(0);
    });
  };
  EXPECT_EQ(rows(), 2);

  // The next day adds a row per kind, and the period's figures sum the days.
  this->clock_.advance(std::chrono::hours(24));
  this->store_->count_error(id, "/scrape/web", "timeout");
  EXPECT_EQ(rows(), 3);
  EXPECT_EQ(this->store_->account_view(id).errors.at(1).requests, 3);
}

}  // namespace
}  // namespace gleaner::store::testing
