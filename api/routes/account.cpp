#include "api/admission.h"
#include "api/auth.h"
#include "api/routes/routes.h"
#include "store/store.h"

#include <ctime>
#include <iomanip>
#include <sstream>

namespace gleaner::api {
namespace {

/// ISO 8601 in UTC, as every time in the API is written.
std::string iso_utc(store::TimePoint t) {
  const auto seconds = static_cast<std::time_t>(store::to_unix_seconds(t));
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  std::ostringstream out;
  out << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  return out.str();
}

}  // namespace

void add_account_routes(Router& router, Dependencies& deps) {
  router.add("GET", "/account", [&deps](Request& request) {
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
    Response r;
    r.body = {{"account", {{"id", a.id}, {"name", a.name}}},
              {"balance", a.balance},
              {"allowance", a.allowance},
              {"periodStart", iso_utc(a.period_start)},
              {"periodEnd", iso_utc(a.period_end)},
              // The limit in force: the account's own, else the configured default.
              {"concurrencyLimit",
               a.concurrency_limit.value_or(deps.admission->options().account_limit)},
              {"usage",
               {{"requests", requests}, {"credits", credits}, {"endpoints", std::move(usage)}}}};
    return r;
  });
}

}  // namespace gleaner::api
