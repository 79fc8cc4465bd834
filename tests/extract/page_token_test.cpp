// Page tokens (extract/page_token.h): what a token carries, who may redeem it and for how long.
#include "extract/page_token.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "extract/sites/common/text.h"

namespace gleaner::extract {
namespace {

using nlohmann::json;

const std::string kSecret = "a secret of at least sixteen characters";
const std::string kKind = "google/immersive-product";
const json kClaims = {{"productId", "13239497633151178800"}, {"gl", "br"}, {"hl", "pt-BR"}};

class PageTokenTest : public ::testing::Test {
 protected:
  FakeClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000))};
  PageTokens tokens_{kSecret, clock_};
};

TEST_F(PageTokenTest, AMintedTokenIsRedeemableByItsAccountAndCarriesItsClaims) {
  const std::string token = tokens_.mint(7, kKind, kClaims);
  EXPECT_EQ(tokens_.verify(7, kKind, token), PageTokenVerdict::Valid);
  EXPECT_EQ(page_token_claims(token), kClaims);
  // Another node with the same secret (and clock) verifies it too: nothing is kept in memory.
  EXPECT_EQ(PageTokens(kSecret, clock_).verify(7, kKind, token), PageTokenVerdict::Valid);
}

TEST_F(PageTokenTest, AnotherAccountsTokenIsRefused) {
  EXPECT_EQ(tokens_.verify(8, kKind, tokens_.mint(7, kKind, kClaims)),
            PageTokenVerdict::OtherAccount);
}

TEST_F(PageTokenTest, ATokenExpiresAfterFourMinutes) {
  const std::string token = tokens_.mint(7, kKind, kClaims);
  clock_.advance(std::chrono::seconds(239));
  EXPECT_EQ(tokens_.verify(7, kKind, token), PageTokenVerdict::Valid);
  clock_.advance(std::chrono::seconds(1));
  EXPECT_EQ(tokens_.verify(7, kKind, token), PageTokenVerdict::Expired);
}

TEST_F(PageTokenTest, ATokenOfAnotherOperationIsRefused) {
  EXPECT_EQ(tokens_.verify(7, kKind, tokens_.mint(7, "google/ai-overview", kClaims)),
            PageTokenVerdict::OtherKind);
}

TEST_F(PageTokenTest, ATokenOfAnotherSecretOrAlteredIsForged) {
  const std::string token = tokens_.mint(7, kKind, kClaims);
  EXPECT_EQ(PageTokens("another secret, also long enough", clock_).verify(7, kKind, token),
            PageTokenVerdict::Forged);
  // Its record changed (another product), the signature kept.
  const std::string record = token.substr(0, token.find('.'));
  json changed = json::parse(*base64url_decode(record));
  changed["c"]["productId"] = "1";
  EXPECT_EQ(tokens_.verify(7, kKind, base64url_encode(changed.dump()) + token.substr(record.size())),
            PageTokenVerdict::Forged);
  // Its expiry pushed back, the signature kept.
  json later = json::parse(*base64url_decode(record));
  later["x"] = later["x"].get<std::int64_t>() + 3600;
  EXPECT_EQ(tokens_.verify(7, kKind, base64url_encode(later.dump()) + token.substr(record.size())),
            PageTokenVerdict::Forged);
}

TEST_F(PageTokenTest, WhatIsNoTokenIsMalformed) {
  for (const std::string& bad : std::vector<std::string>{
           "", "eyJ0b2tlbiI6ImFiYyJ9", "abc.def", "." + std::string(64, 'a'),
           "eyJ0b2tlbiI6ImFiYyJ9." + std::string(64, 'a')}) {
    EXPECT_NE(tokens_.verify(7, kKind, bad), PageTokenVerdict::Valid) << bad;
    EXPECT_FALSE(page_token_claims(bad).has_value()) << bad;
  }
  EXPECT_EQ(tokens_.verify(7, kKind, "abc"), PageTokenVerdict::Malformed);
}

TEST_F(PageTokenTest, EachRefusalSaysWhy) {
  EXPECT_NE(page_token_refusal(PageTokenVerdict::Expired).find("4 minutes"), std::string::npos);
  EXPECT_NE(page_token_refusal(PageTokenVerdict::OtherAccount).find("another account"),
            std::string::npos);
  EXPECT_NE(page_token_refusal(PageTokenVerdict::Forged).find("not a token this service gave"),
            std::string::npos);
}

TEST(PageTokens, AShortSecretIsRefused) {
  EXPECT_THROW(PageTokens("short"), Error);
}

}  // namespace
}  // namespace gleaner::extract
