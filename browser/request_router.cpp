#include "browser/request_router.h"

#include <algorithm>
#include <exception>

#include "core/error.h"
#include "core/log.h"

namespace gleaner::browser {
namespace {

using Json = nlohmann::json;

// Past this many proxy challenges answered on one page the record starts afresh: it only serves to
// refuse a second challenge for the same request (wrong credentials), which follows at once.
constexpr std::size_t kMaxAuthenticated = 1024;
constexpr const char* kDocument = "Document";

InterceptedRequest to_request(const Json& params, const std::string& main_frame_id) {
  InterceptedRequest request;
  const Json& r = params.at("request");
  // Without the fragment (Chromium reports it apart): the URL a server sees.
  request.url = r.value("url", std::string());
  request.method = r.value("method", std::string("GET"));
  request.resource_type = params.value("resourceType", std::string());
  if (auto h = r.find("headers"); h != r.end() && h->is_object()) {
    for (const auto& [name, value] : h->items())
      if (value.is_string()) request.headers[name] = value.get<std::string>();
  }
  request.is_navigation = request.resource_type == kDocument;
  request.is_main_frame =
      request.is_navigation && params.value("frameId", std::string()) == main_frame_id;
  return request;
}

}  // namespace

std::string base64_encode(std::string_view data) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    unsigned n = (static_cast<unsigned char>(data[i]) << 16) |
                 (static_cast<unsigned char>(data[i + 1]) << 8) |
                 static_cast<unsigned char>(data[i + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (i + 1 == data.size()) {
    unsigned n = static_cast<unsigned char>(data[i]) << 16;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += "==";
  } else if (i + 2 == data.size()) {
    unsigned n = (static_cast<unsigned char>(data[i]) << 16) |
                 (static_cast<unsigned char>(data[i + 1]) << 8);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += '=';
  }
  return out;
}

RequestRouter::RequestRouter(cdp::Connection& connection, std::string session_id,
                             std::string main_frame_id, Executor& executor)
    : connection_(connection),
      session_id_(std::move(session_id)),
      main_frame_id_(std::move(main_frame_id)),
      executor_(executor),
      fetch_command_(fetch_command(InterceptionSettings{})) {}

Json RequestRouter::fetch_command(const InterceptionSettings& settings) {
  const bool auth = settings.proxy_auth || settings.proxy_credentials.has_value();
  const bool want_all =
      std::any_of(settings.chain.begin(), settings.chain.end(),
                  [](const auto& i) { return i->scope() == InterceptScope::AllRequests; });
  if (settings.chain.empty() && !auth && settings.blocked_types.empty())
    return {{"method", "Fetch.disable"}, {"params", Json::object()}};
  Json patterns = Json::array();
  if (want_all || auth) {
    // Everything pauses (a proxy may challenge any request); blocked types are failed on the
    // DevTools thread.
    patterns.push_back({{"urlPattern", "*"}});
  } else {
    // Only what somebody wants pauses: every other request goes on without a round trip.
    std::set<std::string> types = settings.blocked_types;
    if (!settings.chain.empty()) types.insert(kDocument);
    for (const auto& type : types)
      patterns.push_back({{"urlPattern", "*"}, {"resourceType", type}});
  }
  return {{"method", "Fetch.enable"},
          {"params", {{"patterns", std::move(patterns)}, {"handleAuthRequests", auth}}}};
}

std::optional<Json> RequestRouter::configure(InterceptionSettings settings) {
  Json command = fetch_command(settings);
  std::lock_guard lock(mutex_);
  settings_ = std::move(settings);
  if (command == fetch_command_) return std::nullopt;
  fetch_command_ = command;
  return command;
}

void RequestRouter::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

void RequestRouter::on_request_paused(const Json& params) {
  const std::string request_id = params.value("requestId", std::string());
  if (request_id.empty()) return;
  InterceptedRequest request = to_request(params, main_frame_id_);
  std::vector<std::shared_ptr<Interceptor>> chain;
  bool blocked = false;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    blocked = settings_.blocked_types.count(request.resource_type) > 0;
    if (!blocked) {
      for (const auto& interceptor : settings_.chain)
        if (request.is_navigation || interceptor->scope() == InterceptScope::AllRequests)
          chain.push_back(interceptor);
    }
  }
  if (blocked) return answer(request_id, Fail{"BlockedByClient"});
  if (chain.empty()) return answer(request_id, Continue{});
  // The chain may block (a DNS lookup): run it off the DevTools thread.
  executor_.post(
      [self = shared_from_this(), request_id, request = std::move(request),
       chain = std::move(chain)] { self->decide_and_answer(request_id, request, chain); });
}

void RequestRouter::decide_and_answer(const std::string& request_id,
                                      const InterceptedRequest& request,
                                      const std::vector<std::shared_ptr<Interceptor>>& chain) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
  }
  Decision decision = Continue{};
  try {
    for (const auto& interceptor : chain) {
      if (auto d = interceptor->decide(request)) {
        decision = std::move(*d);
        break;
      }
    }
  } catch (const std::exception& e) {
    // An interceptor that fails must not let the request through unchecked.
    log::error("browser") << "interceptor failed on " << request.url << ": " << describe(e);
    decision = Fail{"Failed"};
  }
  answer(request_id, decision);
}

void RequestRouter::answer(const std::string& request_id, const Decision& decision) {
  if (std::holds_alternative<Continue>(decision)) {
    connection_.notify("Fetch.continueRequest", {{"requestId", request_id}}, session_id_);
  } else if (const auto* fail = std::get_if<Fail>(&decision)) {
    connection_.notify("Fetch.failRequest",
                       {{"requestId", request_id}, {"errorReason", fail->reason}}, session_id_);
  } else {
    const auto& fulfill = std::get<Fulfill>(decision);
    Json headers = Json::array();
    for (const auto& [name, value] : fulfill.headers)
      headers.push_back({{"name", name}, {"value", value}});
    connection_.notify("Fetch.fulfillRequest",
                       {{"requestId", request_id},
                        {"responseCode", fulfill.status},
                        {"responseHeaders", std::move(headers)},
                        {"body", base64_encode(fulfill.body)}},
                       session_id_);
  }
}

void RequestRouter::on_auth_required(const Json& params) {
  const std::string request_id = params.value("requestId", std::string());
  const Json challenge = params.value("authChallenge", Json::object());
  Json response = {{"response", "CancelAuth"}};
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    // Only the proxy's challenge gets the proxy's credentials, and only once per request: a
    // second challenge means they were refused.
    if (challenge.value("source", std::string()) == "Proxy" && settings_.proxy_credentials &&
        authenticated_.insert(request_id).second) {
      response = {{"response", "ProvideCredentials"},
                  {"username", settings_.proxy_credentials->first},
                  {"password", settings_.proxy_credentials->second}};
      if (authenticated_.size() > kMaxAuthenticated) authenticated_ = {request_id};
    }
  }
  connection_.notify("Fetch.continueWithAuth",
                     {{"requestId", request_id}, {"authChallengeResponse", std::move(response)}},
                     session_id_);
}

}  // namespace gleaner::browser
