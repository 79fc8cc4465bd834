#include "api/auth.h"

#include "api/service.h"
#include "core/error.h"
#include "core/log.h"

namespace gleaner::api {
namespace {

constexpr std::string_view kKeyPrefix = "gl_";
constexpr std::size_t kKeyHexDigits = 64;
/// What `keys list` shows of a key ("gl_" and 8 hex digits): safe to log.
constexpr std::size_t kVisiblePrefix = 11;

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

std::string api_key_of(const Request& request) {
  const std::string raw = request.header("x-api-key");
  std::size_t begin = 0;
  std::size_t end = raw.size();
  while (begin < end && blank(raw[begin])) ++begin;
  while (end > begin && blank(raw[end - 1])) --end;
  if (begin == end) {
    throw Error(ErrorCode::MissingApiKey, "this endpoint needs an API key in the x-api-key header");
  }
  return raw.substr(begin, end - begin);
}

bool well_formed_api_key(std::string_view key) {
  if (key.size() != kKeyPrefix.size() + kKeyHexDigits || key.substr(0, kKeyPrefix.size()) != kKeyPrefix) {
    return false;
  }
  for (char c : key.substr(kKeyPrefix.size())) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!hex) return false;
  }
  return true;
}

std::string key_for_log(std::string_view key) {
  if (well_formed_api_key(key)) return std::string(key.substr(0, kVisiblePrefix)) + "...";
  return "(a malformed key of " + std::to_string(key.size()) + " characters)";
}

store::Account authenticate(const Request& request, store::Store& store) {
  const std::string key = api_key_of(request);
  // A string that cannot be a key is refused without a store lookup.
  std::optional<store::Account> account;
  if (well_formed_api_key(key)) account = store.authenticate(key);
  if (!account) {
    throw Error(ErrorCode::InvalidApiKey, "the API key is not valid",
                "key " + key_for_log(key) + " is unknown, revoked or malformed");
  }
  return *account;
}

store::Account authenticate(Request& request, Dependencies& deps) {
  store::Account account = authenticate(request, *deps.store);
  request.caller_id = account.id;
  return account;
}

}  // namespace gleaner::api
