#pragma once
// The seam under webhook delivery: one POST to a receiver and what came of it. The real sender is
// jobs/http_webhook_sender.h; tests of the outbox use a scripted fake instead.
#include <map>
#include <optional>
#include <string>

#include "core/clock.h"

namespace gleaner::jobs {

struct WebhookRequest {
  std::string url;
  std::map<std::string, std::string> headers;  ///< the job's custom headers
  std::string body;                            ///< JSON
  Millis timeout{10'000};                      ///< for the whole attempt, answer included
};

/// Outcome names as recorded in the job's details.
namespace outcome {
inline constexpr const char* kOk = "ok";                       ///< a 2xx answer
inline constexpr const char* kHttpError = "http_error";        ///< any other status
inline constexpr const char* kTimeout = "timeout";             ///< no answer within the timeout
inline constexpr const char* kNetworkError = "network_error";  ///< refused, reset, DNS failure
inline constexpr const char* kRefused = "refused";             ///< the address guard said no
}  // namespace outcome

struct WebhookResult {
  std::string outcome;
  std::optional<int> http_status;
  std::string detail;  ///< for people: "HTTP 503", "connection refused", ...
  bool ok() const { return outcome == outcome::kOk; }
};

class WebhookSender {
 public:
  virtual ~WebhookSender() = default;
  /// Sends one delivery attempt; never throws for the receiver's failures (they are results).
  virtual WebhookResult send(const WebhookRequest& request) = 0;
};

}  // namespace gleaner::jobs
