#include <algorithm>
#include <map>

#include "api/auth.h"
#include "api/billing.h"
#include "api/routes/routes.h"
#include "core/error.h"
#include "core/json_depth.h"
#include "extract/web/fetch.h"
#include "screenshots/serve.h"

namespace gleaner::api {
namespace {

// One query value as the body field it stands for. The hosted service's clients send the body's
// fields as query parameters: booleans as true/false, numbers as digits, objects (headers, rules,
// scenarios) as their JSON text. The body parser then checks each field's type as for POST.
// A value nested deeper than max_json_depth() is refused as a body would be, before it is parsed.
nlohmann::json field_value(const std::string& name, const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  if (!text.empty() && text.size() <= 15 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::stoll(text);
  }
  if (!text.empty() && (text.front() == '{' || text.front() == '[')) {
    if (json_text_deeper_than(text, max_json_depth())) {
      throw Error(ErrorCode::InvalidJson, too_deep_message("'" + name + "'")).with_parameter(name);
    }
    nlohmann::json parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!parsed.is_discarded()) return parsed;
  }
  return text;
}

// The body of POST /scrape/web that a GET query stands for: `name=v` a field, `name[]=v` and
// `name[0]=v` items of an array field, `name[key]=v` a key of an object field (viewport[width]).
nlohmann::json body_of_query(const Query& query) {
  nlohmann::json body = nlohmann::json::object();
  std::map<std::string, std::map<long, std::string>> indexed;  // name[i]: items by index
  for (const auto& [key, value] : query) {
    const std::size_t open = key.find('[');
    if (open == std::string::npos || open == 0 || !key.ends_with("]")) {
      if (body.contains(key)) throw invalid_parameter(key, "'" + key + "' may be given only once");
      body[key] = field_value(key, value);
      continue;
    }
    const std::string name = key.substr(0, open);
    const std::string inside = key.substr(open + 1, key.size() - open - 2);
    nlohmann::json& field = body[name];
    const bool digits =
        !inside.empty() && inside.size() <= 4 &&
        std::all_of(inside.begin(), inside.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (inside.empty() || digits) {
      if (!field.is_null() && !field.is_array()) {
        throw invalid_parameter(name, "'" + name + "' is given both as a value and as items");
      }
      if (field.is_null()) field = nlohmann::json::array();
      if (digits && !indexed[name].emplace(std::stol(inside), value).second) {
        throw invalid_parameter(name, "'" + key + "' is given twice");
      }
      if (inside.empty()) field.push_back(value);
    } else {
      if (!field.is_null() && !field.is_object()) {
        throw invalid_parameter(name, "'" + name + "' is given both as a value and as keys");
      }
      field[inside] = field_value(key, value);
    }
  }
  for (const auto& [name, items] : indexed) {
    if (!body[name].empty()) {
      throw invalid_parameter(name, "'" + name + "' is written both with indexes and without");
    }
    for (const auto& [index, value] : items) body[name].push_back(value);
  }
  return body;
}

}  // namespace

std::string with_session_header(const std::string& body, const Request& request) {
  // Names are lower case here.
  const std::string header = request.header("x-session-id");
  if (header.empty() || json_text_deeper_than(body, max_json_depth())) return body;
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return body;
  if (const auto named = parsed.find("sessionId"); named != parsed.end() && !named->is_null()) {
    if (*named != header) {
      throw conflicting_parameters("sessionId",
                                   "the body's sessionId and the X-Session-Id "
                                   "header name different sessions");
    }
    return body;
  }
  parsed["sessionId"] = header;
  return parsed.dump();
}

void add_web_routes(Router& router, Dependencies& deps) {
  const Handler fetch = [&deps](Request& request) {
    // Authenticated, then validated before charging: a bad body is a 400, never a 402.
    const store::Account caller = authenticate(request, deps);
    std::string text =
        request.method == "POST" ? request.body : body_of_query(request.query).dump();
    // docs/sessions.md: the session may be named in a header too, which a load balancer can
    // route on (the body's field is out of its sight).
    text = with_session_header(text, request);
    web::WebRequest body = web::parse_web_request(text, default_request_budget(deps.config));
    web::WebServices services{*deps.pool, deps.gateway.get(), deps.screenshots.get(),
                              deps.sessions.get(), caller.id};
    // The proxy too is chosen before charging: it decides the cost.
    const proxies::Route route = web::choose_route(body, services);
    return billed_overlapped(request, deps, caller, web::cost_key(body, route),
                             [&](const store::Account&, Deadline deadline, const Reserved& reserved) {
      // The tab opens while the credits are reserved; the page loads once they are.
      web::WebResult result = web::fetch_page(body, route, services, deadline, reserved);
      Response response;
      response.body = std::move(result.body);
      response.url = std::move(result.url);
      return response;
    }, body.timeout);
  };
  router.add("POST", "/scrape/web", fetch);
  router.add("GET", "/scrape/web", fetch);

  // Signed screenshot URLs need no API key: the signature is the credential.
  router.add("GET", "/screenshots/{file}", [&deps](Request& request) {
    if (!deps.screenshots) throw Error(ErrorCode::NotFound, "no such screenshot");
    auto shot = deps.screenshots->serve(request.path_params.at("file"),
                                        request.query_value("expires"), request.query_value("sig"));
    Response response = Response::raw(std::move(shot.body), shot.content_type);
    response.headers["Cache-Control"] = shot.cache_control;
    return response;
  });
}

}  // namespace gleaner::api
