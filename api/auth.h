#pragma once
// Who is calling: the `x-api-key` header resolved to its account. Every route but /health,
// /metrics and signed screenshot URLs calls authenticate() first (directly or through billed(),
// api/billing.h). Keys are compared by hash in store/; they never reach a log line, only
// key_for_log()'s short prefix does.
#include "api/http.h"
#include "store/store.h"

#include <string>
#include <string_view>

namespace gleaner::api {

struct Dependencies;

/// The key the request carries: the `x-api-key` header without surrounding blanks. Throws
/// Error(MissingApiKey) when the header is absent or blank.
std::string api_key_of(const Request& request);

/// Whether `key` has the shape of a key store/ issues (`gl_` + 64 lower-case hex digits). Other
/// strings cannot be a key, so they are refused without asking the store.
bool well_formed_api_key(std::string_view key);

/// What a log line may show of a key: its visible prefix (the 11 characters `keys list` shows)
/// for a well-formed key, else only its length.
std::string key_for_log(std::string_view key);

/// The account owning the request's key. Throws Error(MissingApiKey) without a key and
/// Error(InvalidApiKey) for a malformed, unknown or revoked one (401 both).
store::Account authenticate(const Request& request, store::Store& store);
/// The same on the service's store, and records the account in `request.caller_id`, so that an
/// error answered to it is counted in its usage (GET /account's usage.errors).
store::Account authenticate(Request& request, Dependencies& deps);

}  // namespace gleaner::api
