#include "api/billing.h"

#include "api/admission.h"
#include "api/auth.h"
#include "api/metrics.h"
#include "api/server.h"
#include "api/service.h"
#include "core/error.h"
#include "core/log.h"
#include "store/credit_hold.h"

#include <algorithm>
#include <memory>

namespace gleaner::api {

namespace {

/// Charges a 200 whose client got it (`delivered`), or releases it, and counts which.
void settle(store::CreditHold& hold, Dependencies& deps, const std::string& request_id,
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
  if (response.status != 200) return response;

  // cpp-httplib cannot tell a handler that its client left, so the server peeks at the socket
  // (docs/api.md, "Client disconnects").
  switch (client_state()) {
    case ClientState::Gone:
      settle(hold, deps, request.id, endpoint, cost, false);
      return response;
    case ClientState::SendingClosed: {
      // Half-closed (it still reads) or gone (it closed its socket): only writing the answer
      // tells. Charged once the client's TCP has acknowledged every byte of it.
      auto held = std::make_shared<store::CreditHold>(std::move(hold));
      const bool told = when_delivered([held, &deps, id = request.id, endpoint, cost](bool delivered) {
        settle(*held, deps, id, endpoint, cost, delivered);
      });
      if (!told) settle(*held, deps, request.id, endpoint, cost, true);
      return response;
    }
    case ClientState::Connected: break;
  }
  settle(hold, deps, request.id, endpoint, cost, true);
  return response;
}

}  // namespace gleaner::api
