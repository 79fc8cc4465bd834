// GET /scrape/sessions and DELETE /scrape/sessions/{id}: the caller's browser sessions
// (docs/sessions.md). Only the caller's account is ever looked at: another account's session of
// the same name is neither listed nor ended, and answers as a session that does not exist.
#include "extract/sessions.h"

#include "api/auth.h"
#include "api/routes/routes.h"
#include "core/error.h"
#include "core/time_text.h"

namespace gleaner::api {
namespace {

nlohmann::json session_json(const store::SessionRecord& s) {
  return {{"id", s.id},
          {"created", iso8601_utc(s.created_at)},
          {"lastUsed", iso8601_utc(s.last_used_at)},
          {"expires", iso8601_utc(s.expires_at)},
          {"requests", s.requests},
          {"proxyCountry", s.proxy_country ? nlohmann::json(*s.proxy_country) : nlohmann::json()}};
}

extract::SessionRegistry& sessions_of(Dependencies& deps) {
  if (!deps.sessions)
    throw Error(ErrorCode::Unavailable, "sessions are not available on this node");
  return *deps.sessions;
}

}  // namespace

void add_session_routes(Router& router, Dependencies& deps) {
  router.add("GET", "/scrape/sessions", [&deps](Request& request) {
    const store::Account caller = authenticate(request, deps);
    nlohmann::json list = nlohmann::json::array();
    for (const auto& s : sessions_of(deps).list(caller.id)) list.push_back(session_json(s));
    Response r;
    r.body = {{"sessions", std::move(list)}};
    return r;
  });
  router.add("DELETE", "/scrape/sessions/{id}", [&deps](Request& request) {
    const store::Account caller = authenticate(request, deps);
    const std::string& id = request.path_params.at("id");
    sessions_of(deps).end(caller.id, id);
    Response r;
    r.body = {{"id", id}, {"ended", true}};
    return r;
  });
}

}  // namespace gleaner::api
