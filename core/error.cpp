#include "core/error.h"

namespace gleaner {

int http_status(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidParameter:
    case ErrorCode::MissingParameter:
    case ErrorCode::ConflictingParameters:
    case ErrorCode::InvalidJson: return 400;
    case ErrorCode::MissingApiKey:
    case ErrorCode::InvalidApiKey: return 401;
    case ErrorCode::InsufficientCredits: return 402;
    case ErrorCode::NotFound: return 404;
    case ErrorCode::MethodNotAllowed: return 405;
    case ErrorCode::PayloadTooLarge: return 413;
    case ErrorCode::SessionLost: return 409;
    case ErrorCode::JobNotEnded: return 409;
    case ErrorCode::TooManyRequests: return 429;
    case ErrorCode::ScenarioFailed: return 422;
    case ErrorCode::UpstreamBlocked:
    case ErrorCode::UpstreamError:
    case ErrorCode::ExtractionFailed:
    case ErrorCode::AnswerTooLarge: return 502;
    case ErrorCode::StorageQuotaExceeded:
    case ErrorCode::InsufficientStorage: return 507;
    case ErrorCode::Timeout: return 504;
    case ErrorCode::Unavailable: return 503;
    case ErrorCode::NotImplemented: return 501;
    case ErrorCode::Internal: return 500;
  }
  return 500;
}

std::string_view code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidParameter: return "invalid_parameter";
    case ErrorCode::MissingParameter: return "missing_parameter";
    case ErrorCode::ConflictingParameters: return "conflicting_parameters";
    case ErrorCode::InvalidJson: return "invalid_json";
    case ErrorCode::MissingApiKey: return "missing_api_key";
    case ErrorCode::InvalidApiKey: return "invalid_api_key";
    case ErrorCode::InsufficientCredits: return "insufficient_credits";
    case ErrorCode::NotFound: return "not_found";
    case ErrorCode::MethodNotAllowed: return "method_not_allowed";
    case ErrorCode::PayloadTooLarge: return "payload_too_large";
    case ErrorCode::SessionLost: return "session_lost";
    case ErrorCode::JobNotEnded: return "job_not_ended";
    case ErrorCode::TooManyRequests: return "too_many_requests";
    case ErrorCode::ScenarioFailed: return "scenario_failed";
    case ErrorCode::UpstreamBlocked: return "upstream_blocked";
    case ErrorCode::UpstreamError: return "upstream_error";
    case ErrorCode::ExtractionFailed: return "extraction_failed";
    case ErrorCode::AnswerTooLarge: return "answer_too_large";
    case ErrorCode::StorageQuotaExceeded: return "storage_quota_exceeded";
    case ErrorCode::InsufficientStorage: return "insufficient_storage";
    case ErrorCode::Timeout: return "timeout";
    case ErrorCode::Unavailable: return "unavailable";
    case ErrorCode::NotImplemented: return "not_implemented";
    case ErrorCode::Internal: return "internal";
  }
  return "internal";
}

Error invalid_parameter(std::string parameter, std::string message) {
  return Error(ErrorCode::InvalidParameter, std::move(message))
      .with_parameter(std::move(parameter));
}

Error missing_parameter(std::string parameter) {
  std::string message = "missing required parameter '" + parameter + "'";
  return Error(ErrorCode::MissingParameter, std::move(message))
      .with_parameter(std::move(parameter));
}

Error conflicting_parameters(std::string parameter, std::string message) {
  return Error(ErrorCode::ConflictingParameters, std::move(message))
      .with_parameter(std::move(parameter));
}

Error extraction_failed(std::string message, std::string detail) {
  return Error(ErrorCode::ExtractionFailed, std::move(message), std::move(detail));
}

std::string describe(const std::exception& e) {
  const auto* error = dynamic_cast<const Error*>(&e);
  if (!error || error->detail().empty() || error->detail() == e.what()) return e.what();
  return std::string(e.what()) + ": " + error->detail();
}

}  // namespace gleaner
