#include "api/admission.h"
#include "api/auth.h"
#include "api/routes/routes.h"
#include "core/time_text.h"
#include "store/store.h"

namespace gleaner::api {

void add_account_routes(Router& router, Dependencies& deps) {
  const Handler account = [&deps](Request& request) {
    const store::Account caller = authenticate(request, deps);
    const store::AccountView view = deps.store->account_view(caller.id);
    const store::Account& a = view.account;
    nlohmann::json usage = nlohmann::json::array();
    std::int64_t requests = 0;
    std::int64_t credits = 0;
    for (const store::EndpointUsage& u : view.usage) {
      usage.push_back({{"endpoint", u.endpoint}, {"requests", u.requests}, {"credits", u.credits}});
      requests += u.requests;
      credits += u.credits;
    }
    nlohmann::json errors = nlohmann::json::array();
    for (const store::ErrorUsage& e : view.errors) {
      errors.push_back({{"route", e.route}, {"code", e.code}, {"requests", e.requests}});
    }
    Response r;
    r.body = {{"account", {{"id", a.id}, {"name", a.name}}},
              {"balance", a.balance},
              {"allowance", a.allowance},
              {"periodStart", iso8601_utc(a.period_start)},
              {"periodEnd", iso8601_utc(a.period_end)},
              // The limit in force: the account's own, else the configured default.
              {"concurrencyLimit",
               a.concurrency_limit.value_or(deps.admission->options().account_limit)},
              {"usage",
               {{"requests", requests},
                {"credits", credits},
                {"endpoints", std::move(usage)},
                {"errors", std::move(errors)}}}};
    return r;
  };
  router.add("GET", "/account", account);
  // The hosted service's clients check a key with GET /user/me and read usage from
  // /user/me/usage: both get the account's answer, which holds the identity and the usage.
  router.add("GET", "/user/me", account);
  router.add("GET", "/user/me/usage", account);
}

}  // namespace gleaner::api
