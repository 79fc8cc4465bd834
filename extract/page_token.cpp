#include "extract/page_token.h"

#include "core/error.h"
#include "core/ids.h"
#include "extract/sites/common/text.h"

namespace gleaner::extract {
namespace {

using nlohmann::json;

// A record is small (a product id, gl, hl); anything longer is no token of ours.
constexpr std::size_t kMaxTokenLength = 2048;
constexpr std::size_t kSignatureLength = 64;  // hex HMAC-SHA-256

struct Parts {
  std::string_view record;  // base64url
  std::string_view signature;
};

std::optional<Parts> split(std::string_view token) {
  if (token.size() > kMaxTokenLength) return std::nullopt;
  const std::size_t dot = token.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;
  Parts parts{token.substr(0, dot), token.substr(dot + 1)};
  if (parts.signature.size() != kSignatureLength) return std::nullopt;
  return parts;
}

std::optional<json> record_of(std::string_view encoded) {
  const std::optional<std::string> bytes = base64url_decode(encoded);
  if (!bytes) return std::nullopt;
  json record = json::parse(*bytes, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object() || !record.contains("c") || !record["c"].is_object()) {
    return std::nullopt;
  }
  return record;
}

std::int64_t unix_seconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace

std::optional<json> page_token_claims(std::string_view token) {
  const std::optional<Parts> parts = split(token);
  if (!parts) return std::nullopt;
  std::optional<json> record = record_of(parts->record);
  if (!record) return std::nullopt;
  return (*record)["c"];
}

std::string page_token_refusal(PageTokenVerdict verdict) {
  switch (verdict) {
    case PageTokenVerdict::Valid:
      return "valid";
    case PageTokenVerdict::Malformed:
    case PageTokenVerdict::Forged:
      return "is not a token this service gave";
    case PageTokenVerdict::OtherKind:
      return "is a token for another operation";
    case PageTokenVerdict::OtherAccount:
      return "was given to another account";
    case PageTokenVerdict::Expired:
      return "has expired (a token is redeemable for 4 minutes): ask for a new one";
  }
  return "is not a token this service gave";
}

PageTokens::PageTokens(std::string_view secret, const Clock& clock) : clock_(clock) {
  if (secret.size() < kMinSecretLength) {
    throw Error(ErrorCode::Internal, "the page token secret is too short");
  }
  key_ = hmac_sha256_hex(secret, "gleaner page tokens v1");
}

std::string PageTokens::mint(std::int64_t account, std::string_view kind,
                             const json& claims) const {
  const json record{{"k", kind},
                    {"a", account},
                    {"x", unix_seconds(clock_.now() + kPageTokenLifetime)},
                    {"c", claims}};
  std::string token = base64url_encode(record.dump());
  const std::string signature = hmac_sha256_hex(key_, token);
  token += '.';
  token += signature;
  return token;
}

PageTokenVerdict PageTokens::verify(std::int64_t account, std::string_view kind,
                                    std::string_view token) const {
  const std::optional<Parts> parts = split(token);
  if (!parts) return PageTokenVerdict::Malformed;
  // The signature first: nothing of an unsigned record is believed, not even its kind.
  if (!constant_time_equal(hmac_sha256_hex(key_, parts->record), parts->signature)) {
    return PageTokenVerdict::Forged;
  }
  const std::optional<json> record = record_of(parts->record);
  if (!record) return PageTokenVerdict::Malformed;
  if (!(*record)["k"].is_string() || (*record)["k"].get<std::string>() != kind) {
    return PageTokenVerdict::OtherKind;
  }
  if (!(*record)["a"].is_number_integer() || (*record)["a"].get<std::int64_t>() != account) {
    return PageTokenVerdict::OtherAccount;
  }
  if (!(*record)["x"].is_number_integer() ||
      unix_seconds(clock_.now()) >= (*record)["x"].get<std::int64_t>()) {
    return PageTokenVerdict::Expired;
  }
  return PageTokenVerdict::Valid;
}

}  // namespace gleaner::extract
