// The admin commands and the first-start bootstrap. They only call the Store interface, whose
// behaviour on both databases the other suites cover, so these run on SQLite.
#include "store/admin.h"

#include <sstream>

#include "tests/store/store_fixture.h"

namespace gleaner::store::testing {
namespace {

class AdminTest : public StoreFixture<SqliteBackend> {
 protected:
  struct Run {
    int status;
    std::string out;
    std::string err;
    std::string last_line() const {
      std::string text = out;
      while (!text.empty() && text.back() == '\n') text.pop_back();
      return text.substr(text.rfind('\n') + 1);
    }
  };

  Run admin(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    int status = run_admin_command(args, *store_, out, err);
    return {status, out.str(), err.str()};
  }

  /// Creates an account through the command and returns its key.
  std::string create(const std::string& name, const std::string& credits) {
    Run run = admin({"accounts", "create", "--name", name, "--credits", credits});
    EXPECT_EQ(run.status, 0) << run.err;
    return run.last_line();
  }
};

TEST_F(AdminTest, AccountsCreatePrintsTheKeyAloneOnTheLastLine) {
  Run run = admin({"accounts", "create", "--name", "acme corp", "--credits", "5000",
                   "--period-days=7", "--concurrency", "4"});
  ASSERT_EQ(run.status, 0) << run.err;
  auto account = store_->authenticate(run.last_line());
  ASSERT_TRUE(account.has_value()) << run.out;
  EXPECT_EQ(account->name, "acme corp");
  EXPECT_EQ(account->allowance, 5000);
  EXPECT_EQ(account->period_days, 7);
  EXPECT_EQ(account->concurrency_limit, 4);

  Run list = admin({"accounts", "list"});
  EXPECT_EQ(list.status, 0);
  EXPECT_NE(list.out.find("name=\"acme corp\" balance=5000 allowance=5000 period_days=7"),
            std::string::npos)
      << list.out;
  EXPECT_EQ(list.out.find(run.last_line()), std::string::npos);  // keys are never listed
}

TEST_F(AdminTest, KeysAreCreatedListedAndRevoked) {
  std::string first = create("acme", "100");
  const auto id = std::to_string(store_->authenticate(first)->id);
  Run second = admin({"keys", "create", "--account", id});
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_TRUE(store_->authenticate(second.last_line()).has_value());

  Run list = admin({"keys", "list", "--account", id});
  EXPECT_NE(list.out.find("prefix=" + first.substr(0, 11)), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("prefix=" + second.last_line().substr(0, 11)), std::string::npos);

  Run revoke = admin({"keys", "revoke", "--key-prefix", first.substr(0, 11)});
  EXPECT_EQ(revoke.status, 0) << revoke.err;
  EXPECT_FALSE(store_->authenticate(first).has_value());
  EXPECT_TRUE(store_->authenticate(second.last_line()).has_value());
  EXPECT_NE(admin({"keys", "list", "--account", id}).out.find("status=revoked"), std::string::npos);

  const auto second_id = std::to_string(store_->list_keys(std::stoll(id)).back().id);
  EXPECT_EQ(admin({"keys", "revoke", "--key-id", second_id}).status, 0);
  EXPECT_FALSE(store_->authenticate(second.last_line()).has_value());
  EXPECT_EQ(admin({"keys", "revoke", "--key-id", second_id}).status, 1);
}

TEST_F(AdminTest, AnAmbiguousOrUnknownPrefixRevokesNothing) {
  std::string first = create("acme", "100");
  admin({"keys", "create", "--account", std::to_string(store_->authenticate(first)->id)});
  Run ambiguous = admin({"keys", "revoke", "--key-prefix", "gl_"});
  EXPECT_EQ(ambiguous.status, 1);
  EXPECT_NE(ambiguous.err.find("2 keys start with gl_"), std::string::npos) << ambiguous.err;
  EXPECT_EQ(admin({"keys", "revoke", "--key-prefix", "gl_zzzz"}).status, 1);
  EXPECT_TRUE(store_->authenticate(first).has_value());
}

TEST_F(AdminTest, CreditsAddAndAccountsShow) {
  std::string key = create("acme", "100");
  const auto id = std::to_string(store_->authenticate(key)->id);
  store_->commit(store_->reserve(std::stoll(id), "search/serp", 10, "r1"));
  Run add = admin({"credits", "add", "--account", id, "--credits", "25"});
  EXPECT_EQ(add.status, 0) << add.err;
  EXPECT_NE(add.out.find("balance=115"), std::string::npos) << add.out;
  Run show = admin({"accounts", "show", "--account", id});
  EXPECT_NE(show.out.find("usage endpoint=search/serp requests=1 credits=10"), std::string::npos)
      << show.out;
}

TEST_F(AdminTest, UsageErrorsExitWithTwoAndStoreRefusalsWithOne) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {},
           {"accounts"},
           {"accounts", "delete"},
           {"accounts", "create", "--credits", "5"},
           {"accounts", "create", "--name", "a", "--credits", "lots"},
           {"accounts", "create", "--name", "a", "--credits", "5", "--colour", "red"},
           {"accounts", "create", "--name", "a", "--name", "b", "--credits", "5"},
           {"accounts", "create", "--name"},
           {"keys", "revoke"},
           {"keys", "revoke", "--key-id", "1", "--key-prefix", "gl_"},
           {"credits", "add", "--account", "1", "stray"},
       }) {
    Run run = admin(args);
    EXPECT_EQ(run.status, 2) << ::testing::PrintToString(args);
    EXPECT_NE(run.err.find("usage:"), std::string::npos);
  }
  Run unknown = admin({"credits", "add", "--account", "77", "--credits", "5"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.err.find("no account 77"), std::string::npos) << unknown.err;
  Run negative = admin({"accounts", "create", "--name", "a", "--credits", "-5"});
  EXPECT_EQ(negative.status, 1);
  EXPECT_NE(negative.err.find("(credits)"), std::string::npos) << negative.err;
  EXPECT_TRUE(store_->list_accounts().empty());
}

TEST_F(AdminTest, TheFirstStartCreatesOneAccountAndPrintsItsKeyOnce) {
  Config config;
  config.set("default_credits", 250);
  std::ostringstream first, second;
  EXPECT_TRUE(bootstrap_first_account(*store_, config, first));
  EXPECT_FALSE(bootstrap_first_account(*store_, config, second));
  EXPECT_TRUE(second.str().empty());

  std::string text = first.str();
  text.pop_back();
  auto account = store_->authenticate(text.substr(text.rfind('\n') + 1));
  ASSERT_TRUE(account.has_value()) << text;
  EXPECT_EQ(account->name, "default");
  EXPECT_EQ(account->allowance, 250);
  EXPECT_EQ(account->period_days, 30);
}

}  // namespace
}  // namespace gleaner::store::testing
