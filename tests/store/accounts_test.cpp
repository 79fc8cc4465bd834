// Accounts and API keys, on both stores.
#include "core/ids.h"
#include "tests/store/store_fixture.h"

namespace gleaner::store::testing {
namespace {

template <typename Backend>
class AccountsTest : public StoreFixture<Backend> {};
TYPED_TEST_SUITE(AccountsTest, Backends, BackendName);

TYPED_TEST(AccountsTest, NewAccountHasAFullPeriodAndAKeyThatAuthenticates) {
  NewAccount spec;
  spec.name = "acme";
  spec.allowance = 500;
  spec.period_days = 7;
  spec.concurrency_limit = 3;
  CreatedAccount created = this->store_->create_account(spec);

  const Account& a = created.account;
  EXPECT_EQ(a.name, "acme");
  EXPECT_EQ(a.balance, 500);
  EXPECT_EQ(a.allowance, 500);
  EXPECT_EQ(a.period_start, kStart);
  EXPECT_EQ(a.period_end, kStart + std::chrono::hours(24 * 7));
  EXPECT_EQ(a.concurrency_limit, 3);
  EXPECT_EQ(created.key.key.rfind("gl_", 0), 0u);
  EXPECT_EQ(created.key.key.size(), 3u + 64u);
  EXPECT_EQ(created.key.info.prefix, created.key.key.substr(0, 11));

  auto found = this->store_->authenticate(created.key.key);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->id, a.id);
  EXPECT_EQ(found->balance, 500);
  EXPECT_EQ(found->concurrency_limit, 3);

  auto listed = this->store_->list_accounts();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed.front().id, a.id);
  EXPECT_FALSE(this->store_->find_account(a.id + 1000).has_value());
}

TYPED_TEST(AccountsTest, ConcurrencyLimitIsOptional) {
  auto id = this->new_account(100);
  EXPECT_FALSE(this->store_->find_account(id)->concurrency_limit.has_value());
}

TYPED_TEST(AccountsTest, KeysAreStoredOnlyAsHashes) {
  NewAccount spec{"acme", 100, 30, std::nullopt};
  CreatedAccount created = this->store_->create_account(spec);
  auto rows = in_transaction(this->database(), TxKind::Read, [](Transaction& tx) {
    return tx.run("SELECT key_hash, prefix FROM api_keys").rows;
  });
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].text(0), sha256_hex(created.key.key));
  EXPECT_EQ(rows[0].text(1), created.key.info.prefix);
  EXPECT_EQ(rows[0].text(0).find(created.key.key.substr(3)), std::string::npos);
}

TYPED_TEST(AccountsTest, UnknownOrEmptyKeysDoNotAuthenticate) {
  this->new_account(100);
  EXPECT_FALSE(this->store_->authenticate("").has_value());
  EXPECT_FALSE(this->store_->authenticate("gl_" + random_hex(32)).has_value());
  EXPECT_FALSE(this->store_->authenticate("' OR 1=1 --").has_value());
}

TYPED_TEST(AccountsTest, AnAccountHasSeveralKeysEachRevocable) {
  NewAccount spec{"acme", 100, 30, std::nullopt};
  CreatedAccount created = this->store_->create_account(spec);
  CreatedKey second = this->store_->create_key(created.account.id);
  EXPECT_NE(second.key, created.key.key);
  EXPECT_EQ(this->store_->authenticate(second.key)->id, created.account.id);

  auto keys = this->store_->list_keys(created.account.id);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].id, created.key.info.id);
  EXPECT_EQ(keys[1].id, second.info.id);
  EXPECT_FALSE(keys[0].revoked_at.has_value());

  // Found by prefix (upper-case typing tolerated), revoked once.
  auto by_prefix = this->store_->find_keys_by_prefix("GL_" + created.key.info.prefix.substr(3, 6));
  ASSERT_EQ(by_prefix.size(), 1u);
  EXPECT_EQ(by_prefix[0].id, created.key.info.id);
  this->clock_.advance(std::chrono::hours(1));
  EXPECT_TRUE(this->store_->revoke_key(created.key.info.id));
  EXPECT_FALSE(this->store_->revoke_key(created.key.info.id));
  EXPECT_FALSE(this->store_->revoke_key(987654));

  EXPECT_FALSE(this->store_->authenticate(created.key.key).has_value());
  EXPECT_TRUE(this->store_->authenticate(second.key).has_value());
  keys = this->store_->list_keys(created.account.id);
  ASSERT_TRUE(keys[0].revoked_at.has_value());
  EXPECT_EQ(*keys[0].revoked_at, kStart + std::chrono::hours(1));
  EXPECT_FALSE(keys[1].revoked_at.has_value());
}

