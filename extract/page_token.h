#pragma once
// Page tokens: what an answer hands out for a later request to redeem (Shopping's
// `immersiveProductPageToken`, redeemed by GET /scrape/google/immersive-product). The hosted
// service's tokens name a short-lived record of what produced them, scoped to the account that
// got it and expiring after 4 minutes; gleaner's carry that record themselves, signed:
//
//   <base64url of the record's JSON>.<hex HMAC-SHA-256 of that base64url text>
//
// The record holds the token's kind, the account, its expiry (unix seconds) and the claims the
// redeeming endpoint needs (which page, which gl/hl). Nothing is written anywhere: a Shopping
// answer mints up to 40 tokens, and any node holding the secret verifies any node's token (the
// secret is the one every node already shares for screenshot URLs, docs/security.md). The API
// layer verifies a token (signature, kind, account, expiry) before anything is reserved; the
// endpoint only reads the claims of a token that passed (page_token_claims()).
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/clock.h"

namespace gleaner::extract {

/// How long a token stays redeemable (the hosted service's 4 minutes).
inline constexpr std::chrono::seconds kPageTokenLifetime{240};

/// The claims of a token's record, read without checking its signature (the API layer checked
/// it before the endpoint runs): nullopt unless `token` has the shape above and its record is a
/// JSON object with an object `c`.
std::optional<nlohmann::json> page_token_claims(std::string_view token);

/// What the service checks of a token an account presents.
enum class PageTokenVerdict {
  Valid,
  Malformed,     ///< not a token of this service's shape
  Forged,        ///< the signature is not this service's (another secret, or altered)
  OtherKind,     ///< a token for another operation
  OtherAccount,  ///< minted for another account
  Expired,
};

/// The client's words for a verdict other than Valid ("expired: tokens last 4 minutes").
std::string page_token_refusal(PageTokenVerdict verdict);

class PageTokens {
 public:
  /// Secrets shorter than this are refused, as for screenshot URLs.
  static constexpr std::size_t kMinSecretLength = 16;

  /// Throws gleaner::Error(Internal) when `secret` is shorter than kMinSecretLength. The key is
  /// derived from `secret` for page tokens alone, so a token is never a valid screenshot
  /// signature or the other way round.
  explicit PageTokens(std::string_view secret, const Clock& clock = SystemClock::instance());

  /// A token of `kind` for `account` carrying `claims`, redeemable kPageTokenLifetime from now.
  std::string mint(std::int64_t account, std::string_view kind,
                   const nlohmann::json& claims) const;

  /// Whether `token` is one this service minted for `kind` and `account`, and still unexpired.
  PageTokenVerdict verify(std::int64_t account, std::string_view kind,
                          std::string_view token) const;

 private:
  std::string key_;
  const Clock& clock_;
};

}  // namespace gleaner::extract
