#pragma once
// The Fetch-domain side of request interception for one page: which requests Chromium pauses,
// and the answer to each. Cheap decisions (a blocked resource type, nothing to ask) are answered
// on the DevTools thread; asking the Interceptor chain runs on the browser's Executor.
#include "browser/executor.h"
#include "browser/interception.h"
#include "cdp/connection.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gleaner::browser {

/// What a page's requests go through.
struct InterceptionSettings {
  /// Consulted in order; the first decision wins; none → the request continues.
  std::vector<std::shared_ptr<Interceptor>> chain;
  /// Resource types failed with BlockedByClient before the chain is asked.
  std::set<std::string> blocked_types;
  /// Answer to a proxy's authentication challenge; nullopt: cancel any challenge.
  std::optional<std::pair<std::string, std::string>> proxy_credentials;
  /// The page goes through a proxy that will challenge: pause every request so challenges reach
  /// us, even before the credentials are known (a warm page, configured for its lease later).
  /// Implied by proxy_credentials.
  bool proxy_auth = false;
};

class RequestRouter : public std::enable_shared_from_this<RequestRouter> {
 public:
  RequestRouter(cdp::Connection& connection, std::string session_id, std::string main_frame_id,
                Executor& executor);

  /// Replaces the settings. Returns the Fetch command that makes Chromium pause what they need
  /// ({"method", "params"}), or nullopt when that is already in effect.
  std::optional<nlohmann::json> configure(InterceptionSettings settings);

  /// Fetch.requestPaused, on the DevTools thread.
  void on_request_paused(const nlohmann::json& params);
  /// Fetch.authRequired, on the DevTools thread.
  void on_auth_required(const nlohmann::json& params);
  /// Stops answering (the page is closing; its context's disposal drops paused requests).
  void close();

  /// The Fetch command for `settings` ({"method": "Fetch.enable"|"Fetch.disable", "params"}).
  static nlohmann::json fetch_command(const InterceptionSettings& settings);

 private:
  void decide_and_answer(const std::string& request_id, const InterceptedRequest& request,
                         const std::vector<std::shared_ptr<Interceptor>>& chain);
  void answer(const std::string& request_id, const Decision& decision);

  cdp::Connection& connection_;
  const std::string session_id_;
  const std::string main_frame_id_;
  Executor& executor_;

  mutable std::mutex mutex_;  // guards settings_, fetch_command_, closed_, authenticated_
  InterceptionSettings settings_;
  nlohmann::json fetch_command_;  // the command last returned by configure()
  bool closed_ = false;
  std::set<std::string> authenticated_;  // requests already given the credentials once
};

/// Standard base64 of `data` (Fetch.fulfillRequest bodies).
std::string base64_encode(std::string_view data);

}  // namespace gleaner::browser