TYPED_TEST(AccountsTest, PrefixSearchTreatsLikeWildcardsLiterally) {
  NewAccount spec{"acme", 100, 30, std::nullopt};
  this->store_->create_account(spec);
  this->store_->create_key(this->store_->list_accounts().front().id);
  EXPECT_EQ(this->store_->find_keys_by_prefix("gl_").size(), 2u);
  EXPECT_TRUE(this->store_->find_keys_by_prefix("gl%").empty());
  EXPECT_TRUE(this->store_->find_keys_by_prefix("g_").empty());
}

TYPED_TEST(AccountsTest, KeysNeedAnExistingAccount) {
  EXPECT_EQ(error_code_of([&] { this->store_->create_key(42); }), ErrorCode::NotFound);
}

TYPED_TEST(AccountsTest, InvalidNewAccountsNameTheParameter) {
  auto parameter_of = [&](NewAccount a) -> std::string {
    try {
      this->store_->create_account(a);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidParameter);
      return e.parameter().value_or("");
    }
    return "(accepted)";
  };
  EXPECT_EQ(parameter_of({"", 100, 30, std::nullopt}), "name");
  EXPECT_EQ(parameter_of({"a", -1, 30, std::nullopt}), "credits");
  EXPECT_EQ(parameter_of({"a", 100, 0, std::nullopt}), "period_days");
  EXPECT_EQ(parameter_of({"a", 100, 30, 0}), "concurrency");
  EXPECT_TRUE(this->store_->list_accounts().empty());
}

TYPED_TEST(AccountsTest, AddCreditsRaisesTheBalance) {
  auto id = this->new_account(100);
  EXPECT_EQ(this->store_->add_credits(id, 50).balance, 150);
  EXPECT_EQ(this->balance(id), 150);
  EXPECT_EQ(error_code_of([&] { this->store_->add_credits(id, 0); }), ErrorCode::InvalidParameter);
  EXPECT_EQ(error_code_of([&] { this->store_->add_credits(id + 99, 5); }), ErrorCode::NotFound);
}

TYPED_TEST(AccountsTest, TheFirstAccountIsCreatedOnlyOnce) {
  NewAccount first{"default", 10000, 30, std::nullopt};
  auto created = this->store_->create_first_account(first);
  ASSERT_TRUE(created.has_value());
  EXPECT_TRUE(this->store_->authenticate(created->key.key).has_value());
  EXPECT_FALSE(this->store_->create_first_account(first).has_value());
  // Also not on a restart, nor from another node.
  EXPECT_FALSE(this->open("node-b")->create_first_account(first).has_value());
  EXPECT_EQ(this->store_->list_accounts().size(), 1u);
}

TYPED_TEST(AccountsTest, NoFirstAccountWhenAccountsWereMadeBefore) {
  this->new_account(100);
  NewAccount first{"default", 10000, 30, std::nullopt};
  EXPECT_FALSE(this->store_->create_first_account(first).has_value());
  EXPECT_EQ(this->store_->list_accounts().size(), 1u);
}

TYPED_TEST(AccountsTest, DataSurvivesReopening) {
  NewAccount spec{"acme", 100, 30, std::nullopt};
  CreatedAccount created = this->store_->create_account(spec);
  this->store_.reset();
  this->store_ = this->open("node-a");
  EXPECT_EQ(this->store_->authenticate(created.key.key)->name, "acme");
}

}  // namespace
}  // namespace gleaner::store::testing
