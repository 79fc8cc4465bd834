#include "api/billing.h"

#include <algorithm>
#include <exception>
#include <future>
#include <memory>

#include "api/admission.h"
#include "api/auth.h"
#include "api/envelope.h"
#include "api/metrics.h"
#include "api/server.h"
#include "api/service.h"
#include "core/error.h"
#include "core/log.h"
#include "store/credit_hold.h"

namespace gleaner::api {

namespace {

/// Charges a 200 whose client got it (`delivered`), or releases it, and counts which.
void charge(store::CreditHold& hold, Dependencies& deps, const std::string& request_id,
            const std::string& endpoint, std::int64_t cost, bool delivered) {
  if (!delivered) {
    hold.release();
    deps.metrics->observe_uncharged("client_gone");
    log::info("billing") << request_id << " not charged: the client closed its connection before "
                         << "the response reached it";
    return;
  }
  try {
    if (hold.commit()) {
      deps.metrics->observe_charge(endpoint, cost);
    } else {
      // Expired and released by some node while the request ran (it outlived the reservation's
      // TTL): the credits went back, so the response is free rather than charged twice.
      deps.metrics->observe_uncharged("reservation_expired");
      log::warn("billing") << request_id << " not charged: its reservation had already expired";
    }
  } catch (const std::exception& e) {
    // The result exists; the store failing now is no reason to withhold it. The reservation
    // is released by the hold, or by its expiry if the store stays down.
    deps.metrics->observe_uncharged("store_error");
    log::error("billing") << request_id << " not charged, the store failed to commit: "
                          << e.what();
  }
}

}  // namespace

Millis default_request_budget(const Config& config) {
  return Millis(std::clamp<long long>(config.get_int("endpoint_timeout_ms", 90000), 1000, 300000));
}

Response billed(Request& request, Dependencies& deps, std::string_view cost_key,
                const BilledWork& work, std::optional<Millis> budget) {
  const store::Account caller = authenticate(request, deps);
  return billed(request, deps, caller, cost_key, work, budget);
}

namespace {

Millis since(SteadyClock::time_point start) {
  return std::chrono::duration_cast<Millis>(SteadyClock::now() - start);
}

// Charges `hold` for `response` if its client is still there (a 200 only).
void settle(Request& request, Dependencies& deps, const std::string& endpoint, std::int64_t cost,
            store::CreditHold& hold, Response& response);

}  // namespace

Response billed(Request& request, Dependencies& deps, const store::Account& caller,
                std::string_view cost_key, const BilledWork& work, std::optional<Millis> budget) {
  const Deadline deadline = request.received + budget.value_or(default_request_budget(deps.config));
  const std::string endpoint(cost_key);
  const std::int64_t cost = deps.costs.of(endpoint);

  // Credits first: an account that cannot pay hears 402 at once instead of queueing for it.
  store::CreditHold hold(*deps.store, caller.id, endpoint, cost, request.id);
  // From here every way out but the commit below releases the credits (hold's destructor).
  Admission::Ticket ticket = deps.admission->admit(caller.id, caller.concurrency_limit, deadline);
  Response response = work(caller, deadline);
  settle(request, deps, endpoint, cost, hold, response);
  return response;
}

Response billed_overlapped(Request& request, Dependencies& deps, const store::Account& caller,
                           std::string_view cost_key, const OverlappedWork& work,
                           std::optional<Millis> budget) {
  const Deadline deadline = request.received + budget.value_or(default_request_budget(deps.config));
  const std::string endpoint(cost_key);
  const std::int64_t cost = deps.costs.of(endpoint);
  const auto started = SteadyClock::now();

  // The reservation's store round trip runs while the work opens its browser tab. The future's
  // destructor waits for it, and a hold nobody took is released with the future's state.
  std::future<std::unique_ptr<store::CreditHold>> pending =
      std::async(std::launch::async, [&deps, &caller, endpoint, cost, id = request.id] {
        const auto start = SteadyClock::now();
        auto hold = std::make_unique<store::CreditHold>(*deps.store, caller.id, endpoint, cost, id);
        if (deps.metrics) deps.metrics->observe_phase("reserve", since(start));
        return hold;
      });
  std::unique_ptr<store::CreditHold> hold;
  std::exception_ptr refused;
  Millis waited{0};
  const Reserved reserved = [&] {
    if (hold) return;
    if (refused) std::rethrow_exception(refused);
    const auto start = SteadyClock::now();
    try {
      hold = pending.get();
    } catch (...) {
      refused = std::current_exception();
      throw;
    }
    waited = since(start);
    if (deps.metrics) deps.metrics->observe_phase("reserve_wait", waited);
  };

  std::optional<Admission::Ticket> ticket;
  try {
    ticket.emplace(deps.admission->admit(caller.id, caller.concurrency_limit, deadline));
  } catch (...) {
    reserved();  // an account that cannot pay hears 402 rather than 429
    throw;
  }
  const auto work_started = SteadyClock::now();
  Response response = work(caller, deadline, reserved);
  const Millis worked = since(work_started);
  reserved();  // work that loaded nothing has not waited yet
  const auto commit_started = SteadyClock::now();
  settle(request, deps, endpoint, cost, *hold, response);
  if (response.status == 200 && deps.metrics) {
    deps.metrics->observe_phase("commit", since(commit_started));
  }
  log::debug("billing") << request.id << " " << endpoint << ": admitted after "
                        << std::chrono::duration_cast<Millis>(work_started - started).count()
                        << " ms, work " << worked.count() << " ms (of which waiting for the "
                        << "reservation " << waited.count() << " ms), settled in "
                        << since(commit_started).count() << " ms";
  return response;
}

namespace {

void settle(Request& request, Dependencies& deps, const std::string& endpoint, std::int64_t cost,
            store::CreditHold& hold, Response& response) {
  if (response.status != 200) return;
  // Measured before it is charged: an answer too large to send is an error, and free.
  render_within(request, response, max_answer_bytes(deps.config));
  // What this answer costs, for a client that shows it (the console): charged once delivered.
  response.headers["X-Credits-Charged"] = std::to_string(cost);

  // cpp-httplib cannot tell a handler that its client left, so the server peeks at the socket
  // (docs/api.md, "Client disconnects").
  switch (client_state()) {
    case ClientState::Gone:
      charge(hold, deps, request.id, endpoint, cost, false);
      return;
    case ClientState::SendingClosed: {
      // Half-closed (it still reads) or gone (it closed its socket): only writing the answer
      // tells. Charged once the client's TCP has acknowledged every byte of it.
      auto held = std::make_shared<store::CreditHold>(std::move(hold));
      const bool told = when_delivered([held, &deps, id = request.id, endpoint, cost](bool delivered) {
        charge(*held, deps, id, endpoint, cost, delivered);
      });
      if (!told) charge(*held, deps, request.id, endpoint, cost, true);
      return;
    }
    case ClientState::Connected: break;
  }
  charge(hold, deps, request.id, endpoint, cost, true);
}

}  // namespace

}  // namespace gleaner::api
