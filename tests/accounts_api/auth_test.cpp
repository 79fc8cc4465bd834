// api/auth.h: reading x-api-key, refusing what cannot be a key without a store lookup, and never
// showing more of a key than its visible prefix.
#include "api/auth.h"
#include "core/error.h"
#include "store/store.h"

#include <gtest/gtest.h>

using namespace gleaner;
using namespace gleaner::api;

namespace {

Request with_key(const std::string& value) {
  Request r;
  r.headers["x-api-key"] = value;
  return r;
}

ErrorCode code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "no gleaner::Error thrown";
  return ErrorCode::Internal;
}

class AuthStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Config config;
    config.set("store", "sqlite::memory:");
    store = store::open_store(config, SystemClock::instance(), store::StoreRole::Node);
    created = store->create_account({"acme", 100, 30, std::nullopt});
  }
  std::unique_ptr<store::Store> store;
  store::CreatedAccount created;
};

}  // namespace

TEST(ApiKeyOf, TrimsBlanks) {
  EXPECT_EQ(api_key_of(with_key("  gl_abc\t")), "gl_abc");
}

TEST(ApiKeyOf, AbsentOrBlankIsMissing) {
  EXPECT_EQ(code_of([] { api_key_of(Request{}); }), ErrorCode::MissingApiKey);
  EXPECT_EQ(code_of([] { api_key_of(with_key(" \t ")); }), ErrorCode::MissingApiKey);
}

TEST(WellFormedApiKey, OnlyTheStoresShape) {
  const std::string hex64(64, 'a');
  EXPECT_TRUE(well_formed_api_key("gl_" + hex64));
  EXPECT_TRUE(well_formed_api_key("gl_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(well_formed_api_key("gl_" + hex64.substr(1)));        // too short
  EXPECT_FALSE(well_formed_api_key("gl_" + hex64 + "a"));            // too long
  EXPECT_FALSE(well_formed_api_key("GL_" + hex64));                  // wrong prefix
  EXPECT_FALSE(well_formed_api_key("gl_" + std::string(63, 'a') + "G"));  // not lower hex
  EXPECT_FALSE(well_formed_api_key(""));
}

TEST(KeyForLog, ShowsOnlyTheVisiblePrefix) {
  const std::string key = "gl_1a2b3c4d" + std::string(56, 'e');
  const std::string shown = key_for_log(key);
  EXPECT_EQ(shown, "gl_1a2b3c4d...");
  EXPECT_EQ(shown.find(key.substr(11)), std::string::npos);
  // Whatever else was sent may be a mistyped secret: only its length is shown.
  EXPECT_EQ(key_for_log("my-secret-password"), "(a malformed key of 18 characters)");
}

TEST_F(AuthStoreTest, TheAccountOfAValidKey) {
  const store::Account a = authenticate(with_key(created.key.key), *store);
  EXPECT_EQ(a.id, created.account.id);
  EXPECT_EQ(a.name, "acme");
}

TEST_F(AuthStoreTest, UnknownMalformedAndRevokedKeysAreInvalid) {
  EXPECT_EQ(code_of([&] { authenticate(with_key("gl_" + std::string(64, '0')), *store); }),
            ErrorCode::InvalidApiKey);
  EXPECT_EQ(code_of([&] { authenticate(with_key("not a key"), *store); }),
            ErrorCode::InvalidApiKey);
  ASSERT_TRUE(store->revoke_key(created.key.info.id));
  EXPECT_EQ(code_of([&] { authenticate(with_key(created.key.key), *store); }),
            ErrorCode::InvalidApiKey);
}

TEST_F(AuthStoreTest, NoKeyIsMissingNotInvalid) {
  EXPECT_EQ(code_of([&] { authenticate(Request{}, *store); }), ErrorCode::MissingApiKey);
}

TEST_F(AuthStoreTest, TheRefusalNamesNoMoreThanThePrefix) {
  const std::string key = "gl_9f8e7d6c" + std::string(56, '5');
  try {
    authenticate(with_key(key), *store);
    FAIL() << "accepted an unknown key";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("9f8e7d6c"), std::string::npos) << "client message";
    EXPECT_NE(e.detail().find("gl_9f8e7d6c..."), std::string::npos) << e.detail();
    EXPECT_EQ(e.detail().find(key.substr(11)), std::string::npos) << e.detail();
  }
}
