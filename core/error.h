#pragma once
// The one error type every layer throws. `api/` maps it to an HTTP status and body in one place
// (see spec/conventions.md "Errors"); the log message stays apart from what the client is told.
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gleaner {

enum class ErrorCode {
  InvalidParameter,       // 400
  MissingParameter,       // 400
  ConflictingParameters,  // 400
  InvalidJson,            // 400
  MissingApiKey,          // 401
  InvalidApiKey,          // 401
  InsufficientCredits,    // 402
  NotFound,               // 404
  MethodNotAllowed,       // 405
  PayloadTooLarge,        // 413
  SessionLost,            // 409: a sessionId whose browser context is gone (docs/sessions.md)
  JobNotEnded,            // 409: an operation on a job that needs it ended (docs/jobs.md)
  TooManyRequests,        // 429
  ScenarioFailed,         // 422
  UpstreamBlocked,        // 502
  UpstreamError,          // 502
  ExtractionFailed,       // 502: a page that is no wall and no error page, without data we can read
  AnswerTooLarge,         // 502: an answer over `max_answer_bytes` (docs/api.md "Sizes")
  StorageQuotaExceeded,   // 507: the account's stored job results are over its quota
  InsufficientStorage,    // 507: the store's disk is short of `min_free_disk_bytes`
  Timeout,                // 504
  Unavailable,            // 503
  NotImplemented,  // 501: an operation of the hosted service's clients without a verified page
  Internal,        // 500
};

/// HTTP status of a code (400, 401, ...).
int http_status(ErrorCode code);
/// The wire name of a code (`invalid_parameter`, ...).
std::string_view code_name(ErrorCode code);

class Error : public std::runtime_error {
 public:
  /// `message` is shown to the client; `detail` (optional) only goes to the log.
  Error(ErrorCode code, std::string message, std::string detail = {})
      : std::runtime_error(message), code_(code), detail_(std::move(detail)) {}

  ErrorCode code() const { return code_; }
  const std::string& detail() const { return detail_; }
  const std::optional<std::string>& parameter() const { return parameter_; }
  std::optional<std::chrono::seconds> retry_after() const { return retry_after_; }
  /// ScenarioFailed: the index of the jsScenario step that failed, returned as `error.step`.
  std::optional<int> step() const { return step_; }

  /// Names the request parameter (or body field) at fault; returned as `error.parameter`.
  Error& with_parameter(std::string name) & {
    parameter_ = std::move(name);
    return *this;
  }
  Error&& with_parameter(std::string name) && {
    parameter_ = std::move(name);
    return std::move(*this);
  }
  Error&& with_step(int index) && {
    step_ = index;
    return std::move(*this);
  }
  Error&& with_retry_after(std::chrono::seconds s) && {
    retry_after_ = s;
    return std::move(*this);
  }

 private:
  ErrorCode code_;
  std::string detail_;
  std::optional<std::string> parameter_;
  std::optional<std::chrono::seconds> retry_after_;
  std::optional<int> step_;
};

/// For the log: what() and, for an Error, its detail ("store error: SQLite ... UNIQUE constraint
/// failed ..."), so a line says why and not only what the client was told.
std::string describe(const std::exception& e);

/// Shorthands for the common validation errors, each naming the parameter.
Error invalid_parameter(std::string parameter, std::string message);
Error missing_parameter(std::string parameter);
Error conflicting_parameters(std::string parameter, std::string message);
/// A page that is no wall and no error page, without the data a data endpoint reads (a layout it
/// does not know): 502 `extraction_failed`, never `upstream_blocked`. `message` says what is
/// missing ("no search results could be read on the page"); `detail` (log only) where and why.
Error extraction_failed(std::string message, std::string detail);

}  // namespace gleaner
