#pragma once
// Charged work, the one way every paid route runs (spec/conventions.md "Errors" and "Credits"):
//
//   authenticate (401) → reserve the cost (402, before any page is loaded) → admission (429, or
//   504 when the time budget runs out while queued) → work → commit only a 200 that reaches its
//   client; release on every other outcome (error, exception, timeout, client gone). A client
//   that half-closed its connection is charged once its answer was delivered (docs/api.md).
//
// A route is then one call, e.g. for POST /scrape/web:
//
//   return billed(request, deps, residential ? "web_residential" : "web",
//                 [&](const store::Account&, Deadline deadline) { return run_web(..., deadline); });
//
// A route that validates its input between authentication and charging (so that a bad request
// is a 400, never a 402) authenticates first and passes the account:
//
//   const store::Account caller = authenticate(request, deps);        // api/auth.h
//   auto params = endpoint->validate(request.query);                  // 400
//   return billed(request, deps, caller, endpoint->route(), work);
//
// A crash of the whole process is covered by store/: a node releases its leftover reservations
// when it starts again (docs/store.md).
#include "api/http.h"
#include "core/clock.h"
#include "store/store.h"

#include <functional>
#include <optional>
#include <string_view>

namespace gleaner::api {

struct Dependencies;

/// The paid part of a request. Gets the caller's account and the deadline of the whole request
/// (its time budget counted from Request::received, so time spent queued is already spent).
/// Returns the response; only a 200 is charged. Throws gleaner::Error for failures.
using BilledWork = std::function<Response(const store::Account& caller, Deadline deadline)>;

/// Runs `work` as a request charged `deps.costs.of(cost_key)` credits to the caller's account
/// (see the top of this file for the order of checks). `budget` is the request's time budget
/// from Request::received; by default configuration entry `endpoint_timeout_ms` (90000, at most
/// 300000). Exceptions leave as they came (the server maps them), with the credits released.
Response billed(Request& request, Dependencies& deps, std::string_view cost_key,
                const BilledWork& work, std::optional<Millis> budget = std::nullopt);

/// The same for a caller already authenticated with authenticate() (api/auth.h).
Response billed(Request& request, Dependencies& deps, const store::Account& caller,
                std::string_view cost_key, const BilledWork& work,
                std::optional<Millis> budget = std::nullopt);

/// Waits for the request's credit reservation; throws its error (402 insufficient_credits, or the
/// store's) when it failed. Idempotent.
using Reserved = std::function<void()>;
/// Work that loads pages: it opens its browser tab while the reservation's store round trip runs,
/// and calls `reserved` before loading anything (extract::GatedTabs does it), so a request that
/// cannot pay still loads no page.
using OverlappedWork =
    std::function<Response(const store::Account& caller, Deadline deadline, const Reserved& reserved)>;

/// billed() with the credit reservation overlapping the work's start (spec/conventions.md: 402 is
/// still decided before any page is loaded). A request refused by admission (429, 504) hears 402
/// first when it could not pay either, as with billed(). Where its time went is observed per phase
/// (Metrics::observe_phase) and logged at debug level.
Response billed_overlapped(Request& request, Dependencies& deps, const store::Account& caller,
                           std::string_view cost_key, const OverlappedWork& work,
                           std::optional<Millis> budget = std::nullopt);

/// The default time budget of a request: entry `endpoint_timeout_ms`, clamped to 1 s .. 300 s.
Millis default_request_budget(const Config& config);

}  // namespace gleaner::api
